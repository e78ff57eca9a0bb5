import Foundation
import Testing

@testable import ObjectGraph

/// A counter whose `willSave()` may change another object during the save.
private final class Tally: ManagedObject {
    @Attribute var n: Int64
    /// The object `willSave()` bumps, once (set by the test, on the context's queue).
    nonisolated(unsafe) static var bumps: Tally?
    override func willSave() {
        super.willSave()
        if let other = Tally.bumps, other !== self {
            Tally.bumps = nil
            other.n += 1
        }
    }
}

/// A save's did-save reuses the sets its objects-did-change posted when they hold the same
/// objects; when `willSave()` changed more, the did-save sets still name every saved object.
@Suite(.serialized) struct DidSaveSetsTests {
    private static func context() throws -> ManagedObjectContext {
        let entity = EntityDescription(
            name: "Tally", managedObjectClass: Tally.self,
            properties: [AttributeDescription(name: "n", type: .integer64)])
        let coordinator = PersistentStoreCoordinator(
            managedObjectModel: try ManagedObjectModel(entities: [entity]))
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    /// The userInfo of the did-save and did-change notifications `body` causes (also used by
    /// `SaveListSharingTests`).
    static func observing(
        _ context: ManagedObjectContext, _ body: () throws -> Void
    ) rethrows -> (saved: [AnyHashable: Any], changed: [[AnyHashable: Any]]) {
        nonisolated(unsafe) var saved: [AnyHashable: Any] = [:]
        nonisolated(unsafe) var changed: [[AnyHashable: Any]] = []
        let a = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { saved = $0.userInfo ?? [:] }
        let b = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context,
            queue: nil
        ) { changed.append($0.userInfo ?? [:]) }
        defer {
            NotificationCenter.default.removeObserver(a)
            NotificationCenter.default.removeObserver(b)
        }
        try body()
        return (saved, changed)
    }

    /// An object inserted and deleted in the same event is announced neither inserted nor
    /// deleted, and is not saved: the objects-did-change and the did-save name the others.
    @Test func anObjectInsertedAndDeletedBeforeTheSaveIsNotAnnouncedOrSaved() throws {
        let context = try Self.context()
        try context.performAndWait {
            let (x, y, z) = (
                Tally(context: context), Tally(context: context), Tally(context: context)
            )
            context.delete(y)
            let result = try Self.observing(context) { try context.save() }
            #expect(result.changed.count == 1)
            #expect(result.changed.first?[NSInsertedObjectsKey] as? Set<ManagedObject> == [x, z])
            #expect(result.changed.first?[NSDeletedObjectsKey] == nil)
            #expect(result.saved[NSInsertedObjectsKey] as? Set<ManagedObject> == [x, z])
            #expect((result.saved[NSDeletedObjectsKey] as? Set<ManagedObject>)?.isEmpty == true)
            #expect(
                result.saved[NSInsertedObjectIDsKey] as? Set<ManagedObjectID>
                    == [x.objectID, z.objectID])
        }
    }

    @Test func theDidSaveSetsNameTheSavedObjects() throws {
        let context = try Self.context()
        try context.performAndWait {
            let (x, y) = (Tally(context: context), Tally(context: context))
            let first = try Self.observing(context) { try context.save() }
            #expect(first.saved[NSInsertedObjectsKey] as? Set<ManagedObject> == [x, y])
            #expect(
                first.changed.first?[NSInsertedObjectsKey] as? Set<ManagedObject> == [x, y])
            x.n = 1
            y.n = 2
            let second = try Self.observing(context) { try context.save() }
            #expect(second.saved[NSUpdatedObjectsKey] as? Set<ManagedObject> == [x, y])
            #expect(
                second.saved[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID>
                    == [x.objectID, y.objectID])
            #expect((second.saved[NSInsertedObjectsKey] as? Set<ManagedObject>)?.isEmpty == true)
        }
    }

    @Test func anObjectWillSaveChangedIsInTheDidSaveSetThoughNotAnnouncedFirst() throws {
        let context = try Self.context()
        try context.performAndWait {
            let (x, y) = (Tally(context: context), Tally(context: context))
            try context.save()
            x.n = 5
            Tally.bumps = y
            let result = try Self.observing(context) { try context.save() }
            #expect(result.changed.first?[NSUpdatedObjectsKey] as? Set<ManagedObject> == [x])
            #expect(result.saved[NSUpdatedObjectsKey] as? Set<ManagedObject> == [x, y])
            #expect(y.n == 1)
            #expect(!y.hasChanges)
        }
    }

    /// The sets the notifications hold are made as `Set(objects)` makes them: each object
    /// once (an object listed twice is one member), none for no objects, and a save's
    /// objects-did-change set names exactly the objects inserted.
    @Test func anAnnouncedSetHoldsEachObjectOnce() throws {
        let context = try Self.context()
        try context.performAndWait {
            let objects = (0..<40).map { _ in Tally(context: context) }
            let listed = objects + objects[5..<9] + [objects[0]]
            #expect(Set(announcing: listed) == Set(listed))
            #expect(Set(announcing: listed).count == 40)
            #expect(Set(announcing: []).isEmpty)
            let (_, changed) = try Self.observing(context) { try context.save() }
            let inserted = changed.compactMap { $0[NSInsertedObjectsKey] as? Set<ManagedObject> }
            #expect(inserted == [Set(objects)])
        }
    }
}
