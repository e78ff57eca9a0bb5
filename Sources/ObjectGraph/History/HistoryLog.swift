import Foundation

/// A store's persistent history in memory: the transactions it holds, in order, and the
/// bounds that decide which tokens are still valid. Both built-in stores keep one; the file
/// store rebuilds it from its log when it opens.
///
/// Transactions numbered above ``start`` were recorded (tracking began after transaction
/// ``start``); ``deleteHistory(before:)`` drops older ones and raises ``retained``. A token of
/// transaction *n* is valid while *n* ≥ ``start`` and *n* ≥ ``retained``: every transaction
/// after it is still here.
struct HistoryLog: Sendable {
    /// The last transaction before tracking began (0 for a store tracked from its creation).
    var start: Int64
    /// The oldest transaction number history may still hold: `deleteHistory(before: n)` sets
    /// it to *n*. 0 until history is first deleted.
    var retained: Int64 = 0
    /// The number of the last transaction committed (recorded or not).
    var last: Int64
    /// The transactions held, ascending by number.
    private(set) var transactions: [StoreHistoryTransaction] = []

    /// A log that starts after transaction `start`.
    init(start: Int64) {
        self.start = start
        self.last = start
    }

    /// The smallest token number that is still valid.
    var firstValidToken: Int64 { max(start, retained) }

    /// Records `transaction`, whose number must follow ``last``.
    mutating func append(_ transaction: StoreHistoryTransaction) {
        transactions.append(transaction)
        last = max(last, transaction.number)
    }

    /// Records transactions read back from a store file (already ordered).
    mutating func append(contentsOf list: [StoreHistoryTransaction]) {
        transactions += list
        if let n = list.last?.number { last = max(last, n) }
    }

    /// The transactions after transaction `number` (all of them for `nil`).
    ///
    /// - Throws: ``ObjectGraphError/Reason/historyTokenExpired`` (134301) when transactions
    ///   after `number` were deleted (or never recorded): never a partial list.
    func transactions(after number: Int64?, store: String, path: String?) throws
        -> ArraySlice<StoreHistoryTransaction>
    {
        guard let number else { return transactions[...] }
        guard number >= firstValidToken else {
            throw HistoryErrors.expired(
                number, keptFrom: firstValidToken, store: store, path: path)
        }
        return transactions[index(after: number)...]
    }

    /// Deletes the transactions numbered below `number`; returns how many it deleted.
    @discardableResult
    mutating func deleteHistory(before number: Int64) -> Int {
        guard number > retained, !transactions.isEmpty else { return 0 }
        retained = min(number, last + 1)
        let cut = index(after: number - 1)
        transactions.removeFirst(cut)
        return cut
    }

    /// The index of the first transaction numbered above `number`.
    private func index(after number: Int64) -> Int {
        var low = 0
        var high = transactions.count
        while low < high {
            let mid = (low + high) / 2
            if transactions[mid].number <= number { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
