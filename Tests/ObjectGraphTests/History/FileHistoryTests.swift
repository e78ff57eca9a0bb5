import Foundation
import ObjectGraph
import Testing

/// The file store's history is its log: it survives reopening, retention and compaction,
/// migration, and follows the tracking option as Core Data does.
@Suite("Persistent history in the file store")
struct FileHistoryTests {
    /// The lines of the store file.
    static func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// A stack with four one-item saves, an update and a delete (transactions 1…6).
    static func seeded() throws -> (HistoryStack, [PersistentHistoryTransaction]) {
        let stack = try HistoryStack(.file)
        let ids = try ["a", "b", "c", "d"].flatMap { try stack.insert([$0], author: "app") }
        let context = stack.context(author: "editor")
        try context.performAndWait {
            try context.existingObject(with: ids[0]).setValue("A", forKey: "name")
            try context.save()
            context.delete(try context.existingObject(with: ids[1]))
            try context.save()
        }
        return (stack, try stack.transactions(after: nil))
    }

    /// What a transaction says, for comparing histories read at different times.
    static func summary(_ list: [PersistentHistoryTransaction]) -> [String] {
        list.map { t in
            "\(t.transactionNumber) \(t.author ?? "-") \(t.timestamp.timeIntervalSinceReferenceDate) "
                + "\(t.bundleID) \(t.processID) "
                + (t.changes ?? []).map {
                    "\($0.changeType)\($0.changedObjectID.primaryKey)"
                        + "\($0.updatedPropertyNames ?? [])"
                        + "\(($0.tombstone?["name"] as? String) ?? "")"
                }.joined(separator: ",")
        }
    }

    @Test("history survives closing and reopening the file, tokens included")
    func survivesReopen() throws {
        let (stack, before) = try Self.seeded()
        try stack.close()
        let again = try stack.reopen()
        let after = try again.transactions(after: nil)
        #expect(Self.summary(after) == Self.summary(before))
        #expect(try again.transactions(after: before[3].token).map(\.transactionNumber) == [5, 6])
        #expect(after[4].changes?.first?.updatedPropertyNames == ["name"])
        #expect(after[5].changes?.first?.tombstone?["name"] as? String == "b")
        #expect(try Self.lines(stack.url).last?.contains("\"pid\":") == true)
    }

    @Test("deleteHistory appends a retention point that holds after reopening")
    func retentionIsDurable() throws {
        let (stack, before) = try Self.seeded()
        _ = try stack.execute(.deleteHistory(before: before[3].token))
        #expect(try Self.lines(stack.url).last?.hasPrefix("{\"retain\":4,") == true)
        try stack.close()
        let again = try stack.reopen()
        #expect(try again.transactions(after: nil).map(\.transactionNumber) == [4, 5, 6])
        try expectError(.historyTokenExpired) { try again.transactions(after: before[2].token) }
        #expect(try again.transactions(after: before[3].token).count == 2)
    }

