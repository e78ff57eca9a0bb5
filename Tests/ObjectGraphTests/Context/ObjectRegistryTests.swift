import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// An object of `id`'s entity whose `objectID` is `id`: the registry keeps an object under
/// its own ID.
func registrable(_ id: ManagedObjectID) -> ManagedObject {
    let object = ManagedObject(entity: id.entity, insertInto: nil)
    object.objectID = id
    return object
}

/// The registry's own hash table: lookups, replacement, removal (by backward shift), growth
/// and sweeps agree with a `Dictionary` keyed by `ManagedObjectID` under random operations,
/// with IDs that differ only by store or only by entity.
@Suite struct ObjectRegistryTests {
    private static func entities() throws -> (EntityDescription, EntityDescription) {
        let model = try ExpenseModel.make()
        return (model.entitiesByName["Category"]!, model.entitiesByName["Transaction"]!)
    }

    @Test func randomOperationsAgreeWithADictionary() throws {
        let (category, transaction) = try Self.entities()
        let registry = ObjectRegistry()
        registry.retainsAll = true
        var model: [ManagedObjectID: ManagedObject] = [:]
        var random = SeededRandomNumberGenerator(seed: 25)
        // Few keys, two entities, two stores and temporary IDs: many IDs share a key.
        func randomID() -> ManagedObjectID {
            let entity = random.next() % 2 == 0 ? category : transaction
            let key = Int64(random.next() % 300)
            switch random.next() % 3 {
            case 0: return ManagedObjectID(entity: entity, storeIdentifier: "A", primaryKey: key)
            case 1: return ManagedObjectID(entity: entity, storeIdentifier: "B", primaryKey: key)
            default: return .temporary(for: entity)
            }
        }
        for step in 0..<20_000 {
            let id = randomID()
            switch random.next() % 5 {
            case 4:
                // Found: the registered object, `make` not called; else `make`'s, registered.
                let made = registrable(id)
                let expected = model[id] ?? made
                #expect(registry.object(for: id) { made } === expected)
                model[id] = expected
            case 0, 1:
                let object = registrable(id)
                registry.register(object, as: id)
                model[id] = object
            case 2:
                #expect(registry.removeValue(forKey: id) === model.removeValue(forKey: id))
            default:
                #expect(registry[id] === model[id])
            }
            if step % 1000 == 0 {
                for (id, object) in model { #expect(registry[id] === object) }
                #expect(registry.count == model.count)
            }
        }
        #expect(registry.count == model.count)
        for (id, object) in model { #expect(registry[id] === object) }
        let values = Set(registry.values.map(ObjectIdentifier.init))
        #expect(values == Set(model.values.map(ObjectIdentifier.init)))
    }

    /// A `make` that registers other objects (moving entries, growing the table) or removes
    /// some (leaving holes before the free slot the probe found) leaves its own object
    /// registered under the ID asked for, and the others as they were. Many trials: where an
    /// ID's probe run lies depends on the entity's address.
    @Test(arguments: [false, true])
    func anObjectMadeWhileTheTableChangesIsStillRegistered(removing: Bool) throws {
        let (category, _) = try Self.entities()
        func id(_ key: Int) -> ManagedObjectID {
            ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: Int64(key))
        }
        for trial in 0..<200 {
            let registry = ObjectRegistry()
            registry.retainsAll = true
            let base = trial * 100
            for key in base..<base + 7 { registry.register(registrable(id(key)), as: id(key)) }
            let others = (0..<40).map { registrable(id(base + 60 + $0)) }
            let made = registrable(id(base + 50))
            let got = registry.object(for: id(base + 50)) {
                if removing {
                    for key in base..<base + 7 { registry.removeValue(forKey: id(key)) }
                } else {
                    for (i, other) in others.enumerated() {
                        registry.register(other, as: id(base + 60 + i))
                    }
                }
                return made
            }
            #expect(got === made)
            #expect(registry[id(base + 50)] === made)
            if !removing {
                for (i, other) in others.enumerated() {
                    #expect(registry[id(base + 60 + i)] === other)
                }
            }
            #expect(registry.count == (removing ? 1 : 7 + others.count + 1))
        }
    }

    /// A save's re-keying moves each inserted object from its temporary ID to its permanent
    /// one: every object is then found under its new ID only, the count is unchanged, and the
    /// table keeps its size (each move frees its old entry before adding the new one, so no
    /// room is needed beyond what the table has).
    @Test func movingEntriesToNewIDsKeepsTheTablesSize() throws {
        let (category, transaction) = try Self.entities()
        let registry = ObjectRegistry()
        registry.retainsAll = true
        var objects: [ManagedObject] = []
        var moves: [(object: ManagedObject, from: ManagedObjectID)] = []
        for i in 0..<1000 {
            let entity = i % 3 == 0 ? category : transaction
            let object = ManagedObject(entity: entity, insertInto: nil)
            registry.register(object, as: object.objectID)
            objects.append(object)
        }
        let slots = registry.slotCount
        for (i, object) in objects.enumerated() {
            moves.append((object, object.objectID))
            object.objectID = ManagedObjectID(
                entity: object.entity, storeIdentifier: "A", primaryKey: Int64(i + 1))
        }
        registry.move(moves)
        #expect(registry.count == 1000)
        #expect(registry.slotCount == slots)
        for (object, from) in moves {
            #expect(registry[object.objectID] === object)
            #expect(registry[from] == nil)
        }
        // A move whose old entry is not registered adds one: the table grows as it must.
        let stray = ManagedObject(entity: category, insertInto: nil)
        let from = stray.objectID
        stray.objectID = ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: 5000)
        for i in 0..<1000 {
            let extra = ManagedObject(entity: category, insertInto: nil)
            extra.objectID = ManagedObjectID(
                entity: category, storeIdentifier: "B", primaryKey: Int64(i))
            registry.move([(extra, extra.objectID)])
            objects.append(extra)
        }
        registry.move([(stray, from)])
        #expect(registry.count == 2001)
        #expect(registry[stray.objectID] === stray)
        for object in objects { #expect(registry[object.objectID] === object) }
    }

    /// Moving from two arrays (the objects, and the IDs they had) moves exactly as the list
    /// of pairs does, in order: an object whose old entry is registered, one whose old entry
    /// is not (a stray), and one moved to an ID another object is registered under (which it
    /// replaces) end up registered the same way in both tables.
    @Test func movingFromTwoArraysMovesAsThePairsDo() throws {
        let (category, transaction) = try Self.entities()
        let pairs = ObjectRegistry()
        let arrays = ObjectRegistry()
        var objects: [ManagedObject] = []
        var from: [ManagedObjectID] = []
        for i in 0..<300 {
            let object = ManagedObject(entity: i % 2 == 0 ? category : transaction, insertInto: nil)
            if i % 50 != 7 {
                pairs.register(object, as: object.objectID)
                arrays.register(object, as: object.objectID)
            }
            objects.append(object)
            from.append(object.objectID)
        }
        // Registered under the ID that object 10 moves to: the move replaces it.
        let displaced = registrable(
            ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: 11))
        pairs.register(displaced, as: displaced.objectID)
        arrays.register(displaced, as: displaced.objectID)
        for (i, object) in objects.enumerated() {
            object.objectID = ManagedObjectID(
                entity: object.entity, storeIdentifier: "A", primaryKey: Int64(i + 1))
        }
        pairs.move(Array(zip(objects, from)).map { (object: $0.0, from: $0.1) })
        arrays.move(objects, from: from)
        #expect(arrays.count == pairs.count && arrays.count == 300)
        for (object, old) in zip(objects, from) {
            #expect(arrays[object.objectID] === object && pairs[object.objectID] === object)
            #expect(arrays[old] == nil && pairs[old] == nil)
        }
        #expect(
            Set(arrays.values.map(ObjectIdentifier.init)) == Set(objects.map(ObjectIdentifier.init))
        )
        #expect(
            Set(pairs.values.map(ObjectIdentifier.init)) == Set(objects.map(ObjectIdentifier.init)))
    }

    /// The table keeps a tag of each entry's ID (not the ID): a sweep that drops a few entries
    /// takes their IDs from their objects, and must drop exactly them when IDs of two stores
    /// and temporary IDs share entity and key (and so their tags).
    @Test func aSweepTellsApartIDsThatShareEntityAndKey() throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        registry.reserveCapacity(3000)  // no sweep while filling
        var held: [ManagedObjectID: ManagedObject] = [:]
        var dropped: [ManagedObjectID] = []
        for key in 0..<900 {
            for (n, store) in ["A", "B", nil].enumerated() {
                let id =
                    store.map {
                        ManagedObjectID(
                            entity: category, storeIdentifier: $0, primaryKey: Int64(key))
                    } ?? .temporary(for: category)
                let object = registrable(id)
                registry.register(object, as: id)
                // One in ten is dropped, at different keys in each store.
                if (key + n * 3) % 10 == 0 { dropped.append(id) } else { held[id] = object }
            }
        }
        registry.sweep()
        #expect(registry.count == held.count)
        for (id, object) in held { #expect(registry[id] === object) }
        for id in dropped { #expect(registry[id] == nil) }
    }

    /// A sweep that finds exactly half the entries held by the registry alone re-lays the
    /// table (its branch for half or more) and keeps exactly the held half; one fewer takes
    /// the branch that removes entry by entry, with the same result.
    @Test(arguments: [0, 1])
    func aSweepAtExactlyHalfKeepsTheHeldHalf(_ fewer: Int) throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        registry.reserveCapacity(3000)  // no sweep while filling
        var held: [ManagedObjectID: ManagedObject] = [:]
        var dropped: [ManagedObjectID] = []
        for key in 0..<1000 {
            let id = ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: Int64(key))
            let object = registrable(id)
            registry.register(object, as: id)
            if key % 2 == 0 && key < 1000 - 2 * fewer {
                dropped.append(id)
            } else {
                held[id] = object
            }
        }
        let slots = registry.slotCount
        registry.sweep()
        #expect(dropped.count == 500 - fewer && registry.count == held.count)
        for (id, object) in held { #expect(registry[id] === object) }
        for id in dropped { #expect(registry[id] == nil) }
        #expect(registry.slotCount == slots)
    }

    /// A reservation for a fetch of n objects does not make the next registration sweep:
    /// the next sweep on registering is due once the table has doubled past n, as after a
    /// sweep. (Due at n, the first object registered after such a fetch swept the whole
    /// table while the fetch's result still held every object.)
    @Test func aReservationSweepsOnlyOnceTheTableHasDoubledPastIt() throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        func registerUnheld(_ key: Int) {
            let id = ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: Int64(key))
            registry.register(registrable(id), as: id)
        }
        registry.reserveCapacity(3000)
        // Held by the registry alone, so a sweep would drop every one of them.
        for key in 0..<3000 { registerUnheld(key) }
        registerUnheld(3000)
        #expect(registry.count == 3001)
        for key in 3001..<6000 { registerUnheld(key) }
        #expect(registry.count == 6000)
        // The 6,001st registration sweeps first.
        registerUnheld(6000)
        #expect(registry.count == 1)
    }

    /// A series of reservations in one event (fetches of 100 more objects each, every object
    /// held by the registry alone) does not push the next sweep away: the grace after each
    /// reservation is its own, and the doubling threshold stays twice the count at the last
    /// sweep, so objects only the registry holds do not pile up until the end of the event.
    @Test func aSeriesOfReservationsKeepsTheDoublingThreshold() throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        var key = 0
        func registerUnheld() {
            let id = ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: Int64(key))
            registry.register(registrable(id), as: id)
            key += 1
        }
        for _ in 0..<100 {
            registry.reserveCapacity(registry.count + 100)
            for _ in 0..<100 { registerUnheld() }
        }
        #expect(registry.count <= 2048)
    }

    /// A sweep goes on through its rounds while entries are left (each round drops the
    /// objects the previous one left held by the registry alone) and stops at an empty
    /// table, which it leaves usable, the next sweep due at 1,024 entries again.
    @Test func aSweepTakesAChainAndStopsAtAnEmptyTable() throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        func id(_ key: Int) -> ManagedObjectID {
            ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: Int64(key))
        }
        // Link 0 holds 1, which holds 2: only the registry holds link 0.
        var links: [Link] = (0..<3).map { _ in Link(entity: category, insertInto: nil) }
        links[0].next = links[1]
        links[1].next = links[2]
        for (key, link) in links.enumerated() {
            link.objectID = id(key)
            registry.register(link, as: id(key))
        }
        links.removeAll()
        registry.sweep()
        #expect(registry.count == 0)
        #expect(registry.values.isEmpty)
        for key in 0..<3 { #expect(registry[id(key)] == nil) }
        // Usable, and due to sweep at 1,024 entries: the 1,025th registration sweeps first.
        for key in 0..<1024 { registry.register(registrable(id(key)), as: id(key)) }
        #expect(registry.count == 1024)
        registry.register(registrable(id(1024)), as: id(1024))
        #expect(registry.count == 1)
    }

    /// An object that holds another, as a relationship does: a chain for the sweep's rounds.
    final class Link: ManagedObject {
        /// The object this one holds.
        var next: ManagedObject?
    }

    /// One in ten held (the sweep rebuilds the table from the few that stay) and nine in ten
    /// held (it removes the few that go, one by one).
    @Test(arguments: [1, 9])
    func aSweepKeepsExactlyTheObjectsReferencedElsewhere(heldPerTen: Int) throws {
        let (category, _) = try Self.entities()
        let registry = ObjectRegistry()
        var held: [ManagedObject] = []
        var ids: [ManagedObjectID] = []
        let isHeld = { (key: Int) in key % 10 < heldPerTen }
        registry.reserveCapacity(3000)  // no sweep while filling
        for key in 0..<3000 {
            let id = ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: Int64(key))
            let object = registrable(id)
            registry.register(object, as: id)
            ids.append(id)
            if isHeld(key) { held.append(object) }
        }
        registry.sweep()
        #expect(registry.count == held.count)
        let kept = Set(held.map(ObjectIdentifier.init))
        for (key, id) in ids.enumerated() {
            if isHeld(key) {
                #expect(registry[id].map { kept.contains(ObjectIdentifier($0)) } == true)
            } else {
                #expect(registry[id] == nil)
            }
        }
        held.removeAll()
        registry.sweep()
        #expect(registry.count == 0)
        #expect(registry.values.isEmpty)
    }
}

