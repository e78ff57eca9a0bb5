import Foundation
import Testing

@testable import ObjectGraph

/// Two processes: the built `ledger` writes a ledger file while this process reads it; the
/// reader gets `NSPersistentStoreRemoteChange` (no sleeping: it waits on the notification)
/// and merges the writer's transaction through persistent history.
@Suite struct RemoteChangeProcessTests {
    /// The built `ledger` next to the test bundle, or `nil`.
    static let ledger: URL? = {
        let candidates = [
            Bundle.main.executableURL, URL(fileURLWithPath: CommandLine.arguments[0]),
        ]
        return candidates.compactMap {
            $0?.deletingLastPathComponent().appendingPathComponent("ledger")
        }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    /// Runs `ledger` with `arguments` to its end; returns its exit status and standard error.
    private func run(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = Self.ledger
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(
            decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func anotherProcessesSaveIsPostedAndMergedThroughHistory() throws {
        guard Self.ledger != nil else {
            print("RemoteChangeProcessTests: skipped, no built ledger next to the test bundle")
            return
        }
        let url = TemporaryStoreFiles.next("ledger")
        let (created, createErrors) = try run(["init", "--file", url.path])
        try #require(created == 0, "ledger init failed: \(createErrors)")
        let model = try JSONLinesStore.metadata(at: url).model
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        description.tracksPersistentHistory = true
        description.postsRemoteChangeNotifications = true
        try coordinator.addPersistentStore(with: description)
        defer { for store in coordinator.persistentStores { try? coordinator.remove(store) } }
        let view = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let start = coordinator.currentPersistentHistoryToken(fromStores: nil)
        let recorder = RemoteChangeRecorder(coordinator)

        let (added, addErrors) = try run([
            "add", "12.50", "--payee", "Corner Shop", "--date", "2026-11-03", "--file", url.path,
        ])
        try #require(added == 0, "ledger add failed: \(addErrors)")
        let records = recorder.wait(for: 1, timeout: 60)
        try #require(records.count == 1)
        #expect(records[0].url == url)
        let token = try #require(records[0].historyToken as? PersistentHistoryToken)

        let payees = try view.performAndWait { () throws -> [String] in
            let request = PersistentHistoryChangeRequest.fetchHistory(after: start)
            let result = try view.execute(request) as? PersistentHistoryResult
            let transactions = result?.result as? [PersistentHistoryTransaction] ?? []
            #expect(transactions.map(\.author) == ["ledger add"])
            #expect(transactions.last?.token == token)
            #expect(transactions.first?.processID != String(getpid()))
            for transaction in transactions {
                view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            }
            return try view.fetch(FetchRequest<ManagedObject>(entityName: "Transaction"))
                .compactMap { $0.value(forKey: "payee") as? String }
        }
        #expect(payees == ["Corner Shop"])
    }
}
