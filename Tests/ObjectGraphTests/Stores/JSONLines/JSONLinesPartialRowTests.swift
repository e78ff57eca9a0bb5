import Foundation
import Testing

@testable import ObjectGraph

/// Format version 5's partial rows (StoreFileFormat.md §3): an update that changes fewer than
/// half of a row's stored slots is written as `[entity, pk, version, {column: value, …}]`.
/// Batch updates and ordinary saves write them; a reopen, a follower, history, repair and
/// salvage read them; version-4 files still open and are upgraded by a writer.
@Suite struct JSONLinesPartialRowTests {
    let model: ManagedObjectModel
    let url: URL

    init() throws {
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "amount", type: .double),
                    AttributeDescription(name: "note", type: .string),
                    AttributeDescription(name: "n", type: .integer64),
                    RelationshipDescription(name: "group", destination: "Group", inverse: "items"),
                ]),
            EntityDescription(
                name: "Group",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "group", isToMany: true),
                ]),
        ])
        url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("items.jsonl")
    }

    private func options(readOnly: Bool = false, history: Bool = false) -> StoreOptions {
        var options = FileStoreFixtures.options(identifier: "S", readOnly: readOnly)
        options.tracksHistory = history
        return options
    }

    private func open(readOnly: Bool = false, history: Bool = false) throws -> JSONLinesStore {
        try JSONLinesStore(
            model: model, url: url, options: options(readOnly: readOnly, history: history))
    }

    private func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
        ManagedObjectID(entity: model[entityName: entity]!, storeIdentifier: "S", primaryKey: pk)
    }

    /// Item `pk`: amount `pk % 5` (so every fifth is 0), in group 1.
    private func item(_ pk: Int64, version: Int64 = 1) -> StoreRow {
        StoreRow(
            objectID: id("Item", pk), version: version,
            values: [
                .attribute(.string("title \(pk) with \"quotes\"")),
                .attribute(.double(Double(pk % 5))),
                .attribute(.string("note \(pk)")), .attribute(.integer(pk)),
                .toOne(id("Group", 1)),
            ])
    }

    /// A store with group 1 and items 1 … `count`, committed in one save.
    private func seed(_ count: Int64, history: Bool = false) throws -> JSONLinesStore {
        let store = try open(history: history)
        let group = StoreRow(
            objectID: id("Group", 1), version: 1,
            values: [.attribute(.string("G")), .notStored])
        try store.commit(
            StoreChangeSet(
                inserted: [group] + (1...count).map { item($0) },
                timestamp: Date(timeIntervalSinceReferenceDate: 1)))
        return store
    }

    /// Runs `amount = amount * 2` on every item with `n >= from` through a context.
    @discardableResult
    private func doubleAmounts(_ store: JSONLinesStore, from: Int64 = 1) throws -> [ManagedObjectID]
    {
        // This suite is about partial rows; batch lines (version 6) have their own.
        store.writesBatchLines = false
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        return try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Item")
            update.predicate = try FetchPredicate(format: "n >= %@", from)
            update.propertiesToUpdate = ["amount": try FetchExpression(format: "amount * 2")]
            update.resultType = .objectIDs
            return try context.execute(update).result as? [ManagedObjectID] ?? []
        }
    }

    private func lines() throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private func items(_ store: any PersistentStore) throws -> [StoreRow] {
        try store.fetch(StoreFetchRequest(entity: model[entityName: "Item"]!))
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
    }

    @Test func aBatchUpdateIsWrittenAsPartialRowsAndReadsBackAfterAReopen() throws {
        let store = try seed(10)
        let updated = try doubleAmounts(store, from: 4)
        #expect(updated.count == 7)
        let after = try items(store)
        store.close()
        let last = try #require(try lines().last)
        #expect(last.contains("[\"Item\",4,2,{\"amount\":8.0}]"))
        #expect(last.contains("[\"Item\",5,2,{}]"), "amount 0 doubled changes no slot")
        #expect(!last.contains("title"), "unchanged values are not repeated")
        let reopened = try open(readOnly: true)
        #expect(try items(reopened) == after)
        #expect(after[4].version == 2 && after[4].values[1] == .attribute(.double(0)))
        #expect(
            after[3].values[1] == .attribute(.double(8)) && after[3].values[0] == item(4).values[0])
        #expect(after[2] == item(3), "rows the predicate leaves out are untouched")
        reopened.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
    }

    @Test func aReaderFollowingTheWriterAppliesPartialRows() throws {
        let writer = try seed(6)
        let reader = try open(readOnly: true)
        #expect(try items(reader) == (1...6).map { item($0) })
        try doubleAmounts(writer)
        #expect(try items(reader) == (try items(writer)))
        #expect(try items(reader)[2].values[1] == .attribute(.double(6)))
        writer.close()
        reader.close()
    }

    @Test func anOrdinarySaveChangingFewColumnsWritesPartialRowsAndOthersComplete() throws {
        let store = try seed(3)
        var few = item(1, version: 2)
        few.values[2] = .attribute(.string("changed"))
        var many = item(2, version: 2)
        many.values[0] = .attribute(.string("t"))
        many.values[1] = .attribute(.double(9))
        many.values[2] = .attribute(.null)
        try store.commit(StoreChangeSet(updated: [few, many], timestamp: Date()))
        store.close()
        let last = try #require(try lines().last)
        #expect(last.contains("[\"Item\",1,2,{\"note\":\"changed\"}]"))
        #expect(last.contains("[\"Item\",2,2,\"t\",9.0,null,2,1]"), "3 of 5 slots: complete")
        let reopened = try open(readOnly: true)
        #expect(try items(reopened) == [few, many, item(3)])
        reopened.close()
    }

    @Test func historyNamesAPartialRowsMembersAsTheChangedProperties() throws {
        let store = try seed(5, history: true)
        try doubleAmounts(store)
        let written = try store.history(after: nil)
        store.close()
        let reopened = try open(history: true)
        let read = try reopened.history(after: nil)
        #expect(read == written, "the reopened history is the writer's")
        let batch = try #require(read.last)
        #expect(batch.changes.count == 5)
        for change in batch.changes {
            #expect(change.changeType == .update)
            let zero = change.objectID.primaryKey % 5 == 0
            #expect(change.updatedProperties == (zero ? [] : ["amount"]))
        }
        reopened.close()
    }

    /// Items 1 … 2,000 doubled: the partial rows take more than 16 KiB, so the line has runs.
    private func damagedBatchLine() throws -> (before: [StoreRow], after: [StoreRow]) {
        let store = try seed(2000)
        let before = try items(store)
        try doubleAmounts(store)
        let after = try items(store)
        store.close()
        var bytes = Array(try Data(contentsOf: url))
        let lastStart = try #require(bytes.dropLast().lastIndex(of: 0x0A)) + 1
        let last = String(decoding: bytes[lastStart...], as: UTF8.self)
        #expect(last.contains("\"sums\":[[\"upd\","))
        // A digit in the middle of the line (inside a run) becomes another digit.
        var at = lastStart + (bytes.count - lastStart) / 2
        while !(0x30...0x39).contains(bytes[at]) { at += 1 }
        bytes[at] = bytes[at] == 0x39 ? 0x38 : bytes[at] + 1
        try Data(bytes).write(to: url)
        return (before, after)
    }

    @Test func aRepairCutsADamagedPartialRowLineAndKeepsWhatCameBefore() throws {
        let (before, _) = try damagedBatchLine()
        #expect(!JSONLinesStore.verify(at: url).isHealthy)
        let result = try JSONLinesStore.repair(at: url, options: options())
        #expect(result.firstDamagedLine == 3)
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        let store = try open(readOnly: true)
        #expect(try items(store) == before)
        store.close()
    }

    @Test func aSalvageKeepsThePartialRowsOfTheIntactRuns() throws {
        let (before, after) = try damagedBatchLine()
        let result = try JSONLinesStore.repair(at: url, options: options(), salvaging: true)
        #expect(result.salvaged && result.damagedLines == [3])
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        let store = try open(readOnly: true)
        let salvaged = try items(store)
        store.close()
        let kept = zip(salvaged, after).filter { $0.0 == $0.1 }.count
        let lost = zip(salvaged, before).filter { $0.0 == $0.1 }.count
        #expect(kept + lost == 2000, "every row is either updated or as it was")
        #expect(kept > 1000 && lost > 0, "one run is lost, the others kept")
    }

    /// A file of `version` holding an insert, then the update `update` (a version-4 file as
    /// the library wrote it before version 5 writes it complete).
    private func writeFile(version: Int = 4, update: String) throws {
        var header = StoreFileHeader(
            model: model, storeIdentifier: "S",
            created: Date(timeIntervalSinceReferenceDate: 700_000_000))
        header.version = version
        let w = JSONByteWriter()
        header.write(to: w)
        for body in [
            "{\"t\":1,\"at\":700000100.5,\"ins\":[[\"Group\",1,1,\"G\"],[\"Item\",1,1,\"a\",1.5,null,1,1]]",
            "{\"t\":2,\"at\":700000200.5,\"upd\":[\(update)]",
        ] {
            let start = w.count
            w.append(raw: body)
            LineFrame.finish(w, bodyStart: start)
        }
        try Data(w.array).write(to: url)
    }

    @Test func aVersion4FileOpensAndAWriterUpgradesItToVersion5() throws {
        try writeFile(update: "[\"Item\",1,2,\"a\",3.0,null,1,1]")
        #expect(try JSONLinesStore.metadata(at: url).formatVersion == 4)
        let reader = try open(readOnly: true)
        #expect(try items(reader).map(\.values[1]) == [.attribute(.double(3))])
        reader.close()
        let writer = try open()
        #expect(
            writer.recoveryNotices.contains {
                $0.contains("upgraded from format version 4 to \(StoreFileVersion.current)")
            })
        #expect(try JSONLinesStore.metadata(at: url).formatVersion == StoreFileVersion.current)
        try doubleAmounts(writer)
        writer.close()
        #expect(try lines().last?.contains("[\"Item\",1,3,{\"amount\":6.0}]") == true)
        let reopened = try open(readOnly: true)
        #expect(try items(reopened).map(\.values[1]) == [.attribute(.double(6))])
        reopened.close()
        #expect(JSONLinesStore.verify(at: url).isHealthy)
    }

    @Test func aPartialRowInAVersion4FileIsDamageOfItsLine() throws {
        try writeFile(update: "[\"Item\",1,2,{\"amount\":3.0}]")
        #expect {
            _ = try open(readOnly: true)
        } throws: { error in
            guard let e = error as? ObjectGraphError else { return false }
            return e.reason == .storeCorrupt && e.line == 3
                && "\(e)".contains("partial row (format version 5) in a file of version 4")
        }
    }

    @Test func aPartialRowNamingAnUnknownOrRepeatedColumnOrTheWrongVersionIsDamage() throws {
        try writeFile(version: 5, update: "[\"Item\",1,2,{\"note\":\"n\",\"amount\":3.0}]")
        let store = try open(readOnly: true)
        #expect(
            try items(store).map { [$0.values[1], $0.values[2]] } == [
                [.attribute(.double(3)), .attribute(.string("n"))]
            ])
        store.close()
        for update in [
            "[\"Item\",1,2,{\"colour\":3.0}]", "[\"Item\",1,2,{\"amount\":3.0,\"amount\":4.0}]",
            "[\"Item\",1,3,{\"amount\":3.0}]",
        ] {
            try writeFile(version: 5, update: update)
            #expect(throws: ObjectGraphError.self, "\(update)") { _ = try open(readOnly: true) }
        }
    }
}