/// The registry's growth moves its entries into the larger table: every object stays
/// registered and alive while only the registry holds it, and is freed once let go, neither
/// kept by a stray reference nor released twice.
@Suite struct ObjectRegistryGrowthTests {
    @Test func growingKeepsEveryObjectAndFreesEachOnceLetGo() throws {
        let model = try ExpenseModel.make()
        let category = model.entitiesByName["Category"]!
        let registry = ObjectRegistry()
        registry.retainsAll = true
        var watched: [() -> ManagedObject?] = []
        var ids: [ManagedObjectID] = []
        // 5,000 entries grow the table from 16 slots through nine doublings.
        for key in 1...5000 {
            let id = ManagedObjectID(entity: category, storeIdentifier: "A", primaryKey: Int64(key))
            let object = registrable(id)
            registry.register(object, as: id)
            weak let weakObject = object
            watched.append { weakObject }
            ids.append(id)
        }
        #expect(registry.count == 5000)
        for (id, object) in zip(ids, watched) {
            #expect(object() != nil)
            #expect(registry[id] === object())
        }
        // A sweep that keeps a tenth rebuilds the table from the few that stay.
        registry.retainsAll = false
        var held = stride(from: 0, to: 5000, by: 10).compactMap { watched[$0]() }
        registry.sweep()
        #expect(registry.count == held.count)
        for (index, object) in watched.enumerated() {
            #expect((object() != nil) == (index % 10 == 0))
        }
        for (index, id) in ids.enumerated() where index % 10 == 0 {
            #expect(registry[id] === watched[index]())
        }
        held.removeAll()
        registry.removeAll()
        #expect(watched.allSatisfy { $0() == nil })
    }

