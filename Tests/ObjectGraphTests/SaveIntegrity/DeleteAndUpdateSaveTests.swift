import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// The delete save and the update save's bookkeeping: the did-save's deleted sets, the
    /// deny rule read from the entity's list, the store's version check of deletions, and
    /// patches of different slot sets in one save.
    @Suite struct DeleteAndUpdateSaveTests {
        typealias Gauge = IntegrityModels.Gauge
        typealias RecordingStore = UpdatePatchTests.RecordingStore

        /// A stack over a recording store of `kind` (patches accepted) with `count` saved
        /// gauges `g0…` (`reading: 1, code: "x"`), returned in order.
        private func gauges(_ kind: StoreKind, count: Int) throws -> (
            RecordingStore, PersistentStoreCoordinator, [ManagedObjectID]
        ) {
            let model = try IntegrityModels.gauges()
            let store = RecordingStore(try kind.open(model), patches: true)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(store)
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            let ids = try context.performAndWait {
                let made = (0..<count).map { i in
                    let gauge = Gauge(context: context)
                    gauge.label = "g\(i)"
                    gauge.reading = 1
                    gauge.code = "x"
                    return gauge
                }
                try context.save()
                return made.map(\.objectID)
            }
            return (store, coordinator, ids)
        }

        /// A save's deletions announced in two events (one before the save, one during it)
        /// are all in the did-save, objects and IDs: the set the save's own announcement
        /// posted is reused only when it names exactly the deleted objects (here it names the
        /// first of the two in the save's order, and not the other).
        @Test(arguments: StoreKind.all)
        func theDidSaveListsDeletionsAnnouncedBeforeTheSaveToo(_ kind: StoreKind) throws {
            let (_, coordinator, ids) = try gauges(kind, count: 3)
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            let recorder = DidSaveObjects(context)
            try context.performAndWait {
                let objects = try ids.map {
                    try #require(try context.existingObject(with: $0) as? Gauge)
                }
                // The second object changes first, so it comes first among the save's objects;
                // the first deletion is announced before the save, the second during it.
                objects[1].label = "changed"
                context.delete(objects[0])
                context.processPendingChanges()
                context.delete(objects[1])
                try context.save()
                #expect(recorder.deleted == [Set([objects[0], objects[1]])])
                #expect(recorder.deletedIDs == [Set([ids[0], ids[1]])])
                context.delete(objects[2])
                try context.save()
                #expect(recorder.deleted.last == Set([objects[2]]))
                #expect(recorder.deletedIDs.last == Set([ids[2]]))
            }
            let gauge = try #require(coordinator.managedObjectModel.entitiesByName["Gauge"])
            #expect(
                try coordinator.persistentStores[0].count(StoreFetchRequest(entity: gauge)) == 0)
        }

        /// Updates of different slot sets in one save reach the store as patches of exactly
        /// their slots, in order (consecutive patches of the same slots share one array, a
        /// shorter set after a longer one with the same start included), and the rows end up
        /// with every value.
        @Test(arguments: StoreKind.all)
        func patchesOfDifferentSlotSetsInOneSaveCarryTheirOwnSlots(_ kind: StoreKind) throws {
            let (store, coordinator, ids) = try gauges(kind, count: 6)
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            try context.performAndWait {
                let g = try ids.map { try #require(try context.existingObject(with: $0) as? Gauge) }
                g[0].label = "a0"
                g[1].label = "a1"
                g[1].reading = 2
                g[2].label = "a2"
                g[3].reading = 3
                g[4].label = "a4"
                g[4].reading = 4
                g[4].code = "y"
                g[5].reading = 5
                try context.save()
            }
            let set = try #require(store.committed.last)
            #expect(set.patched.map(\.objectID) == ids)
            #expect(set.patched.map(\.slots) == [[0], [0, 1], [0], [1], [0, 1, 2], [1]])
            #expect(set.patched.map(\.version) == Array(repeating: 2, count: 6))
            let expected: [[StoreValue]] = [
                [.attribute(.string("a0"))],
                [.attribute(.string("a1")), .attribute(.integer(2))],
                [.attribute(.string("a2"))],
                [.attribute(.integer(3))],
                [.attribute(.string("a4")), .attribute(.integer(4)), .attribute(.string("y"))],
                [.attribute(.integer(5))],
            ]
            #expect(set.patched.map(\.values) == expected)
            let rows = try ids.map { try #require(try store.base.row(for: $0)) }
            #expect(
                rows.map { $0.values[0] }
                    == ["a0", "a1", "a2", "g3", "a4", "g5"].map {
                        StoreValue.attribute(.string($0))
                    })
            #expect(
                rows.map { $0.values[1] }
                    == [1, 2, 1, 3, 4, 5].map {
                        StoreValue.attribute(.integer($0))
                    })
            #expect(
                rows.map { $0.values[2] }
                    == ["x", "x", "x", "x", "y", "x"].map {
                        StoreValue.attribute(.string($0))
                    })
            #expect(rows.allSatisfy { $0.version == 2 })
        }

        /// A store refuses a deletion whose expected version is not the row's (134050),
        /// deleting nothing of the change set, and accepts it at the row's version.
        @Test(arguments: StoreKind.all)
        func aStoreRefusesADeletionAtTheWrongVersion(_ kind: StoreKind) throws {
            let (store, _, ids) = try gauges(kind, count: 2)
            let base = store.base
            let stale = expectNSError {
                try base.commit(
                    StoreChangeSet(deleted: [(ids[0], 1), (ids[1], 3)], timestamp: Date()))
            }
            #expect(stale?.code == 134050)
            #expect(try base.row(for: ids[0]) != nil)
            #expect(try base.row(for: ids[1]) != nil)
            try base.commit(StoreChangeSet(deleted: [(ids[0], 1), (ids[1], 1)], timestamp: Date()))
            #expect(try base.row(for: ids[0]) == nil)
            #expect(try base.row(for: ids[1]) == nil)
        }

        /// A store of `kind` holding one panel with 40 gauges (`g0`…`g39`), saved; the panel's
        /// `gauges` relationship, a context, the panel's ID and the gauges' IDs in order.
        private func panelOfFortyGauges(_ kind: StoreKind) throws -> (
            Stack, RelationshipDescription, ManagedObjectContext, ManagedObjectID,
            [ManagedObjectID]
        ) {
            let model = try IntegrityModels.gauges()
            let stack = try Stack(model, on: kind)
            let gauges = try #require(model.entitiesByName["Panel"]?.relationshipsByName["gauges"])
            let context = stack.context()
            let (panel, ids) = try context.performAndWait {
                let panel = IntegrityModels.Panel(context: context)
                let made = (0..<40).map { i in
                    let gauge = Gauge(context: context)
                    gauge.label = "g\(i)"
                    gauge.reading = 1
                    gauge.code = "x"
                    gauge.panel = panel
                    return gauge
                }
                try context.save()
                return (panel.objectID, made.map(\.objectID))
            }
            return (stack, gauges, context, panel, ids)
        }

        /// Deleting most sources of a target in one save, in no particular order, leaves the
        /// store's derived to-many listing exactly the others in key order; a later delete of
        /// a few and a later insert keep it right.
        @Test(arguments: StoreKind.all)
        func deletingMostSourcesOfATargetLeavesTheRestInKeyOrder(_ kind: StoreKind) throws {
            let (stack, gauges, context, panel, ids) = try panelOfFortyGauges(kind)
            #expect(try stack.store.relatedObjectIDs(gauges, of: panel) == ids)
            // 30 of 40, the later half first: the keys leave out of order.
            let doomed = Array(20..<40) + Array(stride(from: 0, to: 20, by: 2))
            try context.performAndWait {
                for i in doomed { context.delete(try context.existingObject(with: ids[i])) }
                try context.save()
            }
            var left = ids.indices.filter { !doomed.contains($0) }.map { ids[$0] }
            #expect(try stack.store.relatedObjectIDs(gauges, of: panel) == left)
            try context.performAndWait {
                context.delete(try context.existingObject(with: left[2]))
                let added = Gauge(context: context)
                added.reading = 1
                added.code = "x"
                added.panel = try #require(
                    try context.existingObject(with: panel) as? IntegrityModels.Panel)
                try context.save()
                left.remove(at: 2)
                left.append(added.objectID)
            }
            #expect(try stack.store.relatedObjectIDs(gauges, of: panel) == left)
            #expect(try stack.reopen().store.relatedObjectIDs(gauges, of: panel) == left)
        }

        /// A target's source list stays exact through each way a save removes sources: one
        /// deletion (which leaves a hole in the list), two of a long list (removed one by
        /// one), then half of it at once over the hole; and after reopening.
        @Test(arguments: StoreKind.all)
        func removingSourcesOneByOneAndInBulkOverHolesKeepsTheRestInKeyOrder(_ kind: StoreKind)
            throws
        {
            let (stack, gauges, context, panel, ids) = try panelOfFortyGauges(kind)
            var left = ids
            for doomed in [[0], [5, 6], Array(20..<40)] {
                try context.performAndWait {
                    for i in doomed { context.delete(try context.existingObject(with: ids[i])) }
                    try context.save()
                }
                left.removeAll { id in doomed.contains { ids[$0] == id } }
                #expect(try stack.store.relatedObjectIDs(gauges, of: panel) == left)
            }
            #expect(left.count == 17)
            let reopened = try stack.reopen()
            #expect(try reopened.store.relatedObjectIDs(gauges, of: panel) == left)
            let fresh = reopened.context()
            try fresh.performAndWait {
                let reread = try #require(
                    try fresh.existingObject(with: panel) as? IntegrityModels.Panel)
                #expect(reread.gauges.count == 17)
            }
        }

        /// The deny rule holds for a relationship a subentity inherits, and an entity without
        /// deny relationships deletes freely.
        @Test(arguments: StoreKind.all)
        func theDenyRuleHoldsForAnInheritedRelationship(_ kind: StoreKind) throws {
            typealias A = AttributeDescription
            typealias R = RelationshipDescription
            let model = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Shelf",
                    properties: [
                        A(name: "name", type: .string),
                        R(
                            name: "books", destination: "Book", inverse: "shelf", isToMany: true,
                            deleteRule: .deny),
                    ]),
                EntityDescription(name: "Bookcase", superentityName: "Shelf"),
                EntityDescription(
                    name: "Book",
                    properties: [R(name: "shelf", destination: "Shelf", inverse: "books")]),
            ])
            let stack = try Stack(model, on: kind)
            let context = stack.context()
            try context.performAndWait {
                let bookcase = context.insertNewObject(forEntityName: "Bookcase")
                let book = context.insertNewObject(forEntityName: "Book")
                book.setValue(bookcase, forKey: "shelf")
                try context.save()
                context.delete(bookcase)
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationRelationshipDeniedDeleteError)
                #expect(
                    (error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === bookcase)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "books")
                #expect(try stack.rows("Bookcase").count == 1)
                context.rollback()
                context.delete(book)
                try context.save()
                context.delete(bookcase)
                try context.save()
            }
            #expect(try stack.allRows().isEmpty)
        }
    }
}

/// The deleted objects and IDs of a context's did-save notifications, one set per save.
private final class DidSaveObjects: @unchecked Sendable {
    // Sendable: the notification is posted on the saving context's queue, where the test
    // also reads the sets (inside `performAndWait`).
    private(set) var deleted: [Set<ManagedObject>] = []
    private(set) var deletedIDs: [Set<ManagedObjectID>] = []
    private var observer: (any NSObjectProtocol)?

    init(_ context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { [self] note in
            let info = note.userInfo ?? [:]
            deleted.append(info[NSDeletedObjectsKey] as? Set<ManagedObject> ?? [])
            deletedIDs.append(info[NSDeletedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
        }
    }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
}
