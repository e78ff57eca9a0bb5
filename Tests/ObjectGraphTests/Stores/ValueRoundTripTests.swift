import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Every value comes back as it was saved, on both stores, through contexts, after reopening
/// the file and after compacting it (issue 14: a `Date` came back one bit off after a reopen,
/// so `hiredAt <= %@` with the saved date stopped matching). Bit for bit for `Double`, `Float`
/// and `Date`, NaN payloads included; numerically equal for `Decimal` (its canonical text is
/// normalised by design); exact for the rest. The file keeps dates as seconds since 2001, as
/// Core Data's SQLite store keeps them in its `Z…DATE` columns (Stack Overflow 10705062,
/// "Core Data dates stored with 31 year offset").
@Suite struct ValueRoundTripTests {
    static let types: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean, .date,
        .binaryData, .uuid, .uri, .transformable,
    ]

    let model: ManagedObjectModel

    init() throws {
        model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Sample",
                properties: Self.types.map { AttributeDescription(name: $0.rawValue, type: $0) })
        ])
    }

    /// `count` samples of random values, each attribute `null` one time in ten.
    private func samples(_ count: Int, seed: UInt64) -> [[AttributeValue]] {
        var random = SeededRandomNumberGenerator(seed: seed)
        return (0..<count).map { i in
            Self.types.map { type in
                // The first samples hold each type's extremes.
                i < 4 ? RandomValues.extreme(type, i) : RandomValues.value(type, &random)
            }
        }
    }

    /// Whether `a` came back as `b`: bit patterns for floating point and dates, numeric
    /// equality for decimals, equality for the rest.
    static func same(_ a: AttributeValue, _ b: AttributeValue) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)): x.bitPattern == y.bitPattern
        case (.float(let x), .float(let y)): x.bitPattern == y.bitPattern
        case (.date(let x), .date(let y)):
            x.timeIntervalSinceReferenceDate.bitPattern
                == y.timeIntervalSinceReferenceDate.bitPattern
        case (.decimal(let x), .decimal(let y)): x == y || (x.isNaN && y.isNaN)
        case (.uri(let x), .uri(let y)): x.absoluteString == y.absoluteString
        default: a == b
        }
    }

    private func rows(_ values: [[AttributeValue]], store: String) -> [StoreRow] {
        let entity = model.entities[0]
        return values.enumerated().map { i, row in
            StoreRow(
                objectID: ManagedObjectID(
                    entity: entity, storeIdentifier: store, primaryKey: Int64(i + 1)),
                version: 1, values: row.map { .attribute($0) })
        }
    }

    private func expectSame(
        _ expected: [[AttributeValue]], _ store: any PersistentStore, _ when: String
    )
        throws
    {
        let fetched = try store.fetch(StoreFetchRequest(entity: model.entities[0]))
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        #expect(fetched.count == expected.count, "\(when)")
        for (row, values) in zip(fetched, expected) {
            for (slot, value) in values.enumerated() {
                let back = row.values[slot].attributeValue
                #expect(
                    Self.same(value, back),
                    "\(when): \(Self.types[slot].rawValue) \(value) came back as \(back)")
            }
        }
    }

    @Test func everyValueOfEveryTypeComesBackFromTheFileAfterReopenAndCompaction() throws {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("v.jsonl")
        var options = StoreOptions()
        options.storeIdentifier = "S"
        options.automaticCompaction = false
        let values = samples(400, seed: 14)
        let store = try JSONLinesStore(model: model, url: url, options: options)
        // Two saves, so the file holds inserts and updates.
        let all = rows(values, store: "S")
        try store.commit(StoreChangeSet(inserted: Array(all[..<200]), timestamp: Date()))
        try store.commit(StoreChangeSet(inserted: Array(all[200...]), timestamp: Date()))
        try expectSame(values, store, "in memory")
        store.close()
        let reopened = try JSONLinesStore(model: model, url: url, options: options)
        try expectSame(values, reopened, "after reopening")
        try reopened.compact()
        reopened.close()
        let compacted = try JSONLinesStore(model: model, url: url, options: options)
        try expectSame(values, compacted, "after compaction and reopening")
        compacted.close()
    }

    @Test(arguments: ["/dev/null", "file"])
    func everyValueComesBackThroughContexts(store kind: String) throws {
        let url = try Self.storeURL(kind, file: "c.jsonl")
        let values = samples(120, seed: 2001)
        func container() throws -> PersistentContainer {
            try Self.loaded("RoundTrip", model: model, url: url)
        }
        let first = try container()
        let context = first.newBackgroundContext()
        try context.performAndWait {
            for row in values {
                let object = context.insertNewObject(forEntityName: "Sample")
                for (slot, value) in row.enumerated() {
                    object.setValue(
                        value.swiftValue(for: Self.types[slot]), forKey: Self.types[slot].rawValue)
                }
            }
            try context.save()
        }
        // A RAM store is read back by a fresh context; a file by a fresh container too, and
        // again after compacting it.
        guard kind == "file" else { return try expectBack(values, in: first, kind) }
        Self.close(first)
        let reopened = try container()
        try expectBack(values, in: reopened, "\(kind) reopened")
        for store in reopened.persistentStoreCoordinator.persistentStores {
            try (store as? JSONLinesStore)?.compact()
        }
        Self.close(reopened)
        try expectBack(values, in: try container(), "\(kind) compacted")
    }

    /// The URL a test's store of `kind` opens: a fresh temporary file named `name` for
    /// `"file"`, `/dev/null` (the RAM store) for anything else.
    static func storeURL(_ kind: String, file name: String) throws -> URL {
        kind == "file"
            ? try FileStoreFixtures.temporaryDirectory().appendingPathComponent(name)
            : URL(fileURLWithPath: "/dev/null")
    }

    /// A model of one entity named `entity` with one attribute, `attribute` of `type`.
    static func model(_ entity: String, _ attribute: String, _ type: AttributeType) throws
        -> ManagedObjectModel
    {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: entity, properties: [AttributeDescription(name: attribute, type: type)])
        ])
    }

    /// A container named `name` for `model` with its one store at `url`, loaded.
    static func loaded(_ name: String, model: ManagedObjectModel, url: URL) throws
        -> PersistentContainer
    {
        let container = PersistentContainer(name: name, managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try container.loadPersistentStores()
        return container
    }

    /// Closes every file store `container` holds, so the file can be reopened.
    static func close(_ container: PersistentContainer) {
        for store in container.persistentStoreCoordinator.persistentStores {
            (store as? JSONLinesStore)?.close()
        }
    }

    private func expectBack(
        _ values: [[AttributeValue]], in container: PersistentContainer, _ when: String
    ) throws {
        let check = container.newBackgroundContext()
        try check.performAndWait {
            let fetched = try check.fetch(FetchRequest<ManagedObject>(entityName: "Sample"))
            #expect(fetched.count == values.count)
            var unmatched = values
            for object in fetched {
                let back = Self.types.map { type in
                    AttributeValue(any: object.value(forKey: type.rawValue), for: type) ?? .null
                }
                guard let i = unmatched.firstIndex(where: { zip($0, back).allSatisfy(Self.same) })
                else {
                    Issue.record("\(when): \(back) matches no saved sample")
                    continue
                }
                unmatched.remove(at: i)
            }
        }
    }

    @Test(arguments: ["/dev/null", "file"])
    func aSavedDateStillMatchesItsOwnComparisonsAfterReopening(store kind: String) throws {
        let model = try Self.model("Employee", "hiredAt", .date)
        let url = try Self.storeURL(kind, file: "e.jsonl")
        let hired = Date(timeIntervalSinceReferenceDate: 646_790_399.999)
        let container = PersistentContainer(name: "Staff", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try container.loadPersistentStores()
        let context = container.newBackgroundContext()
        try context.performAndWait {
            context.insertNewObject(forEntityName: "Employee").setValue(hired, forKey: "hiredAt")
            try context.save()
        }
        Self.close(container)
        let reopened =
            kind == "file"
            ? PersistentContainer(name: "Staff", managedObjectModel: model) : container
        if kind == "file" {
            reopened.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
            try reopened.loadPersistentStores()
        }
        let reader = reopened.newBackgroundContext()
        try reader.performAndWait {
            for format in [
                "hiredAt <= %@", "hiredAt >= %@", "hiredAt == %@", "hiredAt BETWEEN {%@, %@}",
            ] {
                let request = FetchRequest<ManagedObject>(entityName: "Employee")
                request.predicate = try FetchPredicate(format: format, hired, hired)
                #expect(try reader.fetch(request).count == 1, "\(kind): \(format)")
            }
            let back = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Employee"))
            let date = back.first?.value(forKey: "hiredAt") as? Date
            #expect(
                date?.timeIntervalSinceReferenceDate.bitPattern
                    == hired.timeIntervalSinceReferenceDate.bitPattern)
        }
    }
}
