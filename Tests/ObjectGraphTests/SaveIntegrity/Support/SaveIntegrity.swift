import Foundation
import ObjectGraph
import Testing

/// The save-integrity tests: validation, delete rules, merge policies, uniqueness
/// constraints, atomicity and Core Data's errors. Run them with `swift test --filter SaveIntegrity`.
@Suite struct SaveIntegrity {}

/// A kind of store the scenarios run on: how to open an empty one, and how to open again
/// what one committed (`reopen` in the scenarios).
///
/// Today only the RAM store; the JSON-lines store joins ``all`` when it lands, and every
/// scenario taking a `StoreKind` argument then runs on both.
struct StoreKind: Sendable, CustomTestStringConvertible {
    let name: String
    let open: @Sendable (ManagedObjectModel) throws -> any PersistentStore
    let reopen: @Sendable (any PersistentStore, ManagedObjectModel) throws -> any PersistentStore

    var testDescription: String { name }

    static let inMemory = StoreKind(
        name: "InMemory",
        open: { InMemoryStore(model: $0) },
        reopen: { store, model in
            guard let ram = store as? InMemoryStore else {
                throw StackError.unexpectedStore(store.type)
            }
            return try InMemoryStore(model: model, table: ram.snapshot())
        })

    static let jsonLines = StoreKind(
        name: "JSONLines",
        open: { try JSONLinesStore(model: $0, url: TemporaryStoreFiles.next()) },
        reopen: { store, model in
            guard let file = store as? JSONLinesStore else {
                throw StackError.unexpectedStore(store.type)
            }
            file.close()
            return try JSONLinesStore(model: model, url: file.url!)
        })

    /// Every store kind the scenarios run on.
    static let all: [StoreKind] = [.inMemory, .jsonLines]
}

enum StackError: Error { case unexpectedStore(String) }

/// A coordinator over one store of a ``StoreKind``, with helpers to make contexts and read
/// what the store holds.
final class Stack {
    let model: ManagedObjectModel
    let kind: StoreKind
    let coordinator: PersistentStoreCoordinator
    /// The store as the coordinator sees it (possibly a ``FailingStore`` wrapper).
    let store: any PersistentStore
    /// The store of the kind under test (unwrapped).
    let baseStore: any PersistentStore

    convenience init(_ model: ManagedObjectModel, on kind: StoreKind, failing: Bool = false) throws
    {
        let base = try kind.open(model)
        try self.init(model, kind: kind, base: base, failing: failing)
    }

    private init(
        _ model: ManagedObjectModel, kind: StoreKind, base: any PersistentStore, failing: Bool
    ) throws {
        self.model = model
        self.kind = kind
        self.baseStore = base
        self.store = failing ? FailingStore(base) : base
        self.coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
    }

    /// A new private-queue root context with `policy`.
    func context(_ policy: MergePolicy = .error, name: String? = nil) -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.mergePolicy = policy
        context.name = name
        return context
    }

    /// A new stack over what this one's store committed, as after closing and opening again.
    func reopen() throws -> Stack {
        try Stack(model, kind: kind, base: try kind.reopen(baseStore, model), failing: false)
    }

    /// Every stored row of `entity` (and its subentities), in primary-key order.
    func rows(_ entity: String) throws -> [StoreRow] {
        try store.fetch(StoreFetchRequest(entity: model.entitiesByName[entity]!))
    }

    /// Every stored row of every entity, for "the store is unchanged" checks.
    func allRows() throws -> [StoreRow] {
        try model.entities.filter { $0.superentity == nil }.flatMap {
            try store.fetch(StoreFetchRequest(entity: $0))
        }
    }

    /// Inserts one object of `entity` with `values` into `context`, then saves.
    @discardableResult
    func seed(_ entity: String, _ values: [String: Any?]) throws -> ManagedObjectID {
        let context = self.context()
        return try context.performAndWait {
            let object = context.insertNewObject(forEntityName: entity)
            for (key, value) in values { object.setValue(value, forKey: key) }
            try context.save()
            return object.objectID
        }
    }
}

/// A store that forwards to another and, when told to, throws from `commit` without
/// changing anything: for atomicity tests.
// Sendable: `failsCommits` and `commits` are guarded by `lock`; the wrapped store is Sendable.
final class FailingStore: PersistentStore, @unchecked Sendable {
    let base: any PersistentStore
    private let lock = NSLock()
    private var failsCommits = false
    private var commits = 0
    private var fetches = 0
    private var extra = 0

    init(_ base: any PersistentStore) { self.base = base }

    /// Whether the next commits throw 134030.
    var failing: Bool {
        get { lock.withLock { failsCommits } }
        set { lock.withLock { failsCommits = newValue } }
    }
    /// How many commits reached the wrapped store.
    var commitCount: Int { lock.withLock { commits } }
    /// How many fetches the store answered.
    var fetchCount: Int { lock.withLock { fetches } }

    var identifier: String { base.identifier }
    var type: String { base.type }
    var url: URL? { base.url }
    var model: ManagedObjectModel { base.model }
    var isReadOnly: Bool { base.isReadOnly }
    var recoveryNotices: [String] { base.recoveryNotices }

    func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
        lock.withLock { fetches += 1 }
        return try base.fetch(request)
    }
    func count(_ request: StoreFetchRequest) throws -> Int { try base.count(request) }
    func row(for objectID: ManagedObjectID) throws -> StoreRow? { try base.row(for: objectID) }
    func relatedObjectIDs(_ relationship: RelationshipDescription, of objectID: ManagedObjectID)
        throws
        -> [ManagedObjectID]
    { try base.relatedObjectIDs(relationship, of: objectID) }
    func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
        try base.allocatePrimaryKeys(for: entity, count: count + extraKeys)
    }
    /// How many keys more than asked for each allocation hands out (a third-party store's
    /// over-allocation; the engine must use the first ones asked for).
    var extraKeys: Int {
        get { lock.withLock { extra } }
        set { lock.withLock { extra = newValue } }
    }
    func commit(_ changes: StoreChangeSet) throws {
        if failing {
            throw ObjectGraphError(.storeWriteFailed, "test store: commit refused (disk full)")
        }
        try base.commit(changes)
        lock.withLock { commits += 1 }
    }
}

/// Runs `body`, expects it to throw, and returns the error as an `NSError`.
func expectNSError(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation)
    -> NSError?
{
    do {
        try body()
        Issue.record("expected an error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error as NSError
    }
}

/// The detailed errors of a 1560 (or the error itself), as (entity, key, code) triples.
func details(_ error: NSError?) -> Set<String> {
    guard let error else { return [] }
    let list =
        error.code == NSValidationMultipleErrorsError
        ? error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [] : [error]
    return Set(
        list.map { e in
            let object = e.userInfo[NSValidationObjectErrorKey] as? ManagedObject
            return
                "\(object?.entity.name ?? "?").\(e.userInfo[NSValidationKeyErrorKey] as? String ?? "?"):\(e.code)"
        })
}
