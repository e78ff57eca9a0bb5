import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The registry keeps a 32-bit tag of each entry's ID and reads the rest of the ID from the
/// entry's object: IDs whose tags collide (the same entity and key in several stores, or a
/// temporary and a permanent ID with the same key number) are told apart by their objects'
/// IDs, through lookups, growth, removal by backward shift, sweeps (with a `deinit` that looks
/// the table up) and a save's re-keying.
@Suite struct ObjectRegistryTagTests {
    private static func entities() throws -> (EntityDescription, EntityDescription) {
        let model = try ExpenseModel.make()
        return (model.entitiesByName["Category"]!, model.entitiesByName["Transaction"]!)
    }

    /// The IDs of `entity` with `key` in the stores `S0…S{count-1}` (one tag for all).
    private static func sameTag(
        _ entity: EntityDescription, key: Int64, count: Int
    ) -> [ManagedObjectID] {
        (0..<count).map {
            ManagedObjectID(entity: entity, storeIdentifier: "S\($0)", primaryKey: key)
        }
    }

    /// A temporary ID of `entity` with the key `key` (a permanent ID of the same key shares
    /// its tag).
    private static func temporary(_ entity: EntityDescription, key: Int64) -> ManagedObjectID {
        ManagedObjectID(scope: ManagedObjectID.temporary(for: entity).scope, primaryKey: key)
    }