    /// The registry keeps its entries in buffers of its own. IDs that differ only by store
    /// share a tag and so a home slot (the store is not hashed), so seven of them make one probe run, which
    /// for some keys wraps past the table's end: removing two moves later entries back into
    /// the holes, and every moved entry stays registered and alive; each removed object is
    /// released at once, and dropping the registry releases the rest, once.
    @Test(arguments: 0..<16)
    func entriesMovedIntoARemovedOnesSlotStayAliveAndAreFreedOnce(key: Int) throws {
        let model = try ExpenseModel.make()
        let category = model.entitiesByName["Category"]!
        var watched: [() -> ManagedObject?] = []
        var ids: [ManagedObjectID] = []
        do {
            let registry = ObjectRegistry()
            registry.retainsAll = true
            for store in 0..<7 {
                let id = ManagedObjectID(
                    entity: category, storeIdentifier: "S\(store)", primaryKey: Int64(key))
                let object = registrable(id)
                registry.register(object, as: id)
                weak let weakObject = object
                watched.append { weakObject }
                ids.append(id)
            }
            #expect(registry.slotCount == 16)
            for removed in [0, 3] { #expect(registry.removeValue(forKey: ids[removed]) != nil) }
            for (index, object) in watched.enumerated() {
                #expect((object() != nil) == (index != 0 && index != 3))
            }
            for (index, id) in ids.enumerated() {
                #expect(registry[id] === (index == 0 || index == 3 ? nil : watched[index]()))
            }
            #expect(registry.count == 5)
        }
        #expect(watched.allSatisfy { $0() == nil })
    }
}
