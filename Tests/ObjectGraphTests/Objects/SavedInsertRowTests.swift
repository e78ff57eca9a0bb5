import Foundation
import Testing

@testable import ObjectGraph

/// An object inserted and saved to a store keeps the row the store took (the same array, not
/// a copy) instead of its slots, so its values are held once; everything else sees what it
/// saw when the object kept its slots: values, relationships (the same objects), changes,
/// committed values, faults, writes, conflicts, refresh, rollback, undo, child contexts, a
/// freed context, a deletion. An object whose row cannot give its slots back (a transient
/// value, a loaded derived to-many) keeps them.
@Suite struct SavedInsertRowTests {
    /// Tracks in a playlist's ordered to-many (kept in the playlist's row); notes with a
    /// transient attribute.
    private static func mediaModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Playlist",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "tracks", destination: "Track", inverse: "playlist",
                        isToMany: true, isOrdered: true),
                ]),
            EntityDescription(
                name: "Track",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    RelationshipDescription(
                        name: "playlist", destination: "Playlist", inverse: "tracks"),
                ]),
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(name: "text", type: .string),
                    AttributeDescription(name: "draft", type: .string, isTransient: true),
                ]),
        ])
    }

    private static func context(_ model: ManagedObjectModel, _ kind: StoreKind) throws
        -> ManagedObjectContext
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    /// The store's row of `object`, read through its coordinator.
    private static func storeRow(_ object: ManagedObject) throws -> StoreRow {
        let store = try #require(
            object.managedObjectContext?.persistentStoreCoordinator?.persistentStores.first)
        return try #require(try store.row(for: object.objectID))
    }

    /// The identity of `object`'s to-one `key` (no reference to it is kept).
    private static func identity(of key: String, in object: ManagedObject) -> ObjectIdentifier? {
        (object.value(forKey: key) as? ManagedObject).map(ObjectIdentifier.init)
    }

    /// Whether `object` keeps the store's own array of values (the same buffer).
    private static func sharesStoreRow(_ object: ManagedObject) throws -> Bool {
        guard let kept = object.rowValues else { return false }
        let stored = try storeRow(object).values
        let a = kept.withUnsafeBufferPointer { $0.baseAddress }
        let b = stored.withUnsafeBufferPointer { $0.baseAddress }
        return a != nil && a == b
    }

    /// Runs `body` on a fresh store of `kind`'s context, after inserting the department "R&D"
    /// and its employee alpha (salary 10) and saving them.
    private func withSavedAlpha(
        _ kind: StoreKind,
        _ body: (ManagedObjectContext, ManagedObject, ManagedObject) throws -> Void
    ) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            let d = StaffModel.department("R&D", in: context)
            let alpha = StaffModel.employee("alpha", salary: 10, department: d, in: context)
            try context.save()
            try body(context, d, alpha)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSavedInsertKeepsTheStoresRowAndReadsAsBefore(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            let d = StaffModel.department("R&D", in: context)
            let alpha = StaffModel.employee("alpha", salary: 10, department: d, in: context)
            let bravo = StaffModel.employee("bravo", salary: 20, in: context)
            let hired = Date(timeIntervalSince1970: 86_400)
            alpha.setValue(hired, forKey: "hireDate")
            try context.save()
            #expect(try Self.sharesStoreRow(alpha) && Self.sharesStoreRow(bravo))
            #expect(!alpha.objectID.isTemporaryID)
            #expect(!alpha.isFault && !alpha.isInserted && !alpha.hasChanges)
            #expect(alpha.changedValues().isEmpty)
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(alpha.value(forKey: "hireDate") as? Date == hired)
            #expect(bravo.value(forKey: "department") == nil)
            #expect(alpha.committedValues(forKeys: ["name"])["name"] as? String == "alpha")
            // The to-one reads the object it was set to; its inverse is as it was.
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
            #expect((d.value(forKey: "employees") as? Set<ManagedObject>) == [alpha])
            // The department's loaded to-many is not in its row: it keeps its slots.
            #expect(d.rowValues == nil && !d.hasChanges)
        }
    }

    @Test(arguments: StoreKind.all)
    func aFailedCommitLeavesTheInsertsExactlyAsTheyWere(_ kind: StoreKind) throws {
        let stack = try Stack(try StaffModel.make(), on: kind, failing: true)
        let failing = try #require(stack.store as? FailingStore)
        let context = stack.context()
        try context.performAndWait { () throws in
            let d = StaffModel.department("R&D", in: context)
            let alpha = StaffModel.employee("alpha", salary: 10, department: d, in: context)
            let bravo = StaffModel.employee("bravo", salary: 20, in: context)
            let objects = [d, alpha, bravo]
            let ids = objects.map(\.objectID)
            let slots = objects.map(\.slots)
            let changed = objects.map(\.changedSlots)
            failing.failing = true
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.code == 134030)
            #expect(failing.commitCount == 0)
            for (i, object) in objects.enumerated() {
                #expect(object.rowValues == nil && !object.state.keepsResolvedRelationships)
                #expect(object.faultSource == nil && object.snapshot == nil)
                #expect(object.objectID == ids[i] && object.objectID.isTemporaryID)
                #expect(object.isInserted && object.hasChanges && !object.isFault)
                #expect(object.changedSlots == changed[i])
                #expect(object.slots.count == slots[i].count)
                #expect(zip(object.slots, slots[i]).allSatisfy { $0.isSame(as: $1) })
            }
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
            #expect(alpha.changedValues()["name"] as? String == "alpha")
            // The next save, the store working again, writes them and keeps their rows.
            failing.failing = false
            try context.save()
            #expect(try Self.sharesStoreRow(alpha) && Self.sharesStoreRow(bravo))
            #expect(try stack.rows("Employee").count == 2)
        }
    }

    /// A save whose constraint takeover plans other values for an insert than its slots (the
    /// store-trump policy drops the new tag's one-to-one to a note, as the stored "red" has
    /// none) keeps no rows: the row would be the planned values and the relationships kept
    /// beside it the slots'. Regression (the `rowsave` review): a failed commit then restored
    /// the note's to-one from a row that lacked it (an assertion in debug builds; `nil` in
    /// release) instead of the tag.
    @Test(arguments: StoreKind.all)
    func aFailedCommitOfATakeoverLeavesTheInsertsRelationshipsAsTheyWere(_ kind: StoreKind)
        throws
    {
        let stack = try Stack(IntegrityModels.upsert(), on: kind, failing: true)
        try stack.seed("Tag", ["name": "red", "color": 1])
        let failing = try #require(stack.store as? FailingStore)
        let context = stack.context()
        try context.performAndWait { () throws in
            context.mergePolicy = .mergeByPropertyStoreTrump
            let note = context.insertNewObject(forEntityName: "Note")
            note.setValue("n", forKey: "text")
            let tag = context.insertNewObject(forEntityName: "Tag")
            tag.setValue("red", forKey: "name")
            tag.setValue(note, forKey: "favorite")
            let commits = failing.commitCount
            failing.failing = true
            #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(failing.commitCount == commits)
            #expect(note.rowValues == nil && tag.rowValues == nil)
            #expect(!note.state.keepsResolvedRelationships && note.faultSource == nil)
            #expect(note.value(forKey: "favoriteOf") as? ManagedObject === tag)
            #expect(tag.value(forKey: "favorite") as? ManagedObject === note)
            #expect(note.isInserted && tag.isInserted && note.objectID.isTemporaryID)
        }
    }

    /// A saved insert given a row again (as filling it from the store does) forgets the
    /// destination it kept beside its old row: kept on, it would hold the object alive and
    /// stand for a row it no longer belongs to (the `rowsave` review's hardening).
    @Test(arguments: StoreKind.all)
    func aSavedInsertGivenARowAgainForgetsTheDestinationKeptBesideIt(_ kind: StoreKind) throws {
        try withSavedAlpha(kind) { _, d, alpha in
            guard case .resolvedDestination(let kept)? = alpha.faultSource else {
                Issue.record("alpha keeps no destination beside its row")
                return
            }
            #expect(kept === d && alpha.state.keepsResolvedRelationships)
            alpha.keepRow(try Self.storeRow(alpha).values)
            #expect(!alpha.state.keepsResolvedRelationships && alpha.faultSource == nil)
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
        }
    }

    @Test(arguments: StoreKind.all)
    func aDestinationOnlyASavedInsertReferencesStaysTheSameObject(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            let alpha = StaffModel.employee(
                "alpha", salary: 10, department: StaffModel.department("R&D", in: context),
                in: context)
            // Only the employee references the department from here on.
            let identity = try #require(Self.identity(of: "department", in: alpha))
            try context.save()
            let slot = alpha.entity.propertiesByName["department"]!.index
            guard case .toOne(let id?)? = alpha.rowValues?[slot] else {
                Issue.record("the saved insert does not keep its row")
                return
            }
            context.registry.sweep()
            // Still registered (the saved insert holds it), and the same object.
            #expect(context.registeredObject(for: id).map(ObjectIdentifier.init) == identity)
            let read = try #require(alpha.value(forKey: "department") as? ManagedObject)
            #expect(ObjectIdentifier(read) == identity)
            #expect(read.value(forKey: "name") as? String == "R&D")
        }
    }

    @Test(arguments: StoreKind.all)
    func aWriteAfterTheSaveConvertsTheRowAndKeepsTheCommittedValue(_ kind: StoreKind) throws {
        try withSavedAlpha(kind) { context, d, alpha in
            #expect(try Self.sharesStoreRow(alpha))
            alpha.setValue(11, forKey: "salary")
            #expect(alpha.rowValues == nil)
            #expect(alpha.isUpdated && alpha.changedValues().keys.sorted() == ["salary"])
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
            try context.save()
            #expect(try Self.storeRow(alpha)["salary"] == .attribute(.integer(11)))
            #expect(try Self.storeRow(alpha).version == 2)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSavedInsertChangedElsewhereConflictsOnItsNextSave(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        let writer = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        let saved = try context.performAndWait { () throws in
            let alpha = StaffModel.employee("alpha", salary: 10, in: context)
            try context.save()
            #expect(try Self.sharesStoreRow(alpha))
            return UncheckedSendable(alpha)
        }
        let id = saved.value.objectID
        try writer.performAndWait { () throws in
            try writer.existingObject(with: id).setValue(30, forKey: "salary")
            try writer.save()
        }
        try context.performAndWait { () throws in
            let alpha = saved.value
            // Still the row it saved: the other write gave the store a row of its own.
            #expect(alpha.rowValues != nil && alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(try !Self.sharesStoreRow(alpha))
            alpha.setValue("a", forKey: "name")
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.code == 133020)
            #expect(alpha.changedValues().keys.sorted() == ["name"])
            #expect(alpha.committedValues(forKeys: ["name"])["name"] as? String == "alpha")
            // Refreshed with its change kept on top, it saves over the other write.
            context.refresh(alpha, mergeChanges: true)
            #expect(alpha.value(forKey: "salary") as? Int32 == 30)
            try context.save()
            #expect(try Self.storeRow(alpha)["name"] == .attribute(.string("a")))
        }
    }

    @Test(arguments: StoreKind.all)
    func refreshingASavedInsertReadsItsRowAgain(_ kind: StoreKind) throws {
        try withSavedAlpha(kind) { context, d, alpha in
            let shares = try Self.sharesStoreRow(alpha)
            #expect(shares)
            context.refresh(alpha, mergeChanges: false)
            #expect(alpha.isFault)
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
            context.refresh(alpha, mergeChanges: true)
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            #expect(!alpha.hasChanges && alpha.changedValues().isEmpty)
        }
    }

    @Test(arguments: StoreKind.all)
    func rollbackAfterAWriteToASavedInsertRestoresItsSavedValues(_ kind: StoreKind) throws {
        try withSavedAlpha(kind) { context, d, alpha in
            alpha.setValue(12, forKey: "salary")
            alpha.setValue(nil, forKey: "department")
            // The to-one setter keeps the committed destination (it did not: the setter wrote
            // the slot without keeping it, for saved and fetched objects alike).
            let committed = alpha.committedValues(forKeys: ["department"])["department"]
            #expect(committed as? ManagedObject === d)
            context.rollback()
            #expect(!alpha.hasChanges && alpha.changedValues().isEmpty)
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
            // Rollback with nothing changed leaves the row kept.
            let bravo = StaffModel.employee("bravo", salary: 20, in: context)
            try context.save()
            context.rollback()
            #expect(bravo.rowValues != nil && bravo.value(forKey: "salary") as? Int32 == 20)
        }
    }

    @Test(arguments: StoreKind.all)
    func undoingASavedInsertAndALaterWriteWorksAsBefore(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            context.undoManager = ObjectGraphUndoManager()
            let d = StaffModel.department("R&D", in: context)
            let alpha = StaffModel.employee("alpha", salary: 10, department: d, in: context)
            context.processPendingChanges()
            try context.save()
            #expect(alpha.rowValues != nil)
            alpha.setValue(12, forKey: "salary")
            context.processPendingChanges()
            context.undo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(!alpha.hasChanges)
            context.redo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 12)
            #expect(alpha.changedValues()["salary"] as? Int32 == 12)
            // Undoing the insert itself deletes the saved object.
            context.undo()
            context.undo()
            #expect(alpha.isDeleted && d.isDeleted)
            try context.save()
            #expect(try Self.rowCount(context, "Employee") == 0)
            context.redo()  // inserted again, with its values
            #expect(alpha.isInserted && alpha.value(forKey: "name") as? String == "alpha")
            try context.save()
            #expect(try Self.sharesStoreRow(alpha))
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
        }
    }

    private static func rowCount(_ context: ManagedObjectContext, _ entity: String) throws -> Int {
        try context.count(for: FetchRequest<ManagedObject>(entityName: entity))
    }

    @Test(arguments: StoreKind.all)
    func aChildsSaveLeavesTheParentsObjectsWithSlotsUntilTheParentSaves(_ kind: StoreKind) throws {
        let parent = try StaffModel.context(kind)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        let id = try child.performAndWait { () throws in
            let alpha = StaffModel.employee(
                "alpha", salary: 10, department: StaffModel.department("R&D", in: child),
                in: child)
            try child.save()
            #expect(alpha.rowValues == nil && !alpha.hasChanges)
            return alpha.objectID
        }
        try parent.performAndWait { () throws in
            let alpha = try #require(parent.registeredObject(for: id))
            #expect(alpha.isInserted && alpha.rowValues == nil)
            try parent.save()
            #expect(try Self.sharesStoreRow(alpha))
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            let d = try #require(alpha.value(forKey: "department") as? ManagedObject)
            #expect(d.value(forKey: "name") as? String == "R&D")
        }
        try child.performAndWait { () throws in
            let alpha = try #require(child.registeredObject(for: id))
            #expect(alpha.rowValues == nil)
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSavedInsertReadsItsValuesAfterItsContextIsFreed(_ kind: StoreKind) throws {
        var context: ManagedObjectContext? = try StaffModel.context(kind)
        weak var freed: ManagedObjectContext?
        let alpha = try context!.performAndWait { () throws in
            let d = StaffModel.department("R&D", in: context!)
            let alpha = StaffModel.employee("alpha", salary: 10, department: d, in: context!)
            try context!.save()
            #expect(alpha.rowValues != nil)
            return UncheckedSendable(alpha)
        }
        freed = context
        context = nil
        #expect(freed == nil)
        let object = alpha.value
        #expect(object.managedObjectContext == nil)
        #expect(object.value(forKey: "name") as? String == "alpha")
        let d = try #require(object.value(forKey: "department") as? ManagedObject)
        #expect(d.value(forKey: "name") as? String == "R&D")
    }

    @Test(arguments: StoreKind.all)
    func aSavedInsertDeletedNextLeavesWithItsValues(_ kind: StoreKind) throws {
        try withSavedAlpha(kind) { context, d, alpha in
            let shares = try Self.sharesStoreRow(alpha)
            #expect(shares)
            context.delete(alpha)
            #expect(alpha.isDeleted)
            try context.save()
            #expect(alpha.managedObjectContext == nil)
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            #expect(alpha.value(forKey: "department") as? ManagedObject === d)
            #expect((d.value(forKey: "employees") as? Set<ManagedObject>)?.isEmpty == true)
            #expect(try Self.rowCount(context, "Employee") == 0)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSavedInsertWithATransientValueKeepsItsSlotsAndTheValue(_ kind: StoreKind) throws {
        let context = try Self.context(try Self.mediaModel(), kind)
        try context.performAndWait { () throws in
            let note = context.insertNewObject(forEntityName: "Note")
            note.setValue("kept", forKey: "text")
            note.setValue("unsaved", forKey: "draft")
            try context.save()
            #expect(note.rowValues == nil)
            #expect(note.value(forKey: "draft") as? String == "unsaved")
            #expect(note.value(forKey: "text") as? String == "kept")
            #expect(!note.hasChanges)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSavedInsertWithAnOrderedToManyKeepsItsRowAndItsMembersInOrder(_ kind: StoreKind)
        throws
    {
        let context = try Self.context(try Self.mediaModel(), kind)
        try context.performAndWait { () throws in
            let list = context.insertNewObject(forEntityName: "Playlist")
            list.setValue("mix", forKey: "name")
            let tracks = (0..<3).map { i in
                let t = context.insertNewObject(forEntityName: "Track")
                t.setValue("t\(i)", forKey: "title")
                return t
            }
            for t in tracks.reversed() { list.mutableOrderedSetValue(forKey: "tracks").add(t) }
            try context.save()
            #expect(try Self.sharesStoreRow(list))
            #expect(try tracks.allSatisfy(Self.sharesStoreRow))
            #expect(tracks[0].value(forKey: "playlist") as? ManagedObject === list)
            let members = try #require(list.value(forKey: "tracks") as? [ManagedObject])
            #expect(
                members.map(ObjectIdentifier.init) == tracks.reversed().map(ObjectIdentifier.init))
            // A write to the to-many converts the row and saves as before.
            list.mutableOrderedSetValue(forKey: "tracks").remove(tracks[1])
            #expect(list.changedValues().keys.sorted() == ["tracks"])
            try context.save()
            #expect(
                try Self.storeRow(list)["tracks"]
                    == .toMany([tracks[2].objectID, tracks[0].objectID]))
        }
    }
}
