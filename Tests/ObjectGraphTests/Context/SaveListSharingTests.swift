import Foundation
import Testing

@testable import ObjectGraph

/// A save holds one list of its objects while it commits: when every pending object is of one
/// kind, the save's list of that kind is the pending list itself (`SaveChanges`), and the
/// lists its objects-did-change announced become the save's own when they hold the same
/// objects (`AnnouncedSets.share(_:)`). What is saved and announced is as before; each
/// behaviour on both stores.
@Suite struct SaveListSharingTests {
    /// Whether `a` and `b` share their storage.
    private static func sharesStorage(_ a: [ManagedObject], _ b: [ManagedObject]) -> Bool {
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress && a.count == b.count }
        }
    }

    /// The names of `objects`, in order.
    private static func names(_ objects: [ManagedObject]) -> [String] {
        objects.map { $0.value(forKey: "name") as? String ?? "?" }
    }

    /// The employees of `context`, by name.
    private static func employees(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return try context.fetch(r)
    }

    @Test(arguments: StoreKind.all)
    func aSaveOfOneKindTakesThePendingListAsItsOwn(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait {
            for i in 0..<3 { StaffModel.employee("e\(i)", salary: i, in: context) }
            let inserts = SaveChanges(context.pending.objects)
            #expect(Self.sharesStorage(inserts.inserted, context.pending.objects))
            #expect(Self.names(inserts.inserted) == ["e0", "e1", "e2"])
            #expect(inserts.updated.isEmpty && inserts.deleted.isEmpty)
            try context.save()
            for e in try Self.employees(context) { e.setValue(10, forKey: "salary") }
            let updates = SaveChanges(context.pending.objects)
            #expect(Self.sharesStorage(updates.updated, context.pending.objects))
            #expect(Self.names(updates.updated) == ["e0", "e1", "e2"])
            #expect(updates.inserted.isEmpty && updates.deleted.isEmpty)
            try context.save()
            for e in try Self.employees(context).reversed() { context.delete(e) }
            let deletions = SaveChanges(context.pending.objects)
            #expect(Self.sharesStorage(deletions.deleted, context.pending.objects))
            #expect(Self.names(deletions.deleted) == ["e2", "e1", "e0"])
            #expect(deletions.inserted.isEmpty && deletions.updated.isEmpty)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSaveOfMixedKindsSortsEachObjectIntoItsListInFirstChangeOrder(_ kind: StoreKind)
        throws
    {
        let context = try StaffModel.context(kind)
        try context.performAndWait {
            for i in 0..<3 { StaffModel.employee("e\(i)", salary: i, in: context) }
            try context.save()
            let (e0, e1, e2) = try {
                let all = try Self.employees(context)
                return (all[0], all[1], all[2])
            }()
            e2.setValue(20, forKey: "salary")
            let x = StaffModel.employee("x", salary: 1, in: context)
            context.delete(e1)
            let gone = StaffModel.employee("gone", salary: 1, in: context)
            context.delete(gone)
            e0.setValue(10, forKey: "salary")
            let changes = SaveChanges(context.pending.objects)
            #expect(changes.inserted == [x])
            #expect(changes.updated == [e2, e0])
            #expect(changes.deleted == [e1])
            let result = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(result.saved[NSInsertedObjectsKey] as? Set<ManagedObject> == [x])
            #expect(result.saved[NSUpdatedObjectsKey] as? Set<ManagedObject> == [e0, e2])
            #expect(result.saved[NSDeletedObjectsKey] as? Set<ManagedObject> == [e1])
            context.reset()
            let stored = try Self.employees(context).map {
                "\($0.value(forKey: "name")!) \($0.value(forKey: "salary")!)"
            }
            #expect(stored == ["e0 10", "e2 20", "x 1"])
        }
    }

    /// One object inserted and deleted before the save among inserts: it is of no kind, so
    /// the inserts are a list of their own, without it.
    @Test(arguments: StoreKind.all)
    func anObjectInsertedAndDeletedAmongInsertsIsLeftOutOfTheirList(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait {
            let a = StaffModel.employee("a", salary: 1, in: context)
            let b = StaffModel.employee("b", salary: 2, in: context)
            let c = StaffModel.employee("c", salary: 3, in: context)
            context.delete(b)
            let changes = SaveChanges(context.pending.objects)
            #expect(changes.inserted == [a, c])
            #expect(changes.updated.isEmpty && changes.deleted.isEmpty)
            let result = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(result.saved[NSInsertedObjectsKey] as? Set<ManagedObject> == [a, c])
            context.reset()
            #expect(Self.names(try Self.employees(context)) == ["a", "c"])
        }
    }

    /// A save of one kind announces and saves every object: objects-did-change and did-save
    /// name the same objects, for inserts, updates and deletions.
    @Test(arguments: StoreKind.all)
    func theNotificationsOfASaveOfOneKindNameEveryObject(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait {
            let all = (0..<3).map { StaffModel.employee("e\($0)", salary: $0, in: context) }
            let ids = { Set(all.map(\.objectID)) }
            let inserted = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(inserted.changed.count == 1)
            #expect(
                inserted.changed.first?[NSInsertedObjectsKey] as? Set<ManagedObject> == Set(all))
            #expect(inserted.saved[NSInsertedObjectsKey] as? Set<ManagedObject> == Set(all))
            #expect(inserted.saved[NSInsertedObjectIDsKey] as? Set<ManagedObjectID> == ids())
            for e in all { e.setValue(7, forKey: "salary") }
            let updated = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(
                updated.changed.first?[NSUpdatedObjectsKey] as? Set<ManagedObject> == Set(all))
            #expect(updated.saved[NSUpdatedObjectsKey] as? Set<ManagedObject> == Set(all))
            #expect(updated.saved[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID> == ids())
            for e in all { context.delete(e) }
            let deleted = try DidSaveSetsTests.observing(context) { try context.save() }
            #expect(
                deleted.changed.first?[NSDeletedObjectsKey] as? Set<ManagedObject> == Set(all))
            #expect(deleted.saved[NSDeletedObjectsKey] as? Set<ManagedObject> == Set(all))
            #expect(deleted.saved[NSDeletedObjectIDsKey] as? Set<ManagedObjectID> == ids())
            context.reset()
            #expect(try Self.employees(context).isEmpty)
        }
    }

    /// An announced list takes the save's list of its kind only when it holds the same
    /// objects in the same order; its set is kept either way.
    @Test(arguments: StoreKind.all)
    func anAnnouncedListTakesTheSavesListOnlyWhenItHoldsTheSameObjects(_ kind: StoreKind)
        throws
    {
        let context = try StaffModel.context(kind)
        context.performAndWait {
            let (a, b) = (
                StaffModel.employee("a", salary: 1, in: context),
                StaffModel.employee("b", salary: 2, in: context)
            )
            let saved = SaveChanges(inserted: [a, b], updated: [b, a], deleted: [a])
            var sets = AnnouncedSets()
            sets.inserted = (Array([a, b]), [a, b])
            sets.updated = ([a, b], [a, b])
            sets.deleted = nil
            #expect(!Self.sharesStorage(sets.inserted!.objects, saved.inserted))
            sets.share(saved)
            #expect(Self.sharesStorage(sets.inserted!.objects, saved.inserted))
            #expect(sets.inserted!.set == [a, b])
            #expect(!Self.sharesStorage(sets.updated!.objects, saved.updated))
            #expect(sets.updated!.objects == [a, b])
            #expect(sets.deleted == nil)
            #expect(AnnouncedSets.same(sets.inserted!.objects, [a, b]))
            #expect(!AnnouncedSets.same(sets.updated!.objects, saved.updated))
            #expect(!AnnouncedSets.same([a], [a, b]))
            #expect(AnnouncedSets.same([], []))
            context.rollback()
        }
    }
}