    @Test func idsSharingATagAreFoundAsTheirOwnObjectsOnly() throws {
        let (category, transaction) = try Self.entities()
        let registry = ObjectRegistry()
        registry.retainsAll = true
        // Two stores, a temporary ID and another entity, all with key 7.
        let ids =
            Self.sameTag(category, key: 7, count: 2) + [Self.temporary(category, key: 7)]
            + Self.sameTag(transaction, key: 7, count: 2)
        let objects = ids.map(registrable)
        for (id, object) in zip(ids, objects) { registry.register(object, as: id) }
        for (id, object) in zip(ids, objects) { #expect(registry[id] === object) }
        // Same tag as the first two, not registered: not found, made on asking.
        let third = ManagedObjectID(entity: category, storeIdentifier: "S2", primaryKey: 7)
        #expect(registry[third] == nil)
        let made = registrable(third)
        #expect(registry.object(for: third) { made } === made)
        #expect(registry.object(for: ids[1]) { registrable(ids[1]) } === objects[1])
        // Removing one of the run leaves the others, before and after it, found.
        #expect(registry.removeValue(forKey: ids[0]) === objects[0])
        #expect(registry[ids[0]] == nil)
        for (id, object) in zip(ids, objects).dropFirst() { #expect(registry[id] === object) }
        #expect(registry[third] === made)
        #expect(registry.count == ids.count)
    }

    /// Thousands of IDs in groups of five with one key (three stores and a temporary ID of one
    /// entity, sharing a tag, and another entity's) grow the table from 16 slots; every other
    /// one removed by backward shift leaves the rest found, and the values are exactly the
    /// rest.
    @Test func growthAndRemovalKeepCollidingIDsApart() throws {
        let (category, transaction) = try Self.entities()
        let registry = ObjectRegistry()
        registry.retainsAll = true
        var entries: [(ManagedObjectID, ManagedObject)] = []
        for key in Int64(1)...1200 {
            var ids = Self.sameTag(category, key: key, count: 3)
            ids.append(Self.temporary(category, key: key))
            ids.append(ManagedObjectID(entity: transaction, storeIdentifier: "S0", primaryKey: key))
            for id in ids {
                let object = registrable(id)
                registry.register(object, as: id)
                entries.append((id, object))
            }
        }
        #expect(registry.count == 6000)
        #expect(registry.slotCount == 16_384)
        for (id, object) in entries { #expect(registry[id] === object) }
        for (i, (id, object)) in entries.enumerated() where i % 2 == 0 {
            #expect(registry.removeValue(forKey: id) === object)
        }
        #expect(registry.count == 3000)
        for (i, (id, object)) in entries.enumerated() {
            #expect(registry[id] === (i % 2 == 0 ? nil : object))
        }
        let values = Set(registry.values.map(ObjectIdentifier.init))
        let expected = entries.enumerated().filter { $0.offset % 2 == 1 }
        #expect(values == Set(expected.map { ObjectIdentifier($0.element.1) }))
    }

    /// Objects moved to permanent IDs that share their temporary IDs' tags (the same key
    /// number), all given their new IDs before the first is moved (as a save does): each is
    /// found under its new ID only, nothing else is replaced, and the count is unchanged.
    @Test func movingToAnIDOfTheSameTagLeavesEveryObjectUnderItsNewID() throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        registry.retainsAll = true
        var moves: [(object: ManagedObject, from: ManagedObjectID)] = []
        // Held under permanent IDs of another store with the same keys: same tags again.
        let others = (Int64(1)...300).map {
            registrable(ManagedObjectID(entity: category, storeIdentifier: "B", primaryKey: $0))
        }
        for other in others { registry.register(other, as: other.objectID) }
        for key in Int64(1)...300 {
            let object = registrable(Self.temporary(category, key: key))
            registry.register(object, as: object.objectID)
            moves.append((object, object.objectID))
        }
        for (object, from) in moves {
            object.objectID = ManagedObjectID(
                entity: category, storeIdentifier: "A", primaryKey: from.primaryKey)
        }
        let removals = registry.removals
        registry.move(moves)
        #expect(registry.count == 600)
        // Each move removed its old entry (counted) and added the new one.
        #expect(registry.removals == removals + 300)
        for (object, from) in moves {
            #expect(registry[object.objectID] === object)
            #expect(registry[from] == nil)
        }
        for other in others { #expect(registry[other.objectID] === other) }
    }

    /// A move whose first objects were never registered (each is added, and the table grows
    /// and is re-laid while the move is under way) still finds the later objects' old entries
    /// by their old tags in the re-laid table: every object ends under its new ID only, and
    /// only the registered ones count as removals.
    @Test func aMoveThatGrowsTheTableFindsTheLaterObjectsOldEntries() throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        registry.retainsAll = true
        var registered: [(object: ManagedObject, from: ManagedObjectID)] = []
        for key in Int64(1)...6 {
            let object = registrable(Self.temporary(category, key: key))
            registry.register(object, as: object.objectID)
            registered.append((object, object.objectID))
        }
        let slotsBefore = registry.slotCount
        let unregistered = (Int64(7)...Int64(40)).map { key in
            let object = registrable(Self.temporary(category, key: key))
            return (object: object, from: object.objectID)
        }
        let moves = unregistered + registered
        for (object, from) in moves {
            object.objectID = ManagedObjectID(
                entity: category, storeIdentifier: "A", primaryKey: from.primaryKey)
        }
        let removals = registry.removals
        registry.move(moves)
        #expect(registry.slotCount > slotsBefore)
        #expect(registry.count == moves.count)
        #expect(registry.removals == removals + registered.count)
        for (object, from) in moves {
            #expect(registry[object.objectID] === object)
            #expect(registry[from] == nil)
        }
    }

    /// A sweep over a table whose entries share a few tags drops exactly the objects only
    /// the registry holds, by removing the few (one by one, with backward shifts) or by
    /// re-laying the table for the many; an object's `deinit` that looks the table up
    /// meanwhile finds the entries still registered (removing) or nothing (re-laying).
    @Test(arguments: [1, 7])
    func aSweepWhileTagsCollideDropsExactlyTheUnheldObjects(droppedPerTen: Int) throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        registry.reserveCapacity(2000)  // no sweep while filling
        var held: [(ManagedObjectID, ManagedObject)] = []
        var dropped: [ManagedObjectID] = []
        let looker = ManagedObjectID(entity: category, storeIdentifier: "S0", primaryKey: 1)
        var seen: [ManagedObject?] = []
        for key in Int64(1)...100 {
            for (n, id) in Self.sameTag(category, key: key, count: 10).enumerated() {
                if (Int(key) + n) % 10 < droppedPerTen, id != looker {
                    let object = Watcher(entity: category, insertInto: nil)
                    object.objectID = id
                    object.onDeinit = { seen.append(registry[looker]) }
                    registry.register(object, as: id)
                    dropped.append(id)
                } else {
                    let object = registrable(id)
                    registry.register(object, as: id)
                    held.append((id, object))
                }
            }
        }
        registry.sweep()
        #expect(registry.count == held.count)
        for (id, object) in held { #expect(registry[id] === object) }
        for id in dropped { #expect(registry[id] == nil) }
        #expect(seen.count == dropped.count)
        let lookerObject = try #require(held.first { $0.0 == looker }?.1)
        // Few dropped: removed one by one, the table whole at each deinit. Many: re-laid,
        // the table reading as empty while entries move.
        let whole = dropped.count * 2 < dropped.count + held.count
        #expect(seen.allSatisfy { $0 === (whole ? lookerObject : nil) })
    }

    /// An object that runs `onDeinit` when freed (a `deinit` that calls back into the table).
    final class Watcher: ManagedObject {
        /// Run from `deinit`.
        var onDeinit: () -> Void = {}
        deinit { onDeinit() }
    }
}

/// Through a context on each store: objects of two stores with the same entity and keys
/// (their IDs differ only by store, so the registry's tags collide) are each registered,
/// found and faulted as themselves, before and after a save and after a reset.
@Suite struct ObjectRegistryTwoStoresTests {
    private static func context(_ coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test(arguments: StoreKind.all)
    func objectsOfTwoStoresWithTheSameKeysStayApart(_ kind: StoreKind) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note", properties: [AttributeDescription(name: "text", type: .string)])
        ])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let stores = [try kind.open(model), try kind.open(model)]
        for store in stores { try coordinator.addPersistentStore(store) }
        let seeding = Self.context(coordinator)
        let ids = try seeding.performAndWait { () throws -> [ManagedObjectID] in
            var notes: [ManagedObject] = []
            for i in 0..<40 {
                let note = seeding.insertNewObject(forEntityName: "Note")
                note.setValue("\(i % 2 == 0 ? "a" : "b")\(i / 2)", forKey: "text")
                seeding.assign(note, to: stores[i % 2])
                notes.append(note)
            }
            let temporary = notes.map(\.objectID)
            try seeding.save()
            for (note, old) in zip(notes, temporary) {
                #expect(seeding.registeredObject(for: note.objectID) === note)
                #expect(seeding.registeredObject(for: old) == nil)
                #expect(seeding.object(with: note.objectID) === note)
            }
            return notes.map(\.objectID)
        }
        // The two stores gave the same keys.
        let keys = { (store: Int) in
            Set(ids.enumerated().filter { $0.offset % 2 == store }.map(\.element.primaryKey))
        }
        #expect(keys(0) == keys(1))
        let context = Self.context(coordinator)
        try context.performAndWait { () throws in
            for _ in 0..<2 {
                // Faults first, then the fetch finds them registered.
                let faults = ids.map { context.object(with: $0) }
                #expect(Set(faults.map(ObjectIdentifier.init)).count == ids.count)
                let notes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Note"))
                #expect(notes.count == ids.count)
                for (i, (id, fault)) in zip(ids, faults).enumerated() {
                    #expect(fault.objectID == id)
                    #expect(context.registeredObject(for: id) === fault)
                    let text = "\(i % 2 == 0 ? "a" : "b")\(i / 2)"
                    #expect(fault.value(forKey: "text") as? String == text)
                }
                context.reset()
                #expect(ids.allSatisfy { context.registeredObject(for: $0) == nil })
            }
        }
    }
}
