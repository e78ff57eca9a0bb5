import Foundation
import Testing

@testable import ObjectGraph

/// An insert saved to a store has its slot values moved into the row the store takes (and its
/// destinations beside it), not copied: every kind of value reads back as it was set, a failed
/// commit gives each object exactly the slots it had, and slots another holder shares keep
/// their values.
@Suite struct SavedInsertMoveTests {
    /// `Item` with a value of every kind (`note` and `spare` left nil), `owner` a to-one whose
    /// inverse is derived, `tags` an unordered to-many kept in the row (its inverse is
    /// to-many, with no delete rule's action), `steps` an ordered one; `Special`, a subentity of `Item`; `Bare`, an entity
    /// without properties.
    private static func model() throws -> ManagedObjectModel {
        typealias A = AttributeDescription
        typealias R = RelationshipDescription
        return try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item",
                properties: [
                    A(name: "name", type: .string),
                    A(name: "note", type: .string),
                    A(name: "code", type: .uuid),
                    A(name: "when", type: .date),
                    A(name: "exact", type: .decimal),
                    A(name: "blob", type: .binaryData),
                    A(name: "extra", type: .transformable),
                    A(name: "count", type: .integer64, isOptional: false, defaultValue: 0),
                    R(name: "owner", destination: "Owner", inverse: "items"),
                    R(name: "spare", destination: "Owner", inverse: "spares"),
                    R(name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                    R(
                        name: "steps", destination: "Step", inverse: "stepOf", isToMany: true,
                        isOrdered: true),
                ]),
            EntityDescription(
                name: "Special", superentityName: "Item",
                properties: [A(name: "era", type: .string)]),
            EntityDescription(
                name: "Owner",
                properties: [
                    A(name: "name", type: .string),
                    R(name: "items", destination: "Item", inverse: "owner", isToMany: true),
                    R(name: "spares", destination: "Item", inverse: "spare", isToMany: true),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [
                    A(name: "name", type: .string),
                    // No action: a deleted tag stays in its items' `tags` until the save.
                    R(
                        name: "items", destination: "Item", inverse: "tags", isToMany: true,
                        deleteRule: .noAction),
                ]),
            EntityDescription(
                name: "Step",
                properties: [
                    A(name: "name", type: .string),
                    R(name: "stepOf", destination: "Item", inverse: "steps"),
                ]),
            EntityDescription(name: "Bare"),
        ])
    }

    private static let code = UUID(uuidString: "0C1D2E3F-4A5B-4C6D-8E7F-901A2B3C4D5E")!
    private static let when = Date(timeIntervalSince1970: 1_234_567)
    private static let exact = Decimal(string: "12.345")!
    private static let blob = Data([0, 1, 2, 254, 255])
    private static let extra = Data("{\"k\":[1,2]}".utf8)
    /// Longer than a small string, so that its storage is a heap object the row must hold.
    private static let longName = "an item whose name is longer than fifteen bytes"

    /// The objects one test saves: an item with every value kind, a special item, their
    /// owner, two tags, two steps (inserted in reverse of their order) and a bare object.
    private struct Graph {
        let item: ManagedObject
        let special: ManagedObject
        let owner: ManagedObject
        let tags: [ManagedObject]
        let steps: [ManagedObject]
        let bare: ManagedObject

        var all: [ManagedObject] { [item, special, owner] + tags + steps + [bare] }

        init(in context: ManagedObjectContext) {
            owner = context.insertNewObject(forEntityName: "Owner")
            owner.setValue("owner", forKey: "name")
            tags = ["red", "blue"].map { name in
                let tag = context.insertNewObject(forEntityName: "Tag")
                tag.setValue(name, forKey: "name")
                return tag
            }
            steps = ["first", "second"].map { name in
                let step = context.insertNewObject(forEntityName: "Step")
                step.setValue(name, forKey: "name")
                return step
            }
            item = context.insertNewObject(forEntityName: "Item")
            item.setValue(SavedInsertMoveTests.longName, forKey: "name")
            item.setValue(SavedInsertMoveTests.code, forKey: "code")
            item.setValue(SavedInsertMoveTests.when, forKey: "when")
            item.setValue(SavedInsertMoveTests.exact, forKey: "exact")
            item.setValue(SavedInsertMoveTests.blob, forKey: "blob")
            item.setValue(AttributeValue.transformable(SavedInsertMoveTests.extra), forKey: "extra")
            item.setValue(Int64(7), forKey: "count")
            item.setValue(owner, forKey: "owner")
            item.setValue(Set(tags), forKey: "tags")
            let ordered = item.mutableOrderedSetValue(forKey: "steps")
            for step in steps.reversed() { ordered.add(step) }
            special = context.insertNewObject(forEntityName: "Special")
            special.setValue("special", forKey: "name")
            special.setValue("jurassic", forKey: "era")
            special.setValue(owner, forKey: "spare")
            bare = context.insertNewObject(forEntityName: "Bare")
        }
    }

    /// Whether `object` keeps the store's own array of values (the same buffer).
    static func sharesStoreRow(_ object: ManagedObject, _ store: any PersistentStore)
        throws -> Bool
    {
        guard let kept = object.rowValues else { return false }
        let stored = try #require(try store.row(for: object.objectID)).values
        let a = kept.withUnsafeBufferPointer { $0.baseAddress }
        let b = stored.withUnsafeBufferPointer { $0.baseAddress }
        return a == b
    }

    /// Each object's slots, copied into arrays of their own (the same values; the objects'
    /// own arrays stay unshared, so that the save moves out of them).
    private static func copies(_ objects: [ManagedObject]) -> [[ObjectValue]] {
        objects.map { $0.slots.map { $0 } }
    }

    /// Expects `graph`'s values to read as `Graph.init` set them.
    private static func expectValues(_ graph: Graph) {
        let item = graph.item
        #expect(item.value(forKey: "name") as? String == longName)
        #expect(item.value(forKey: "note") == nil)
        #expect(item.value(forKey: "code") as? UUID == code)
        #expect(item.value(forKey: "when") as? Date == when)
        #expect(item.value(forKey: "exact") as? Decimal == exact)
        #expect(item.value(forKey: "blob") as? Data == blob)
        let extra = item.entity.propertiesByName["extra"]!.index
        #expect(item.slots[extra].isSame(as: .attribute(.transformable(Self.extra))))
        #expect(item.value(forKey: "count") as? Int64 == 7)
        #expect(item.value(forKey: "owner") as? ManagedObject === graph.owner)
        #expect(item.value(forKey: "spare") == nil)
        let tags = (item.value(forKey: "tags") as? Set<ManagedObject>) ?? []
        #expect(tags == Set(graph.tags))
        let steps = (item.value(forKey: "steps") as? [ManagedObject]) ?? []
        let order = graph.steps.reversed().map(ObjectIdentifier.init)
        #expect(steps.map(ObjectIdentifier.init) == order)
        #expect(graph.special.value(forKey: "era") as? String == "jurassic")
        #expect(graph.special.value(forKey: "spare") as? ManagedObject === graph.owner)
        #expect(graph.steps[0].value(forKey: "stepOf") as? ManagedObject === item)
        #expect((graph.tags[1].value(forKey: "items") as? Set<ManagedObject>) == [item])
        #expect(!graph.bare.isFault)
    }

    @Test(arguments: StoreKind.all)
    func everyValueKindMovesIntoTheRowAndReadsAsItWasSet(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let graph = Graph(in: context)
            let before = Self.copies(graph.all)
            try context.save()
            // Everything but the owner (its loaded derived to-manys are not in its row) and
            // the bare object (no values) keeps the store's row.
            for object in graph.all where object !== graph.owner && object !== graph.bare {
                #expect(try Self.sharesStoreRow(object, stack.store), "\(object.entity.name)")
            }
            #expect(graph.owner.rowValues == nil && !graph.bare.hasChanges)
            let item = try #require(try stack.store.row(for: graph.item.objectID))
            #expect(item["name"] == .attribute(.string(Self.longName)))
            #expect(item["note"] == .attribute(.null))
            #expect(item["spare"] == .toOne(nil))
            #expect(item["owner"] == .toOne(graph.owner.objectID))
            #expect(item["steps"] == .toMany(graph.steps.reversed().map(\.objectID)))
            #expect(item["extra"] == .attribute(.transformable(Self.extra)))
            // Each object's whole stored row is what `storeValues` makes of the slots it had
            // before the save (references named by the IDs the save gave).
            for (object, slots) in zip(graph.all, before) {
                let row = try #require(try stack.store.row(for: object.objectID))
                let expected = context.storeValues(slots, object.entity) { $0.objectID }
                #expect(row.values == expected, "\(object.entity.name)")
            }
            Self.expectValues(graph)
            // Converted back, the slots are those the save took.
            for (object, slots) in zip(graph.all, before) {
                #expect(object.slots.count == slots.count)
                #expect(zip(object.slots, slots).allSatisfy { $0.isSame(as: $1) })
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func aFailedCommitGivesEveryValueKindBackToItsSlots(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind, failing: true)
        let failing = try #require(stack.store as? FailingStore)
        let context = stack.context()
        try context.performAndWait { () throws in
            let graph = Graph(in: context)
            let objects = graph.all
            let ids = objects.map(\.objectID)
            let changed = objects.map(\.changedSlots)
            let before = Self.copies(objects)
            failing.failing = true
            #expect(throws: ObjectGraphError.self) { try context.save() }
            for (i, object) in objects.enumerated() {
                #expect(object.rowValues == nil || object === graph.bare)
                #expect(!object.state.keepsResolvedRelationships && object.faultSource == nil)
                #expect(object.objectID == ids[i] && object.isInserted)
                #expect(object.changedSlots == changed[i])
                #expect(object.slots.count == before[i].count)
                #expect(zip(object.slots, before[i]).allSatisfy { $0.isSame(as: $1) })
            }
            Self.expectValues(graph)
            failing.failing = false
            try context.save()
            #expect(try Self.sharesStoreRow(graph.item, stack.store))
            Self.expectValues(graph)
            let reopened = try stack.reopen()
            let item = try #require(try reopened.store.row(for: graph.item.objectID))
            #expect(item["exact"] == .attribute(.decimal(Self.exact)))
            guard case .toMany(let tags)? = item["tags"] else {
                Issue.record("the item's row keeps no tags")
                return
            }
            #expect(Set(tags) == Set(graph.tags.map(\.objectID)))
        }
    }

    /// Slots another holder shares (an undo state, a copy) are copied before the values move
    /// out, so the holder's values stay as they were.
    @Test(arguments: StoreKind.all)
    func slotsSharedWithAnotherHolderKeepTheirValues(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let graph = Graph(in: context)
            let held = graph.all.map(\.slots)
            let before = Self.copies(graph.all)
            try context.save()
            #expect(try Self.sharesStoreRow(graph.item, stack.store))
            for (slots, expected) in zip(held, before) {
                #expect(slots.count == expected.count)
                #expect(zip(slots, expected).allSatisfy { $0.isSame(as: $1) })
            }
            Self.expectValues(graph)
        }
    }

    /// An object whose relationships hold nothing (attributes and a nil to-one) moves its
    /// values into its row and keeps no destinations beside it; a failed commit first gives
    /// it back exactly its slots.
    @Test(arguments: StoreKind.all)
    func anObjectWhoseRelationshipsHoldNothingKeepsItsRowAndNoDestinations(_ kind: StoreKind)
        throws
    {
        let stack = try Stack(try Self.model(), on: kind, failing: true)
        let failing = try #require(stack.store as? FailingStore)
        let context = stack.context()
        try context.performAndWait { () throws in
            let step = context.insertNewObject(forEntityName: "Step")
            step.setValue(Self.longName, forKey: "name")
            let before = Self.copies([step])[0]
            failing.failing = true
            #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(step.rowValues == nil && step.isInserted)
            #expect(!step.state.keepsResolvedRelationships && step.faultSource == nil)
            #expect(step.slots.count == before.count)
            #expect(zip(step.slots, before).allSatisfy { $0.isSame(as: $1) })
            failing.failing = false
            try context.save()
            #expect(try Self.sharesStoreRow(step, stack.store))
            #expect(!step.state.keepsResolvedRelationships && step.faultSource == nil)
            let row = try #require(try stack.store.row(for: step.objectID))
            #expect(row["name"] == .attribute(.string(Self.longName)))
            #expect(row["stepOf"] == .toOne(nil))
            #expect(step.value(forKey: "name") as? String == Self.longName)
            #expect(step.value(forKey: "stepOf") == nil)
            #expect(zip(step.slots, before).allSatisfy { $0.isSame(as: $1) })
        }
    }

    /// An insert whose stored to-many still holds a member deleted before the save (a delete
    /// rule that leaves it there) keeps its slots: its row leaves the member out, so the row
    /// could not give the slots back.
    @Test(arguments: StoreKind.all)
    func anInsertHoldingADeletedMemberKeepsItsSlotsAndItsRowLeavesTheMemberOut(
        _ kind: StoreKind
    ) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let tags = ["kept", "gone"].map { name in
                let tag = context.insertNewObject(forEntityName: "Tag")
                tag.setValue(name, forKey: "name")
                return tag
            }
            let (kept, gone) = (tags[0], tags[1])
            try context.save()
            let item = context.insertNewObject(forEntityName: "Item")
            item.setValue("item", forKey: "name")
            item.setValue(Set([kept, gone]), forKey: "tags")
            context.delete(gone)
            let slot = item.entity.propertiesByName["tags"]!.index
            guard case .toMany(let members?) = item.slots[slot] else {
                Issue.record("the item's tags are not loaded")
                return
            }
            #expect(members.count == 2 && members.liveCount == 1)
            let before = Self.copies([item])[0]
            try context.save()
            #expect(item.rowValues == nil && !item.state.keepsResolvedRelationships)
            #expect(item.slots.count == before.count)
            #expect(zip(item.slots, before).allSatisfy { $0.isSame(as: $1) })
            let row = try #require(try stack.store.row(for: item.objectID))
            #expect(row["tags"] == .toMany([kept.objectID]))
            #expect(row["name"] == .attribute(.string("item")))
            #expect(try stack.store.row(for: gone.objectID) == nil)
        }
    }
}
