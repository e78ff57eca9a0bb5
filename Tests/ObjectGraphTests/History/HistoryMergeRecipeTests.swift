import Foundation
import ObjectGraph
import Testing

/// Apple's recipe for consuming store changes ("Consuming Relevant Store Changes",
/// https://developer.apple.com/documentation/coredata/consuming_relevant_store_changes), run
/// as written: fetch the history after the last token, leave out the app's own author, merge
/// each transaction's `objectIDNotification()` into the view context, archive the new token.
@Suite("The history merge recipe")
struct HistoryMergeRecipeTests {
    static let appAuthor = "app"

    /// One pass of the recipe; returns the archived token to keep.
    static func mergeHistory(
        into viewContext: ManagedObjectContext, after archived: Data?
    ) throws -> Data? {
        let lastToken = try archived.flatMap {
            try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: $0)
        }
        let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
        if let filter = PersistentHistoryTransaction.fetchRequest {
            filter.predicate = try FetchPredicate(format: "%K != %@", "author", appAuthor)
            request.fetchRequest = filter
        }
        return try viewContext.performAndWait {
            let result = try viewContext.execute(request) as? PersistentHistoryResult
            guard let transactions = result?.result as? [PersistentHistoryTransaction],
                let last = transactions.last
            else { return archived }
            for transaction in transactions {
                viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            return try NSKeyedArchiver.archivedData(
                withRootObject: last.token, requiringSecureCoding: true)
        }
    }

    @Test(
        "the view context sees another author's saves and batch changes, never its own twice",
        arguments: HistoryStack.Kind.allCases)
    func recipe(_ kind: HistoryStack.Kind) throws {
        let stack = try HistoryStack(kind)
        let view = stack.context(author: Self.appAuthor)
        let mine = try stack.insert(["mine"], author: Self.appAuthor)[0]
        let names = try view.performAndWait {
            try view.fetch(FetchRequest<ManagedObject>(entityName: "Item")).compactMap {
                $0.value(forKey: "name") as? String
            }
        }
        #expect(names == ["mine"])
        // Another author inserts, and a batch update (no did-save) changes every item.
        let theirs = try stack.insert(["theirs"], author: "widget")[0]
        let importer = stack.context(author: "importer")
        try importer.performAndWait {
            let update = BatchUpdateRequest(entityName: "Item")
            update.propertiesToUpdate = ["count": 5]
            _ = try importer.execute(update)
        }
        var token = try Self.mergeHistory(into: view, after: nil)
        #expect(token != nil)
        try view.performAndWait {
            let object = try view.existingObject(with: mine)
            #expect(object.value(forKey: "count") as? Int64 == 5)
            #expect(
                try view.existingObject(with: theirs).value(forKey: "name") as? String == "theirs")
        }
        // Nothing new: the token is kept as it was.
        #expect(try Self.mergeHistory(into: view, after: token) == token)
        // A delete by another author reaches the view context too.
        let deleter = stack.context(author: "widget")
        try deleter.performAndWait {
            deleter.delete(try deleter.existingObject(with: theirs))
            try deleter.save()
        }
        token = try Self.mergeHistory(into: view, after: token)
        try view.performAndWait {
            let items = try view.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
            #expect(items.map(\.objectID) == [mine])
        }
        // After a restart (file store: reopened), the archived token carries on.
        if kind == .file {
            try stack.close()
            let again = try stack.reopen()
            try again.insert(["later"], author: "widget")
            let view2 = again.context(author: Self.appAuthor)
            let newToken = try Self.mergeHistory(into: view2, after: token)
            let data = try #require(newToken)
            let decoded = try #require(
                try NSKeyedUnarchiver.unarchivedObject(
                    ofClass: PersistentHistoryToken.self, from: data))
            #expect(decoded.transactionNumbers.values.first == 5)
        }
    }
}
