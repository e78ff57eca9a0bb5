import Foundation
import Testing

@testable import ObjectGraph

private final class ItemRack: ManagedObject {
    @Attribute var name: String?
    @Relationship var items: Set<RackItem>
    @Relationship var line: [RackItem]
}

private final class RackItem: ManagedObject {
    @Attribute var number: Int64
    @Relationship var rack: ItemRack?
    @Relationship var slot: ItemRack?
}

/// A to-one's inverse to-many changes its members in place (`changeMembers`): setting,
/// replacing and clearing to-ones across many objects, and deleting members, must leave both
/// sides, the order of an ordered to-many, the committed values and the saved rows as before.
@Suite struct InverseMembersTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Rack", managedObjectClass: ItemRack.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "rack", isToMany: true),
                    RelationshipDescription(
                        name: "line", destination: "Item", inverse: "slot", isToMany: true,
                        isOrdered: true),
                ]),
            EntityDescription(
                name: "Item", managedObjectClass: RackItem.self,
                properties: [
                    AttributeDescription(name: "number", type: .integer64, defaultValue: 0),
                    RelationshipDescription(name: "rack", destination: "Rack", inverse: "items"),
                    RelationshipDescription(name: "slot", destination: "Rack", inverse: "line"),
                ]),
        ])
    }

    private static func numbers(_ items: some Sequence<RackItem>) -> [Int64] {
        items.map(\.number)
    }

    /// Racks `a` and `b` in `context`, and `count` items numbered from 0 placed in `a` on both
    /// relationships (in number order on the ordered one).
    private static func racks(_ context: ManagedObjectContext, items count: Int) -> (
        a: ItemRack, b: ItemRack, items: [RackItem]
    ) {
        let a = ItemRack(context: context)
        a.name = "a"
        let b = ItemRack(context: context)
        b.name = "b"
        let items = (0..<count).map { n in
            let item = RackItem(context: context)
            item.number = Int64(n)
            item.rack = a
            item.slot = a
            return item
        }
        return (a, b, items)
    }

    /// A stack on `kind` holding the racks and `count` items of ``racks(_:items:)``, saved.
    private static func savedRacks(_ kind: StoreKind, items count: Int) throws -> Stack {
        let stack = try Stack(try model(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            _ = racks(context, items: count)
            try context.save()
        }
        return stack
    }

    private static func fetchRacks(_ context: ManagedObjectContext) throws -> [String: ItemRack] {
        let racks = try context.fetch(FetchRequest<ItemRack>(entityName: "Rack"))
        return Dictionary(uniqueKeysWithValues: racks.map { ($0.name ?? "", $0) })
    }

    @Test(arguments: StoreKind.all)
    func settingReplacingAndClearingToOnesKeepsBothSidesInStep(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            let (a, b, items) = Self.racks(context, items: 60)
            #expect(a.items.count == 60)
            #expect(Self.numbers(a.line) == Array(0..<60))
            // Even numbers move to b, every third is cleared, the rest stay: through the
            // wrapper, key-value coding and the other side's mutable view.
            for item in items where item.number % 2 == 0 {
                item.rack = b
                item.setValue(b, forKey: "slot")
            }
            for item in items where item.number % 3 == 0 {
                item.rack = nil
                item.slot = nil
            }
            a.mutableOrderedSetValue(forKey: "line").remove(items[1])
            let expectB = (0..<60).filter { $0 % 2 == 0 && $0 % 3 != 0 }.map(Int64.init)
            let expectA = (0..<60).filter { $0 % 2 != 0 && $0 % 3 != 0 }.map(Int64.init)
            #expect(Set(Self.numbers(b.items)) == Set(expectB))
            #expect(Set(Self.numbers(a.items)) == Set(expectA))
            #expect(Self.numbers(b.line) == expectB)
            #expect(Self.numbers(a.line) == expectA.filter { $0 != 1 })
            #expect(items[1].slot == nil && items[1].rack === a)
            for item in items {
                let expected: ItemRack? =
                    item.number % 3 == 0 ? nil : (item.number % 2 == 0 ? b : a)
                #expect(item.rack === expected)
            }
            // Moving one back appends it at the end of the ordered side.
            items[2].slot = a
            #expect(Self.numbers(a.line).last == 2)
            #expect(!Self.numbers(b.line).contains(2))
            try context.save()
        }
        let fresh = try stack.reopen().context()
        try fresh.performAndWait {
            let racks = try Self.fetchRacks(fresh)
            let a = try #require(racks["a"])
            let b = try #require(racks["b"])
            let expectB = (0..<60).filter { $0 % 2 == 0 && $0 % 3 != 0 && $0 != 2 }.map(Int64.init)
            let expectA = (0..<60).filter { $0 % 2 != 0 && $0 % 3 != 0 }.map(Int64.init)
            #expect(Set(Self.numbers(a.items)) == Set(expectA))
            #expect(Set(Self.numbers(b.items)) == Set(expectB + [2]))
            #expect(Self.numbers(a.line) == expectA.filter { $0 != 1 } + [2])
            #expect(Self.numbers(b.line) == expectB)
        }
    }

    /// Setting the to-one of 1,000 new items grows their rack's member index many times (from
    /// empty, doubling): both inverses hold every item, the ordered one in the order they were
    /// set, before and after the save, and after moving every other saved item to another
    /// rack and back (each move appends it at the end of the ordered side).
    @Test(arguments: StoreKind.all)
    func aToManyKeepsItsMembersInOrderThroughItsIndexsGrowth(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        let count = 1_000
        try context.performAndWait {
            let (a, b, items) = Self.racks(context, items: count)
            #expect(a.items.count == count)
            #expect(Self.numbers(a.line) == Array(0..<Int64(count)))
            #expect(items.allSatisfy { $0.rack === a && $0.slot === a })
            try context.save()
            let moved = items.filter { $0.number % 2 == 1 }
            for item in moved {
                item.slot = b
                item.rack = b
            }
            #expect(Self.numbers(b.line) == moved.map(\.number))
            #expect(a.items.count == count / 2)
            for item in moved {
                item.slot = a
                item.rack = a
            }
            #expect(b.line.isEmpty && b.items.isEmpty)
            #expect(a.items.count == count)
            let even = (0..<Int64(count)).filter { $0 % 2 == 0 }
            #expect(Self.numbers(a.line) == even + moved.map(\.number))
            try context.save()
        }
        let fresh = try stack.reopen().context()
        try fresh.performAndWait {
            let a = try #require(try Self.fetchRacks(fresh)["a"])
            let even = (0..<Int64(count)).filter { $0 % 2 == 0 }
            let odd = (0..<Int64(count)).filter { $0 % 2 == 1 }
            #expect(Set(Self.numbers(a.items)) == Set(0..<Int64(count)))
            #expect(Self.numbers(a.line) == even + odd)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSavedToManyChangedInPlaceReportsItsChangesAndRollsBack(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            let (a, b, _) = Self.racks(context, items: 5)
            try context.save()
            let items = a.line
            items[1].slot = b
            items[3].rack = b
            items[4].slot = nil
            #expect(Self.numbers(a.line) == [0, 2, 3])
            #expect(Self.numbers(b.line) == [1])
            let changedA = a.changedValues()
            #expect((changedA["line"] as? [ManagedObject])?.count == 3)
            #expect((changedA["items"] as? Set<ManagedObject>)?.count == 4)
            #expect((b.changedValues()["items"] as? Set<ManagedObject>)?.count == 1)
            context.rollback()
            #expect(Self.numbers(a.line) == [0, 1, 2, 3, 4])
            #expect(Set(Self.numbers(a.items)) == [0, 1, 2, 3, 4])
            #expect(b.line.isEmpty && b.items.isEmpty)
            #expect(!a.hasChanges && !b.hasChanges)
        }
    }

    @Test(arguments: StoreKind.all)
    func deletingMembersTakesThemOutOfLoadedToManysInOrder(_ kind: StoreKind) throws {
        let stack = try Self.savedRacks(kind, items: 40)
        let other = stack.context()
        try other.performAndWait {
            let a = try #require(try Self.fetchRacks(other)["a"])
            let line = a.line  // loaded: the deletions take members out of both to-manys
            #expect(a.items.count == 40)
            for item in line where item.number % 4 != 1 { other.delete(item) }
            other.processPendingChanges()
            #expect(Self.numbers(a.line) == Array(stride(from: 1, to: 40, by: 4)))
            #expect(Set(Self.numbers(a.items)) == Set(stride(from: 1, to: 40, by: 4)))
            try other.save()
        }
        let fresh = try stack.reopen().context()
        try fresh.performAndWait {
            let a = try #require(try Self.fetchRacks(fresh)["a"])
            #expect(Self.numbers(a.line) == Array(stride(from: 1, to: 40, by: 4)))
            #expect(a.items.count == 10)
        }
    }

    /// Deleting a member takes it out of a loaded to-many in one batch (`unlink(_:_:)` with
    /// the deleted objects); the to-many's committed members must be kept first, as a single
    /// unlink keeps them: a merge by property with the store trumping compares them with the
    /// store's row to tell whether the store changed the relationship. Without them the
    /// committed members already lacked the deleted one, the store's row looked changed, and
    /// the store's members (the deleted one among them) replaced this context's.
    @Test(arguments: StoreKind.all)
    func aDeletedMembersToManyKeepsItsCommittedMembersForAStoreTrumpMerge(_ kind: StoreKind)
        throws
    {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context(.mergeByPropertyStoreTrump)
        let (a, items) = try context.performAndWait {
            let (a, _, items) = Self.racks(context, items: 5)
            try context.save()
            return (a, items)
        }
        let other = stack.context()
        try other.performAndWait {
            let a = try #require(try Self.fetchRacks(other)["a"])
            a.name = "renamed"
            try other.save()
        }
        try context.performAndWait {
            #expect(Self.numbers(a.line) == [0, 1, 2, 3, 4])  // loaded
            context.delete(items[3])
            context.processPendingChanges()
            #expect(Self.numbers(a.line) == [0, 1, 2, 4])
            try context.save()
            #expect(a.name == "renamed", "the store's name, which only the store changed")
            #expect(Self.numbers(a.line) == [0, 1, 2, 4], "this context's members")
        }
        let fresh = try stack.reopen().context()
        try fresh.performAndWait {
            let a = try #require(try Self.fetchRacks(fresh)["renamed"])
            #expect(Self.numbers(a.line) == [0, 1, 2, 4])
            #expect(Set(Self.numbers(a.items)) == [0, 1, 2, 4])
        }
    }

    /// Setting a to-one whose destination's inverse to-many is still a relationship fault (a
    /// rack fetched in another context, its members never read) loads the members first, so
    /// the new item joins the saved ones, in order on the ordered side; removing one from a
    /// faulted to-many the same way leaves the others. `prepare` tests the slot for a fault in
    /// place before it links or unlinks.
    @Test(arguments: StoreKind.all)
    func linkingIntoAToManyThatIsAFaultLoadsItsMembersFirst(_ kind: StoreKind) throws {
        let stack = try Self.savedRacks(kind, items: 5)
        let other = stack.context()
        try other.performAndWait {
            let racks = try Self.fetchRacks(other)
            let (a, b) = (try #require(racks["a"]), try #require(racks["b"]))
            let item = RackItem(context: other)
            item.number = 5
            item.rack = a
            item.slot = a
            #expect(Self.numbers(a.items).sorted() == Array(0..<6))
            #expect(Self.numbers(a.line) == Array(0..<6))
            // `b`'s to-manys are faults: the first member moved there joins them loaded.
            let first = try #require(a.line.first)
            first.rack = b
            first.slot = b
            #expect(Self.numbers(b.line) == [0])
            #expect(Self.numbers(a.line) == Array(1..<6))
            try other.save()
        }
        // An item fetched alone moves from `a`, whose to-manys are still faults here: unlinking
        // loads them first, and the other four stay.
        let third = stack.context()
        try third.performAndWait {
            let racks = try Self.fetchRacks(third)
            let (a, b) = (try #require(racks["a"]), try #require(racks["b"]))
            let request = FetchRequest<RackItem>(entityName: "Item")
            request.predicate = try FetchPredicate(format: "number == 3")
            let item = try #require(try third.fetch(request).first)
            item.rack = b
            item.slot = b
            #expect(Self.numbers(a.line) == [1, 2, 4, 5])
            #expect(Self.numbers(a.items).sorted() == [1, 2, 4, 5])
            #expect(Self.numbers(b.line) == [0, 3])
            try third.save()
        }
        let fresh = try stack.reopen().context()
        try fresh.performAndWait {
            let racks = try Self.fetchRacks(fresh)
            #expect(Self.numbers(try #require(racks["a"]).line) == [1, 2, 4, 5])
            #expect(Self.numbers(try #require(racks["a"]).items).sorted() == [1, 2, 4, 5])
            #expect(Self.numbers(try #require(racks["b"]).items).sorted() == [0, 3])
            #expect(Self.numbers(try #require(racks["b"]).line) == [0, 3])
        }
    }

    /// A context keeps the entity its model gives a class for the next object of that class;
    /// given another parent, with another model, it asks that model.
    @Test func aClassIsLookedUpInTheModelOfTheContextsCurrentParent() throws {
        let first = try Self.model()
        let second = try Self.model()
        let parents = try [first, second].map { model in
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(with: PersistentStoreDescription())
            return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        }
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parents[0]
        child.performAndWait {
            let rack = ItemRack(context: child)
            #expect(rack.entity === first.entitiesByName["Rack"])
            #expect(RackItem(context: child).entity === first.entitiesByName["Item"])
            #expect(ItemRack(context: child).entity === first.entitiesByName["Rack"])
            child.reset()
        }
        child.parent = parents[1]
        child.performAndWait {
            #expect(ItemRack(context: child).entity === second.entitiesByName["Rack"])
            #expect(RackItem(context: child).entity === second.entitiesByName["Item"])
        }
    }
}
