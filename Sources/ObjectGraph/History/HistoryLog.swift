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
    /// The bytes each held transaction's line takes in a store file (0 in RAM), in step
    /// with ``transactions``.
    private var lineBytes: [Int] = []
    /// The bytes the lines of the held transactions take: what a compaction must keep.
    private(set) var keptBytes = 0

    /// A log that starts after transaction `start`.
    init(start: Int64) {
        self.start = start
        self.last = start
    }

    /// The smallest token number that is still valid.
    var firstValidToken: Int64 { max(start, retained) }

    /// Records `transaction`, whose number must follow ``last``; `bytes` is what its line
    /// takes in a store file.
    mutating func append(_ transaction: StoreHistoryTransaction, bytes: Int = 0) {
        transactions.append(transaction)
        lineBytes.append(bytes)
        keptBytes += bytes
        last = max(last, transaction.number)
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
        // Deleting cannot reach past the last transaction held: the token of the last one
        // committed before history began (or of an empty history) stays valid.
        let cap = (transactions.last?.number).map { $0 + 1 } ?? retained
        guard min(number, cap) > retained else { return 0 }
        retained = min(number, cap)
        let cut = index(after: retained - 1)
        transactions.removeFirst(cut)
        keptBytes -= lineBytes[..<cut].reduce(0, +)
        lineBytes.removeFirst(cut)
        return cut
    }

    /// The same history with each change's object in `model`'s entity of the same name (a
    /// migrated store's); changes of entities `model` no longer has are dropped. `bytes`
    /// gives each transaction's line size (a compaction's history lines).
    func remapped(to model: ManagedObjectModel, bytes: [Int]? = nil) -> HistoryLog {
        var log = HistoryLog(start: start)
        log.retained = retained
        log.last = last
        for (i, t) in transactions.enumerated() {
            var mapped = t
            mapped.changes = t.changes.compactMap { change in
                guard let entity = model.entitiesByName[change.objectID.entity.name],
                    let store = change.objectID.storeIdentifier
                else { return nil }
                let key = change.objectID.primaryKey
                var c = change
                c.objectID =
                    entity === change.objectID.entity
                    ? change.objectID
                    : ManagedObjectID(entity: entity, storeIdentifier: store, primaryKey: key)
                return c
            }
            log.append(mapped, bytes: bytes?[i] ?? lineBytes[i])
        }
        return log
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
