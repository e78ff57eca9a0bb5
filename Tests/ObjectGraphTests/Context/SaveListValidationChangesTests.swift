import Foundation
import Testing

@testable import ObjectGraph

/// A save of one kind shares its list with the context's pending list (`SaveChanges`) and with
/// the lists its objects-did-change announced (`AnnouncedSets.share(_:)`). User code that
/// changes the context while they are shared (validation inserting, changing and deleting
/// objects) must change neither what the save writes nor what its notifications name: the
/// save is of the objects pending when it started. A save that fails validation keeps every
/// pending change. Each behaviour on both stores.
///
/// Seen failing, each on both stores: with the save's lists made again from the pending list
/// after `validate` (what a shared list changed in place by validation would give), the
/// insert, update and pinned tests; with the pending list moved into the save
/// (`pending = PendingObjects()` after `SaveChanges`) instead of shared, the failed-validation
/// test (and the update test).
@Suite struct SaveListValidationChangesTests {
    /// An object that runs `meddle` once, the first time it is validated for a save.
    final class Meddler: ManagedObject {
        @Attribute var n: Int64
        /// What to do to the context while this object is validated; cleared when run.
        var meddle: ((ManagedObjectContext) -> Void)?

        override func validateForInsert() throws {
            run()
            try super.validateForInsert()
        }

        override func validateForUpdate() throws {
            run()
            try super.validateForUpdate()
        }

        private func run() {
            guard let meddle, let context = managedObjectContext else { return }
            self.meddle = nil
            meddle(context)
        }
    }

