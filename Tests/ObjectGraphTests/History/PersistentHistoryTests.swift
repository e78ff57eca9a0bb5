import Foundation
import ObjectGraph
import Testing

/// Persistent history on both stores: every commit is a transaction, with Core Data's fields,
/// changes, tokens and errors (reference: `../shared/reference/coredata-semantics.md` (j),
/// Apple's "Consuming Relevant Store Changes").
@Suite("Persistent history")
struct PersistentHistoryTests {
    @Test(
        "every save is one transaction with its author, context, process, store and time",
        arguments: HistoryStack.Kind.allCases)
    func savesAreTransactions(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        let context = stack.context(author: "importer", name: "background")
        let ids = try context.performAndWait {
            let a = context.insertNewObject(forEntityName: "Item")
            a.setValue("a", forKey: "name")
            let b = context.insertNewObject(forEntityName: "Item")
            b.setValue("b", forKey: "name")
            try context.save()
            return [a.objectID, b.objectID]
        }
        try stack.insert(["c"], author: "app")
        let all = try stack.transactions(after: nil)
        #expect(all.map(\.transactionNumber) == [1, 2])
        let first = try #require(all.first)
        #expect(first.author == "importer")
        #expect(first.contextName == "background")
        #expect(first.storeID == stack.store.identifier)
        #expect(first.processID == String(ProcessInfo.processInfo.processIdentifier))
        #expect(
            first.bundleID == (Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName))
        #expect(first.timestamp < all[1].timestamp)
        #expect(Set(first.changes?.map(\.changedObjectID) ?? []) == Set(ids))
        #expect(
            first.changes?.allSatisfy {
                $0.changeType == .insert && $0.updatedProperties == nil && $0.tombstone == nil
            } == true)
        #expect(first.changes?.first?.transaction === first)
        #expect(
            first.token
                == PersistentHistoryToken(
                    storeIdentifier: stack.store.identifier, transactionNumber: 1))
        #expect(all[1].author == "app")
    }

    @Test(
        "an update lists the properties it changed; a delete keeps the preserved values in its tombstone",
        arguments: HistoryStack.Kind.allCases)
    func updatedPropertiesAndTombstones(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        let id = try stack.insert(["pen"])[0]
        let context = stack.context()
        try context.performAndWait {
            let item = try context.existingObject(with: id)
            item.setValue(3, forKey: "count")
            item.setValue("blue", forKey: "note")
            try context.save()
            context.delete(item)
            try context.save()
        }
        let all = try stack.transactions(after: nil)
        #expect(all.count == 3)
        let update = try #require(all[1].changes?.first)
        #expect(update.changeType == .update)
        #expect(update.updatedPropertyNames == ["count", "note"])
        #expect(Set(update.updatedProperties?.map(\.name) ?? []) == ["count", "note"])
        #expect(update.tombstone == nil)
        let delete = try #require(all[2].changes?.first)
        #expect(delete.changeType == .delete)
        #expect(delete.changedObjectID == id)
        #expect(delete.tombstone?["name"] as? String == "pen")
        #expect(delete.tombstone?["note"] == nil)  // not marked preservesValueInHistoryOnDeletion
        #expect(delete.updatedProperties == nil)
        #expect(delete.changeID > update.changeID)
    }

    @Test(
        "batch update, delete and insert are transactions too",
        arguments: HistoryStack.Kind.allCases)
    func batchRequestsAreRecorded(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        let ids = try stack.insert(["a", "b", "c"])
        let context = stack.context(author: "batch")
        try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Item")
            update.propertiesToUpdate = ["count": 7]
            update.predicate = try FetchPredicate(format: "name != %@", "c")
            _ = try context.execute(update)
            _ = try context.execute(BatchDeleteRequest(objectIDs: [ids[2]]))
            let insert = BatchInsertRequest(entityName: "Item", objects: [["name": "d"]])
            _ = try context.execute(insert)
        }
        let all = try stack.transactions(after: nil)
        #expect(all.count == 4)
        #expect(all[1...].allSatisfy { $0.author == "batch" })
        #expect(all[1].changes?.map(\.changeType) == [.update, .update])
        #expect(all[1].changes?.first?.updatedPropertyNames == ["count"])
        #expect(all[2].changes?.map(\.changeType) == [.delete])
        #expect(all[2].changes?.first?.tombstone?["name"] as? String == "c")
        #expect(all[3].changes?.map(\.changeType) == [.insert])
    }

    @Test(
        "fetching after a token, a date or a transaction returns exactly what came later",
        arguments: HistoryStack.Kind.allCases)
    func fetchAfterBounds(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        try stack.insert(["a"])
        try stack.insert(["b"])
        try stack.insert(["c"])
        let all = try stack.transactions(after: nil)
        #expect(try stack.transactions(after: all[0].token).map(\.transactionNumber) == [2, 3])
        let byDate =
            try stack.execute(.fetchHistory(after: all[1].timestamp))
            as? [PersistentHistoryTransaction]
        #expect(byDate?.map(\.transactionNumber) == [3])
        let byTransaction =
            try stack.execute(.fetchHistory(after: all[2])) as? [PersistentHistoryTransaction]
        #expect(byTransaction?.isEmpty == true)
        let current = try #require(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        #expect(current == all[2].token)
        #expect(try stack.transactions(after: current).isEmpty)
    }

    @Test(
        "deleteHistory removes strictly older transactions, and a token of a deleted one expires with 134301",
        arguments: HistoryStack.Kind.allCases)
    func deleteHistoryAndExpiredTokens(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        for name in ["a", "b", "c", "d"] { try stack.insert([name]) }
        let all = try stack.transactions(after: nil)
        let deleted = try stack.execute(
            {
                let r = PersistentHistoryChangeRequest.deleteHistory(before: all[2].token)
                r.resultType = .count
                return r
            }())
        #expect(deleted as? Int == 2)
        #expect(try stack.transactions(after: nil).map(\.transactionNumber) == [3, 4])
        #expect(try stack.transactions(after: all[2].token).map(\.transactionNumber) == [4])
        // Transaction 2 was deleted: its token would give a partial list, so it fails.
        try expectError(.historyTokenExpired) {
            try stack.transactions(after: all[1].token)
        }
        do {
            _ = try stack.transactions(after: all[0].token)
            Issue.record("an expired token fetched history")
        } catch {
            #expect((error as NSError).code == NSPersistentHistoryTokenExpiredError)
            #expect((error as NSError).domain == NSCocoaErrorDomain)
        }
        // By date: everything before transaction 4's timestamp.
        _ = try stack.execute(.deleteHistory(before: all[3].timestamp))
        #expect(try stack.transactions(after: nil).map(\.transactionNumber) == [4])
    }

    @Test(
        "history requests on a store opened without tracking fail with 134091",
        arguments: HistoryStack.Kind.allCases)
    func untrackedStoreRefuses(_ kind: HistoryStack.Kind) throws {
        // Core Data answers a request type a store does not support with
        // NSPersistentStoreUnsupportedRequestTypeError (134091, CoreDataErrors.h: "unsupported
        // request type"); ../shared/reference/coredata-semantics.md, error table.
        let stack = try HistoryStack(kind, tracking: false)
        try stack.insert(["a"])
        try expectError(.historyNotTracked) { try stack.transactions(after: nil) }
        #expect(stack.coordinator.currentPersistentHistoryToken(fromStores: nil) == nil)
        do {
            _ = try stack.execute(.deleteHistory(before: Date()))
        } catch {
            #expect((error as NSError).code == 134091)
        }
    }

    @Test("a token of another store is refused", arguments: HistoryStack.Kind.allCases)
    func tokenOfAnotherStore(_ kind: HistoryStack.Kind) throws {
        // Core Data: "Store - (…) not found in token", code 134501
        // (https://github.com/deeje/CloudCore/issues/5).
        let stack = try HistoryStack(kind)
        let other = PersistentHistoryToken(storeIdentifier: "ANOTHER-STORE", transactionNumber: 1)
        try expectError(.historyTokenOfAnotherStore) {
            try stack.transactions(after: other)
        }
    }

    @Test(
        "a fetch request filters transactions by author and changes by entity",
        arguments: HistoryStack.Kind.allCases)
    func fetchRequestFilters(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        try stack.insert(["a"], author: "app")
        try stack.insert(["b"], author: "widget")
        let context = stack.context(author: "app")
        try context.performAndWait {
            let item = context.insertNewObject(forEntityName: "Item")
            item.setValue("c", forKey: "name")
            let tag = context.insertNewObject(forEntityName: "Tag")
            tag.setValue("t", forKey: "label")
            try context.save()
        }
        let byAuthor = try #require(PersistentHistoryTransaction.fetchRequest)
        byAuthor.predicate = try FetchPredicate(format: "author != %@", "app")
        let others =
            try stack.execute(.fetchHistory(withFetchRequest: byAuthor))
            as? [PersistentHistoryTransaction]
        #expect(others?.map(\.transactionNumber) == [2])
        #expect(
            PersistentHistoryTransaction.entityDescription(with: context)?.name
                == "PersistentHistoryTransaction")

        let byEntity = try #require(PersistentHistoryChange.fetchRequest)
        byEntity.predicate = try FetchPredicate(format: "changedEntity == %@", "Tag")
        let request = PersistentHistoryChangeRequest.fetchHistory(withFetchRequest: byEntity)
        request.resultType = .changesOnly
        let changes = try stack.execute(request) as? [PersistentHistoryChange]
        #expect(changes?.count == 1)
        #expect(changes?.first?.changedObjectID.entity.name == "Tag")
        #expect(changes?.first?.transaction?.transactionNumber == 3)
    }

    @Test(
        "result types: transactions only, changes only, count, object IDs, status",
        arguments: HistoryStack.Kind.allCases)
    func resultTypes(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        let ids = try stack.insert(["a", "b"])
        try stack.insert(["c"])
        func run(_ type: PersistentHistoryResultType) throws -> Any? {
            let request = PersistentHistoryChangeRequest.fetchHistory(
                after: nil as PersistentHistoryToken?)
            request.resultType = type
            return try stack.execute(request)
        }
        let only = try run(.transactionsOnly) as? [PersistentHistoryTransaction]
        #expect(only?.count == 2)
        #expect(only?.first?.changes == nil)
        #expect((try run(.changesOnly) as? [PersistentHistoryChange])?.count == 3)
        #expect(try run(.count) as? Int == 2)
        let objectIDs = try run(.objectIDs) as? [ManagedObjectID]
        #expect(objectIDs?.count == 3)
        #expect(Set(objectIDs?.prefix(2) ?? []) == Set(ids))
        #expect(try run(.statusOnly) as? Bool == true)
        #expect(
            PersistentHistoryChangeRequest.fetchHistory(after: Date()).resultType
                == .transactionsAndChanges)
    }

    @Test("a token archives with NSKeyedArchiver, encodes with Codable and orders by transaction")
    func tokenCoding() throws {
        let token = PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 42)
        let data = try NSKeyedArchiver.archivedData(
            withRootObject: token, requiringSecureCoding: true)
        let back = try NSKeyedUnarchiver.unarchivedObject(
            ofClass: PersistentHistoryToken.self, from: data)
        #expect(back == token)
        let json = try JSONEncoder().encode(token)
        #expect(try JSONDecoder().decode(PersistentHistoryToken.self, from: json) == token)
        #expect(PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 41) < token)
        #expect(!(token < token))
        #expect(
            token.hash == PersistentHistoryToken(storeIdentifier: "S", transactionNumber: 42).hash)
    }
}

/// Runs `body` and checks it throws an ``ObjectGraphError`` of `reason`.
func expectError<T>(
    _ reason: ObjectGraphError.Reason, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () throws -> T
) throws {
    let error = #expect(throws: ObjectGraphError.self, sourceLocation: sourceLocation) {
        _ = try body()
    }
    #expect(error?.reason == reason, sourceLocation: sourceLocation)
}