    @Test(
        "compaction keeps exactly the transactions from the retention point on, and drops the rest")
    func compactionKeepsRetainedHistory() throws {
        let (stack, before) = try Self.seeded()
        _ = try stack.execute(.deleteHistory(before: before[4].token))
        let file = try #require(stack.store as? JSONLinesStore)
        let size = try Self.lines(stack.url).joined().count
        try file.compact()
        let lines = try Self.lines(stack.url)
        #expect(lines.filter { $0.hasPrefix("{\"h\":") }.count == 2)
        #expect(!lines.contains { $0.hasPrefix("{\"t\":") || $0.hasPrefix("{\"retain\":") })
        #expect(lines.joined().count < size)
        #expect(lines[0].contains("\"history\":{\"start\":0,\"retained\":5}"))
        #expect(
            Self.summary(try stack.transactions(after: nil)) == Self.summary(Array(before[4...])))
        try stack.insert(["e"])
        try stack.close()
        let again = try stack.reopen()
        let after = try again.transactions(after: nil)
        #expect(after.map(\.transactionNumber) == [5, 6, 7])
        #expect(Self.summary(Array(after.prefix(2))) == Self.summary(Array(before[4...])))
        try expectError(.historyTokenExpired) { try again.transactions(after: before[3].token) }
        #expect(try again.transactions(after: before[5].token).map(\.transactionNumber) == [7])
    }

    @Test("automatic compaction counts only what lies before the retention point as reclaimable")
    func automaticCompactionRespectsRetention() throws {
        let url = TemporaryStoreFiles.next("history-auto")
        let stack = try HistoryStack(
            .file, model: try HistoryStack.model(), url: url,
            configure: { $0.storeOptions.compactionMinimumBytes = 4096 })
        let id = try stack.insert(["x"])[0]
        let context = stack.context()
        // 200 updates of one row: nearly all of the file is superseded rows, but history
        // keeps every transaction, so nothing is reclaimable and the file is never rewritten.
        try context.performAndWait {
            let item = try context.existingObject(with: id)
            for i in 0..<200 {
                item.setValue(String(repeating: "n", count: 40) + "\(i)", forKey: "note")
                try context.save()
            }
        }
        var lines = try Self.lines(url)
        #expect(lines.count == 202)
        #expect(lines[0].contains("\"compacted\":null"))
        let token = try #require(stack.coordinator.currentPersistentHistoryToken(fromStores: nil))
        _ = try stack.execute(.deleteHistory(before: token))
        // Now all but the last transaction lie before the retention point: compacted.
        lines = try Self.lines(url)
        #expect(!lines[0].contains("\"compacted\":null"))
        #expect(lines.count == 3)  // header, the row, the one retained transaction
        #expect(try stack.transactions(after: nil).map(\.transactionNumber) == [201])
    }

    @Test("tracking turned on for an untracked file starts history there")
    func trackingStartsWhereTurnedOn() throws {
        let untracked = try HistoryStack(.file, tracking: false)
        try untracked.insert(["a"])
        try untracked.insert(["b"])
        try untracked.close()
        let tracked = try untracked.reopen(tracking: true)
        #expect(
            tracked.store.recoveryNotices.contains {
                $0.contains("history starts after transaction 2")
            })
        #expect(try tracked.transactions(after: nil).isEmpty)
        let start = try #require(tracked.coordinator.currentPersistentHistoryToken(fromStores: nil))
        try tracked.insert(["c"])
        #expect(try tracked.transactions(after: start).map(\.transactionNumber) == [3])
        #expect(try tracked.transactions(after: nil).map(\.transactionNumber) == [3])
        try expectError(.historyTokenExpired) {
            try tracked.transactions(
                after: PersistentHistoryToken(
                    storeIdentifier: tracked.store.identifier, transactionNumber: 1))
        }
    }

    @Test("a tracked file opened without the option opens read-only, its history readable")
    func reopenWithoutTrackingIsReadOnly() throws {
        // Core Data: "Store opened without NSPersistentHistoryTrackingKey but previously had
        // been opened with NSPersistentHistoryTrackingKey - Forcing into Read Only mode"
        // (https://mjtsai.com/blog/2023/08/15/turning-off-core-data-persistent-history-tracking/).
        let (stack, before) = try Self.seeded()
        try stack.close()
        let again = try stack.reopen(tracking: false)
        #expect(again.store.isReadOnly)
        #expect(again.store.recoveryNotices.contains { $0.contains("read-only") })
        #expect(Self.summary(try again.transactions(after: nil)) == Self.summary(before))
        #expect(throws: ObjectGraphError.self) { try again.insert(["z"]) }
    }

    @Test("a reader follows the writer's history")
    func readerFollowsHistory() throws {
        let (stack, _) = try Self.seeded()
        let reader = try stack.reopen(configure: { $0.isReadOnly = true })
        #expect(try reader.transactions(after: nil).count == 6)
        try stack.insert(["f"], author: "writer")
        let latest = try reader.transactions(after: nil)
        #expect(latest.map(\.transactionNumber) == Array(1...7))
        #expect(latest.last?.author == "writer")
    }

    @Test(
        "migration keeps UUID, metadata, numbering and old tokens, and adds one marker transaction")
    func migrationKeepsHistory() throws {
        let (stack, before) = try Self.seeded()
        let file = try #require(stack.store as? JSONLinesStore)
        let identifier = file.identifier
        var metadata = stack.coordinator.metadata(for: file)
        metadata["app"] = "ledger"
        try stack.coordinator.setMetadata(metadata, for: file)
        try stack.insert(["m"])
        try stack.close()
        let v1 = try HistoryStack.model()
        let v2 = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item",
                properties: [
                    AttributeDescription(
                        name: "name", type: .string, preservesValueInHistoryOnDeletion: true),
                    AttributeDescription(name: "count", type: .integer64, defaultValue: 0),
                    AttributeDescription(name: "note", type: .string),
                    AttributeDescription(name: "price", type: .double, defaultValue: 0),
                ]),
            EntityDescription(
                name: "Tag", properties: [AttributeDescription(name: "label", type: .string)]),
        ])
        let migrated = try stack.reopen(
            model: v2, configure: { $0.storeOptions.modelVersions = [v1] })
        let store = migrated.store
        #expect(store.identifier == identifier)
        #expect(migrated.coordinator.metadata(for: store)["app"] as? String == "ledger")
        let all = try migrated.transactions(after: nil)
        #expect(all.map(\.transactionNumber) == Array(1...8))
        let marker = try #require(all.last)
        #expect(marker.author == PersistentHistoryTransaction.migrationAuthor)
        #expect(marker.changes?.isEmpty == true)
        #expect(all[0].changes?.first?.changedObjectID.entity === v2.entitiesByName["Item"])
        #expect(
            try migrated.transactions(after: before[5].token).map(\.transactionNumber) == [7, 8])
        try migrated.insert(["after"])
        #expect(try migrated.transactions(after: marker.token).map(\.transactionNumber) == [9])
    }
}