    /// The model: `Item(name, n ≥ 0)`, made as ``Meddler``.
    static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Item", managedObjectClass: Meddler.self,
            properties: [
                AttributeDescription(name: "name", type: .string),
                AttributeDescription(name: "n", type: .integer64, minValue: .integer(0)),
            ])
    ])

    /// A new item named `name` with `n`.
    @discardableResult
    private static func item(_ name: String, _ n: Int64, in context: ManagedObjectContext)
        -> Meddler
    {
        let item = Meddler(context: context)
        item.setValue(name, forKey: "name")
        item.n = n
        return item
    }

    /// Saves the items `u` (n 1) and `d` (n 4), the ones validation changes and deletes.
    private static func seed(_ context: ManagedObjectContext) throws -> (u: Meddler, d: Meddler) {
        let (u, d) = (item("u", 1, in: context), item("d", 4, in: context))
        try context.save()
        return (u, d)
    }

    /// Has `object`, while it is validated, insert `new` (n 5), change `u` to 99 and delete
    /// `d`; returns a reader of what it inserted.
    private static func meddle(
        _ object: Meddler, changing u: Meddler, deleting d: Meddler
    ) -> () -> Meddler? {
        final class Box { var new: Meddler? }
        let box = Box()
        object.meddle = { context in
            box.new = item("new", 5, in: context)
            u.n = 99
            context.delete(d)
        }
        return { box.new }
    }

    @Test(arguments: StoreKind.all)
    func aSaveOfInsertsSavesAndAnnouncesOnlyWhatWasPendingWhenValidationChangesTheContext(
        _ kind: StoreKind
    ) throws {
        let stack = try Stack(Self.model, on: kind)
        let context = stack.context()
        try context.performAndWait {
            let (u, d) = try Self.seed(context)
            let (a, b, c) = (
                Self.item("a", 1, in: context), Self.item("b", 2, in: context),
                Self.item("c", 3, in: context)
            )
            let new = Self.meddle(a, changing: u, deleting: d)
            let result = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(new() != nil)
            #expect(Self.objects(result.saved, NSInsertedObjectsKey) == [a, b, c])
            #expect(Self.objects(result.saved, NSUpdatedObjectsKey).isEmpty)
            #expect(Self.objects(result.saved, NSDeletedObjectsKey).isEmpty)
            #expect(
                result.saved[NSInsertedObjectIDsKey] as? Set<ManagedObjectID>
                    == [a.objectID, b.objectID, c.objectID])
            let announced = result.changed.first
            #expect(Self.objects(announced, NSInsertedObjectsKey) == [a, b, c])
            #expect(Self.objects(announced, NSUpdatedObjectsKey).isEmpty)
            #expect(Self.objects(announced, NSDeletedObjectsKey).isEmpty)
            #expect(try Self.stored(stack) == ["a 1", "b 2", "c 3", "d 4", "u 1"])
        }
    }

    @Test(arguments: StoreKind.all)
    func aSaveOfUpdatesSavesAndAnnouncesOnlyWhatWasPendingWhenValidationChangesTheContext(
        _ kind: StoreKind
    ) throws {
        let stack = try Stack(Self.model, on: kind)
        let context = stack.context()
        try context.performAndWait {
            let (u, d) = try Self.seed(context)
            let (a, b, c) = (
                Self.item("a", 1, in: context), Self.item("b", 2, in: context),
                Self.item("c", 3, in: context)
            )
            try context.save()
            for item in [a, b, c] { item.n += 10 }
            let new = Self.meddle(a, changing: u, deleting: d)
            let result = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(new() != nil)
            #expect(Self.objects(result.saved, NSUpdatedObjectsKey) == [a, b, c])
            #expect(Self.objects(result.saved, NSInsertedObjectsKey).isEmpty)
            #expect(Self.objects(result.saved, NSDeletedObjectsKey).isEmpty)
            #expect(
                result.saved[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID>
                    == [a.objectID, b.objectID, c.objectID])
            let announced = result.changed.first
            #expect(Self.objects(announced, NSUpdatedObjectsKey) == [a, b, c])
            #expect(Self.objects(announced, NSInsertedObjectsKey).isEmpty)
            #expect(Self.objects(announced, NSDeletedObjectsKey).isEmpty)
            #expect(try Self.stored(stack) == ["a 11", "b 12", "c 13", "d 4", "u 1"])
        }
    }

    /// Today's behaviour, pinned (the same before the lists were shared): the save's lists
    /// are made before validation and `finishSave`'s `pending.removeAll()` clears every
    /// pending flag, so what validation inserted, changed or deleted stays so on its objects
    /// (the insert keeps its temporary ID) but leaves the context's pending changes: the
    /// context reports no changes and the next save writes none of it.
    ///
    /// Core Data documents validation as a check of an object's current state
    /// (`validateForInsert()`: "Determines whether the managed object can be inserted in its
    /// current state"; `validateForUpdate()`: "Determines whether the managed object's current
    /// state is valid", developer.apple.com/documentation/coredata/nsmanagedobject) and names
    /// `willSave()` as the place for changes made at save time; we found no documented
    /// behaviour for changes made during validation, and nothing that says they are dropped.
    @Test(arguments: StoreKind.all)
    func whatValidationInsertsChangesAndDeletesLeavesThePendingChangesAndIsNeverSaved(
        _ kind: StoreKind
    ) throws {
        let stack = try Stack(Self.model, on: kind)
        let context = stack.context()
        try context.performAndWait {
            let (u, d) = try Self.seed(context)
            let a = Self.item("a", 1, in: context)
            let inserted = Self.meddle(a, changing: u, deleting: d)
            try context.save()
            let new = try #require(inserted())
            #expect(new.isInserted && new.hasChanges && new.objectID.isTemporaryID)
            #expect(u.isUpdated && u.hasChanges && u.n == 99)
            #expect(d.isDeleted && d.hasChanges)
            #expect(!context.hasChanges)
            #expect(context.insertedObjects.isEmpty)
            #expect(context.updatedObjects.isEmpty && context.deletedObjects.isEmpty)
            let again = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(again.saved.isEmpty)
            #expect(new.objectID.isTemporaryID)
            #expect(try Self.stored(stack) == ["a 1", "d 4", "u 1"])
        }
    }

    @Test(arguments: StoreKind.all)
    func aSaveOfOneKindThatFailsValidationKeepsEveryChangeAndTheNextSaveSavesThemAll(
        _ kind: StoreKind
    ) throws {
        let stack = try Stack(Self.model, on: kind)
        let context = stack.context()
        try context.performAndWait {
            let (a, b, c) = (
                Self.item("a", 1, in: context), Self.item("b", -1, in: context),
                Self.item("c", 3, in: context)
            )
            let inserting = expectNSError { try context.save() }
            #expect(inserting?.code == NSValidationNumberTooSmallError)
            #expect(inserting?.userInfo[NSValidationKeyErrorKey] as? String == "n")
            #expect(inserting?.userInfo[NSValidationObjectErrorKey] as? ManagedObject === b)
            #expect(context.hasChanges)
            #expect(context.insertedObjects == [a, b, c] && context.updatedObjects.isEmpty)
            b.n = 2
            let inserted = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(Self.objects(inserted.saved, NSInsertedObjectsKey) == [a, b, c])
            #expect(!context.hasChanges)
            for item in [a, b, c] { item.n += 10 }
            c.n = -5
            let updating = expectNSError { try context.save() }
            #expect(updating?.code == NSValidationNumberTooSmallError)
            #expect(updating?.userInfo[NSValidationObjectErrorKey] as? ManagedObject === c)
            #expect(context.hasChanges)
            #expect(context.updatedObjects == [a, b, c] && context.insertedObjects.isEmpty)
            c.n = 13
            let updated = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(Self.objects(updated.saved, NSUpdatedObjectsKey) == [a, b, c])
            #expect(!context.hasChanges)
            #expect(try Self.stored(stack) == ["a 11", "b 12", "c 13"])
        }
    }

    /// Every stored item, "name n", in name order, read through a new context.
    private static func stored(_ stack: Stack) throws -> [String] {
        let context = stack.context()
        return try context.performAndWait {
            let r = FetchRequest<ManagedObject>(entityName: "Item")
            r.sortDescriptors = [FetchSortDescriptor(key: "name")]
            return try context.fetch(r).map {
                "\($0.value(forKey: "name") as? String ?? "?") \($0.value(forKey: "n")!)"
            }
        }
    }

    /// The objects a notification's `userInfo` names under `key` (empty when absent).
    private static func objects(_ info: [AnyHashable: Any]?, _ key: String) -> Set<ManagedObject> {
        info?[key] as? Set<ManagedObject> ?? []
    }
}
