import Foundation
import ObjectGraph

/// A coordinator on a tracked store of either kind, with an injected clock, for the history
/// tests. The model: `Item` (`name` preserved in tombstones, `count`, `note`).
struct HistoryStack {
    enum Kind: String, CaseIterable, Sendable, CustomStringConvertible {
        case ram, file
        var description: String { rawValue }
    }

    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item",
                properties: [
                    AttributeDescription(
                        name: "name", type: .string, preservesValueInHistoryOnDeletion: true),
                    AttributeDescription(name: "count", type: .integer64, defaultValue: 0),
                    AttributeDescription(name: "note", type: .string),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [AttributeDescription(name: "label", type: .string)]),
        ])
    }

    let kind: Kind
    let model: ManagedObjectModel
    let url: URL
    let coordinator: PersistentStoreCoordinator
    let clock: TestClock

    /// Opens a fresh tracked store of `kind`.
    init(_ kind: Kind, tracking: Bool = true) throws {
        let url =
            kind == .ram ? URL(fileURLWithPath: "/dev/null") : TemporaryStoreFiles.next("history")
        try self.init(kind, model: try Self.model(), url: url, tracking: tracking)
    }

    /// Opens the store at `url` (again).
    init(
        _ kind: Kind, model: ManagedObjectModel, url: URL, tracking: Bool = true,
        clock: TestClock = TestClock(), configure: (PersistentStoreDescription) -> Void = { _ in }
    ) throws {
        self.kind = kind
        self.model = model
        self.url = url
        self.clock = clock
        coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        coordinator.clock = { clock.tick() }
        let description = PersistentStoreDescription(url: url)
        description.setOption(tracking as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        configure(description)
        try coordinator.addPersistentStore(with: description)
    }

    var store: any PersistentStore { coordinator.persistentStores[0] }

    /// A private-queue context with `author` as its transaction author.
    func context(author: String? = nil, name: String? = nil) -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.transactionAuthor = author
        context.name = name
        return context
    }

    /// Inserts items with the given names in one save; returns their IDs.
    @discardableResult
    func insert(_ names: [String], author: String? = nil) throws -> [ManagedObjectID] {
        let context = self.context(author: author)
        return try context.performAndWait {
            let objects = names.map { name -> ManagedObject in
                let item = context.insertNewObject(forEntityName: "Item")
                item.setValue(name, forKey: "name")
                return item
            }
            try context.save()
            return objects.map(\.objectID)
        }
    }

    /// Runs a history request in a fresh context.
    func execute(_ request: PersistentHistoryChangeRequest) throws -> Any? {
        let context = self.context()
        return try context.performAndWait {
            (try context.execute(request) as? PersistentHistoryResult)?.result
        }
    }

    /// The transactions after `token` (all for `nil`).
    func transactions(after token: PersistentHistoryToken?) throws
        -> [PersistentHistoryTransaction]
    {
        try execute(.fetchHistory(after: token)) as? [PersistentHistoryTransaction] ?? []
    }

    /// The same file opened again by a new coordinator (after ``close()``).
    func reopen(
        tracking: Bool = true, model: ManagedObjectModel? = nil,
        configure: (PersistentStoreDescription) -> Void = { _ in }
    ) throws -> HistoryStack {
        try HistoryStack(
            kind, model: model ?? self.model, url: url, tracking: tracking, clock: clock,
            configure: configure)
    }

    /// Closes the store (a file store releases its file).
    func close() throws {
        for store in coordinator.persistentStores { try coordinator.remove(store) }
    }
}

/// A clock that advances one second per reading, from 2026-01-01.
final class TestClock: @unchecked Sendable {
    // Sendable: `now` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var now = Date(timeIntervalSinceReferenceDate: 788_918_400)

    func tick() -> Date {
        lock.lock()
        defer { lock.unlock() }
        now += 1
        return now
    }
}
