import Foundation

extension PersistentStoreCoordinator {
    /// A token for the latest transaction of each store that tracks history (of `stores`, or
    /// of every store for `nil`); `nil` when none of them tracks history.
    ///
    /// Fetching history after it returns only what is committed later.
    ///
    /// - Note: Mirrors `currentPersistentHistoryToken(fromStores:)`.
    public func currentPersistentHistoryToken(fromStores stores: [any PersistentStore]?)
        -> PersistentHistoryToken?
    {
        locked {
            var numbers: [String: Int64] = [:]
            for store in stores ?? persistentStores where store.tracksHistory {
                if let n = try? store.currentHistoryTransactionNumber() {
                    numbers[store.identifier] = n
                }
            }
            return numbers.isEmpty ? nil : PersistentHistoryToken(transactionNumbers: numbers)
        }
    }

    /// Runs a history request on every store (see ``PersistentHistoryChangeRequest``).
    func execute(_ request: PersistentHistoryChangeRequest) throws -> PersistentHistoryResult {
        try locked {
            let stores = persistentStores
            for store in stores where !store.tracksHistory {
                throw HistoryErrors.notTracked(store)
            }
            let token: PersistentHistoryToken?
            switch request.bound {
            case .token(let t): token = t
            case .transaction(let t): token = t?.token
            case .date, .all: token = nil
            }
            if let token,
                !stores.contains(where: { token.transactionNumbers[$0.identifier] != nil })
            {
                throw HistoryErrors.anotherStore(token, stores: stores.map(\.identifier))
            }
            if request.isDelete {
                var deleted = 0
                for store in stores {
                    deleted += try deleteHistory(of: store, request: request, token: token)
                }
                return PersistentHistoryResult(
                    result: request.resultType == .count ? deleted : true,
                    historyResultType: request.resultType)
            }
            var transactions: [PersistentHistoryTransaction] = []
            for store in stores {
                transactions += try HistoryQuery(request: request, storeID: store.identifier)
                    .run(try store.history(after: token?.transactionNumbers[store.identifier]))
            }
            if stores.count > 1 {
                transactions.sort {
                    ($0.timestamp, $0.storeID, $0.transactionNumber)
                        < ($1.timestamp, $1.storeID, $1.transactionNumber)
                }
            }
            if let filter = request.fetchRequest?.historyFetchFilter {
                transactions = try HistoryQuery.window(transactions, filter)
            }
            return PersistentHistoryResult(
                result: HistoryQuery.result(transactions, request.resultType),
                historyResultType: request.resultType)
        }
    }

    private func deleteHistory(
        of store: any PersistentStore, request: PersistentHistoryChangeRequest,
        token: PersistentHistoryToken?
    ) throws -> Int {
        let last = try store.currentHistoryTransactionNumber()
        let before: Int64
        switch request.bound {
        case .token, .transaction:
            guard let token else {
                before = last + 1
                break
            }
            guard let n = token.transactionNumbers[store.identifier] else { return 0 }
            before = n
        case .date(let date):
            let held = try store.history(after: nil)
            before = held.first { $0.timestamp >= date }?.number ?? last + 1
        case .all:
            before = last + 1
        }
        return try store.deleteHistory(before: before)
    }
}
