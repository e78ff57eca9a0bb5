import Foundation

@testable import ObjectGraph

/// A model exercising every attribute type, a transient, inheritance, derived, stored and
/// ordered to-manys, and references to subentities.
enum FileStoreFixtures {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Category",
                properties: [
                    AttributeDescription(name: "id", type: .uuid),
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "scratch", type: .string, isTransient: true),
                    RelationshipDescription(
                        name: "expenses", destination: "Expense", inverse: "category",
                        isToMany: true),
                ]),
            EntityDescription(
                name: "Expense",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "amount", type: .decimal),
                    AttributeDescription(name: "date", type: .date),
                    AttributeDescription(name: "ratio", type: .double),
                    AttributeDescription(name: "weight", type: .float),
                    AttributeDescription(name: "count16", type: .integer16),
                    AttributeDescription(name: "count32", type: .integer32),
                    AttributeDescription(name: "count64", type: .integer64),
                    AttributeDescription(name: "cleared", type: .boolean),
                    AttributeDescription(name: "blob", type: .binaryData),
                    AttributeDescription(name: "link", type: .uri),
                    AttributeDescription(name: "payload", type: .transformable),
                    RelationshipDescription(
                        name: "category", destination: "Category", inverse: "expenses"),
                    RelationshipDescription(name: "receipt", destination: "Document"),
                    RelationshipDescription(
                        name: "tags", destination: "Tag", inverse: "expenses", isToMany: true,
                        isOrdered: true),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [
                    AttributeDescription(name: "label", type: .string),
                    RelationshipDescription(
                        name: "expenses", destination: "Expense", inverse: "tags", isToMany: true),
                ]),
            EntityDescription(
                name: "Document", isAbstract: true,
                properties: [
                    AttributeDescription(name: "path", type: .string)
                ]),
            EntityDescription(
                name: "Receipt", superentityName: "Document",
                properties: [
                    AttributeDescription(name: "total", type: .decimal)
                ]),
        ])
    }

    /// Builds rows of `model` for the store `storeIdentifier`.
    struct Rows {
        let model: ManagedObjectModel
        let store: String

        func id(_ entity: String, _ pk: Int64) -> ManagedObjectID {
            ManagedObjectID(
                entity: model[entityName: entity]!, storeIdentifier: store, primaryKey: pk)
        }

        /// A row with `values` by key; stored slots left out are null or empty, others `.notStored`.
        func row(
            _ entity: String, _ pk: Int64, version: Int64 = 1, _ values: [String: StoreValue] = [:]
        ) -> StoreRow {
            let e = model[entityName: entity]!
            let stored = Set(RowCodec.storedSlots(of: e).map(\.name))
            let slots = e.properties.map { p -> StoreValue in
                if let v = values[p.name] { return v }
                guard stored.contains(p.name) else { return .notStored }
                guard let r = p as? RelationshipDescription else { return .attribute(.null) }
                return r.isToMany ? .toMany([]) : .toOne(nil)
            }
            return StoreRow(objectID: id(entity, pk), version: version, values: slots)
        }

        /// An expense whose values derive from `seed`, every type filled.
        func expense(_ pk: Int64, version: Int64 = 1, seed: Int, category: Int64? = nil) -> StoreRow
        {
            row(
                "Expense", pk, version: version,
                [
                    "title": .attribute(.string("expense \(seed)\nline two \u{2028} \u{0}")),
                    "amount": .attribute(.decimal(Decimal(seed) / 100)),
                    "date": .attribute(
                        .date(Date(timeIntervalSince1970: 1_700_000_000.125 + Double(seed)))),
                    "ratio": .attribute(.double(seed % 3 == 0 ? -0.0 : Double(seed) / 7)),
                    "weight": .attribute(.float(seed % 5 == 0 ? .nan : Float(seed) / 3)),
                    "count16": .attribute(.integer(Int64(seed % 30000))),
                    "count32": .attribute(.integer(Int64(seed) * 1000)),
                    "count64": .attribute(.integer(Int64(seed) << 40)),
                    "cleared": .attribute(.boolean(seed % 2 == 0)),
                    "blob": .attribute(.data(Data([UInt8(seed & 0xFF), 0, 10, 13]))),
                    "link": .attribute(.uri(URL(string: "https://example.com/e/\(seed)")!)),
                    "payload": .attribute(.transformable(Data("{\"n\":\(seed)}".utf8))),
                    "category": .toOne(category.map { id("Category", $0) }),
                ])
        }
    }

    /// This process's scratch root; creating it removes the roots of finished test runs.
    static let scratchRoot: URL = {
        let base = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-filestore-tests", isDirectory: true)
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: base.path)) ?? []
        for entry in entries where Int32(entry).map({ kill($0, 0) != 0 }) ?? true {
            try? FileManager.default.removeItem(at: base.appendingPathComponent(entry))
        }
        return base.appendingPathComponent(String(getpid()), isDirectory: true)
    }()

    /// A one-entity model (`Note`: title, n) for the damage and bad-input suites.
    static func noteModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(name: "n", type: .integer64),
                ])
        ])
    }

    /// A ``noteModel()`` and a path for its file in a fresh scratch directory.
    struct NoteFile {
        let model: ManagedObjectModel
        let directory: URL
        /// `notes.jsonl` in ``directory`` (not created).
        let url: URL

        init() throws {
            model = try FileStoreFixtures.noteModel()
            directory = try FileStoreFixtures.temporaryDirectory()
            url = directory.appendingPathComponent("notes.jsonl")
        }
    }

    /// A `Note` row of ``noteModel()`` in store `"S"` (n = pk).
    static func note(_ model: ManagedObjectModel, _ pk: Int64, _ title: String, version: Int64 = 1)
        -> StoreRow
    {
        StoreRow(
            objectID: ManagedObjectID(
                entity: model[entityName: "Note"]!, storeIdentifier: "S", primaryKey: pk),
            version: version, values: [.attribute(.string(title)), .attribute(.integer(pk))])
    }

    /// A fresh directory under this process's scratch root (removed by a later test run).
    static func temporaryDirectory() throws -> URL {
        let url = scratchRoot.appendingPathComponent(UUID().uuidString, isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Every row of every entity, by object ID.
    static func allRows(_ store: any PersistentStore) throws -> [ManagedObjectID: StoreRow] {
        var rows: [ManagedObjectID: StoreRow] = [:]
        for entity in store.model.entities where !entity.isAbstract {
            for row in try store.fetch(
                StoreFetchRequest(entity: entity, includesSubentities: false))
            {
                rows[row.objectID] = row
            }
        }
        return rows
    }

    /// Options for a store of `identifier` (rows of ``note(_:_:_:version:)`` are of `"S"`),
    /// without automatic compaction.
    static func options(identifier: String, readOnly: Bool = false) -> StoreOptions {
        var options = StoreOptions()
        options.storeIdentifier = identifier
        options.isReadOnly = readOnly
        options.automaticCompaction = false
        return options
    }

    /// Options with a fixed identifier and a clock that starts at 2023-11-14 and ticks 1 s per call.
    static func options(readOnly: Bool = false, synchronous: SynchronousMode = .full)
        -> StoreOptions
    {
        var options = StoreOptions()
        options.isReadOnly = readOnly
        options.synchronous = synchronous
        options.storeIdentifier = "6B0F5C2E-0000-4000-8000-000000000001"
        let ticks = TickingClock()
        options.clock = { ticks.next() }
        return options
    }
}

/// A deterministic clock: 1,700,000,000 s plus one second per reading.
final class TickingClock: @unchecked Sendable {
    // Sendable: `now` is guarded by `lock`.
    private let lock = NSLock()
    private var now = 1_700_000_000.0

    func next() -> Date {
        lock.lock()
        defer { lock.unlock() }
        now += 1
        return Date(timeIntervalSince1970: now)
    }
}
