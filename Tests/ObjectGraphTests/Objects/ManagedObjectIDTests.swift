import Foundation
import Testing

@testable import ObjectGraph

/// `ManagedObjectID` is a key and one shared scope (entity and store): IDs are equal however
/// they were made, scopes are interned safely across threads, and interning keeps nothing
/// alive that was dropped.
@Suite struct ManagedObjectIDTests {
    /// A coordinator over one store of `kind`, with one saved category; returns its ID.
    private func savedCategory(_ kind: StoreKind) throws -> (
        PersistentStoreCoordinator, any PersistentStore, ManagedObjectID
    ) {
        let model = try ExpenseModel.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try kind.open(model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let id = try context.performAndWait {
            let category = Category(context: context)
            category.id = UUID()
            category.name = "Food"
            try context.save()
            return category.objectID
        }
        return (coordinator, store, id)
    }

    @Test func anIDIsAKeyAndOneReference() {
        #expect(MemoryLayout<ManagedObjectID>.size == 16)
        #expect(MemoryLayout<ManagedObjectID?>.size == 16)
        #expect(MemoryLayout<StoreValue>.stride == 24)
        #expect(MemoryLayout<StoreRow>.stride == 32)
    }

    @Test(arguments: StoreKind.all)
    func idsOfOneEntityStoreAndKeyAreEqualHoweverTheyWereMade(_ kind: StoreKind) throws {
        let (coordinator, store, saved) = try savedCategory(kind)
        let entity = saved.entity
        let made = ManagedObjectID(
            entity: entity, storeIdentifier: store.identifier, primaryKey: saved.primaryKey)
        let fromURI = try #require(
            coordinator.managedObjectID(forURIRepresentation: saved.uriRepresentation()))
        let fromRow = try #require(
            try store.fetch(StoreFetchRequest(entity: entity)).first?.objectID)
        // Another coordinator on a reopened store of the same identifier and model.
        let reopened = try kind.reopen(store, coordinator.managedObjectModel)
        let other = PersistentStoreCoordinator(managedObjectModel: coordinator.managedObjectModel)
        try other.addPersistentStore(reopened)
        let fromReopened = try #require(
            try reopened.fetch(StoreFetchRequest(entity: entity)).first?.objectID)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: other)
        let fromFetch = try context.performAndWait {
            try context.fetch(FetchRequest<Category>(entityName: "Category")).first!.objectID
        }
        let all = [saved, made, fromURI, fromRow, fromReopened, fromFetch]
        for id in all {
            #expect(id == saved)
            #expect(id.hashValue == saved.hashValue)
            #expect(id.scope === saved.scope, "one shared scope per entity and store")
            #expect(id.storeIdentifier == store.identifier)
            #expect(!id.isTemporaryID)
        }
        #expect(Set(all).count == 1)
    }

    @Test func idsDifferingInEntityStoreOrKeyAreNotEqual() throws {
        let model = try ExpenseModel.make()
        let category = model[entityName: "Category"]!
        let transaction = model[entityName: "Transaction"]!
        let id = ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: 1)
        let others = [
            ManagedObjectID(entity: transaction, storeIdentifier: "A", primaryKey: 1),
            ManagedObjectID(entity: category, storeIdentifier: "B", primaryKey: 1),
            ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: 2),
            ManagedObjectID.temporary(for: category),
        ]
        for other in others { #expect(other != id) }
        #expect(Set(others + [id]).count == 5)
        // Another model's entity of the same name is another entity.
        let again = try ExpenseModel.make()[entityName: "Category"]!
        #expect(ManagedObjectID(entity: again, storeIdentifier: "A", primaryKey: 1) != id)
    }

    @Test func temporaryIDsShareTheirEntitysScopeAndNeverRepeatAKey() throws {
        let model = try ExpenseModel.make()
        let category = model[entityName: "Category"]!
        let a = ManagedObjectID.temporary(for: category)
        let b = ManagedObjectID.temporary(for: category)
        #expect(a.isTemporaryID && b.isTemporaryID)
        #expect(a.storeIdentifier == nil)
        #expect(a.scope === b.scope)
        #expect(a != b && a.primaryKey != b.primaryKey)
        #expect(a.uriRepresentation().absoluteString == "x-coredata:///Category/t\(a.primaryKey)")
        let permanent = ManagedObjectID(
            entity: category, storeIdentifier: "S", primaryKey: a.primaryKey)
        #expect(permanent != a)
    }

    @Test func scopesInternedFromManyThreadsAtOnceAreOne() throws {
        let model = try ExpenseModel.make()
        let entities = model.entities
        let count = 400
        let results = LockedBox([ManagedObjectID?](repeating: nil, count: count * 2))
        DispatchQueue.concurrentPerform(iterations: count) { i in
            let entity = entities[i % entities.count]
            let permanent = ManagedObjectID(
                entity: entity, storeIdentifier: "store \(i % 3)", primaryKey: Int64(i % 5))
            let temporary = ManagedObjectID.temporary(for: entity)
            results.update {
                $0[2 * i] = permanent
                $0[2 * i + 1] = temporary
            }
        }
        let ids = results.value.map { $0! }
        var scopes: [String: Set<ObjectIdentifier>] = [:]
        for id in ids {
            scopes["\(id.entity.name) \(id.storeIdentifier ?? "-")", default: []].insert(
                ObjectIdentifier(id.scope))
        }
        #expect(scopes.count == entities.count * 4)
        #expect(scopes.values.allSatisfy { $0.count == 1 })
        let temporaryKeys = Set(ids.filter(\.isTemporaryID).map(\.primaryKey))
        #expect(temporaryKeys.count == count)
        // Equal IDs made on different threads are equal.
        for i in 0..<count {
            let again = ManagedObjectID(
                entity: entities[i % entities.count], storeIdentifier: "store \(i % 3)",
                primaryKey: Int64(i % 5))
            #expect(ids[2 * i] == again)
        }
    }

    @Test(arguments: StoreKind.all)
    func aDroppedModelCoordinatorAndStoreGoAway(_ kind: StoreKind) throws {
        weak var model: ManagedObjectModel?
        weak var entity: EntityDescription?
        weak var coordinator: PersistentStoreCoordinator?
        weak var store: (any PersistentStore)?
        var kept: ManagedObjectID?
        try {
            let (c, s, id) = try savedCategory(kind)
            (s as? JSONLinesStore)?.close()
            model = c.managedObjectModel
            entity = id.entity
            coordinator = c
            store = s
            _ = ManagedObjectID.temporary(for: id.entity)
            kept = id
        }()
        #expect(coordinator == nil)
        #expect(store == nil)
        #expect(model == nil)
        // An ID keeps its entity, and only that, alive after its model is gone.
        #expect(entity != nil)
        do {
            let id = try #require(kept)
            #expect(id.entity.name == "Category")
            // Made after the model went: a scope of its own, still equal.
            let later = ManagedObjectID(
                entity: id.entity, storeIdentifier: id.storeIdentifier!, primaryKey: id.primaryKey)
            #expect(later == id && later.hashValue == id.hashValue)
        }
        kept = nil
        // (Not `#expect(entity == nil)`: reporting a failure would reflect the entity and read
        // its dead model.)
        let entityIsGone = entity == nil
        #expect(entityIsGone, "the entity's ID scopes keep it alive")
    }

    @Test func storesOpenedAndDroppedOneByOneDoNotGrowTheScopes() throws {
        let model = try ExpenseModel.make()
        let category = model[entityName: "Category"]!
        for _ in 0..<200 {
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            let store = try coordinator.addPersistentStore(with: PersistentStoreDescription())
            let id = try coordinator.permanentIDs(for: category, count: 1)[0]
            #expect(id.storeIdentifier == store.identifier)
        }
        #expect(category.idScopes.keptStoreScopes < 20)
        // A store still open keeps its scope: IDs made later share it.
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let first = try coordinator.permanentIDs(for: category, count: 1)[0]
        for _ in 0..<100 {
            let other = PersistentStoreCoordinator(managedObjectModel: model)
            _ = try other.addPersistentStore(with: PersistentStoreDescription())
        }
        let again = ManagedObjectID(
            entity: category, storeIdentifier: store.identifier, primaryKey: first.primaryKey)
        #expect(again.scope === first.scope)
    }
}

/// A value behind a lock, for collecting results from many threads.
private final class LockedBox<Value>: @unchecked Sendable {
    // Sendable: `stored` is guarded by `lock`.
    private var stored: Value
    private let lock = NSLock()

    init(_ value: Value) { stored = value }

    var value: Value {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func update(_ body: (inout Value) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        body(&stored)
    }
}
