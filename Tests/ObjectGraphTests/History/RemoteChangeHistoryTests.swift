import Foundation
import Testing

@testable import ObjectGraph

/// Remote change with persistent history: each notification carries its transaction's token
/// (`NSPersistentHistoryTokenKey`), and Apple's recipe (fetch the history after the last
/// token, skip your own author, merge each transaction's `objectIDNotification()`, keep the
/// new token) brings another coordinator's saves into a view context.
/// Source: https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nspersistentstoreremotechange
/// ("the transaction's history token, which you access with … NSPersistentHistoryTokenKey").
@Suite struct RemoteChangeHistoryTests {
    private func posting(_ description: PersistentStoreDescription) {
        description.postsRemoteChangeNotifications = true
    }

    @Test(arguments: HistoryStack.Kind.allCases)
    func eachNotificationCarriesTheTokenOfItsTransaction(kind: HistoryStack.Kind) throws {
        let url =
            kind == .ram ? URL(fileURLWithPath: "/dev/null") : TemporaryStoreFiles.next("remote")
        let stack = try HistoryStack(
            kind, model: try HistoryStack.model(), url: url, configure: posting)
        let recorder = RemoteChangeRecorder(stack.coordinator)
        try stack.insert(["a"], author: "app")
        try stack.insert(["b", "c"], author: "app")
        let records = recorder.wait(for: 2)
        try #require(records.count == 2)
        let tokens = records.compactMap { $0.historyToken as? PersistentHistoryToken }
        try #require(tokens.count == 2)
        #expect(tokens[0] < tokens[1])
        let all = try stack.transactions(after: nil)
        #expect(all.map(\.token) == tokens)
        let after = try stack.transactions(after: tokens[0])
        #expect(after.map(\.token) == [tokens[1]])
        #expect(after.first?.changes?.count == 2)
    }

    @Test func aReaderMergesAnotherCoordinatorsSavesThroughHistory() throws {
        let model = try HistoryStack.model()
        let url = TemporaryStoreFiles.next("remote-merge")
        let writer = try HistoryStack(.file, model: model, url: url)
        let first = try writer.insert(["first"], author: "writer")
        let reader = try HistoryStack(
            .file, model: model, url: url,
            configure: {
                $0.postsRemoteChangeNotifications = true
                $0.isReadOnly = true
            })
        let view = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: reader.coordinator)
        view.transactionAuthor = "reader"
        let item = try view.performAndWait { try view.existingObject(with: first[0]) }
        let lastToken = try #require(
            reader.coordinator.currentPersistentHistoryToken(fromStores: nil))
        let recorder = RemoteChangeRecorder(reader.coordinator)

        let context = writer.context(author: "writer")
        try context.performAndWait {
            let object = try context.existingObject(with: first[0])
            object.setValue("renamed", forKey: "name")
            let added = context.insertNewObject(forEntityName: "Item")
            added.setValue("second", forKey: "name")
            try context.save()
        }
        let token = try #require(
            recorder.wait(for: 1).first?.historyToken as? PersistentHistoryToken)

        // Apple's recipe, on the view context's queue.
        let merged = try view.performAndWait { () throws -> [String] in
            let request = PersistentHistoryChangeRequest.fetchHistory(after: lastToken)
            let result = try view.execute(request) as? PersistentHistoryResult
            let transactions = result?.result as? [PersistentHistoryTransaction] ?? []
            for transaction in transactions where transaction.author != view.transactionAuthor {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            #expect(transactions.last?.token == token)
            let names = try view.fetch(FetchRequest<ManagedObject>(entityName: "Item"))
                .compactMap { $0.value(forKey: "name") as? String }
            return names.sorted()
        }
        #expect(merged == ["renamed", "second"])
        #expect(view.performAndWait { item.value(forKey: "name") as? String } == "renamed")
    }
}
