import Foundation
import Testing

@testable import ObjectGraph

/// What W4b's save holds at its peak, made smaller without changing what is saved or checked:
/// a patch of an object's one overlay write holds the overlay's block instead of a copy of
/// the value (a 40-byte patch), and the optimistic-locking check compares the versions as
/// the store reads them (no arrays of IDs and versions). Each behaviour on both stores.
@Suite struct SharedPatchValueTests {
    typealias Recording = SaveIntegrity.UpdatePatchTests.RecordingStore

    /// A store of `kind` that records its change sets (and accepts patches), holding six
    /// saved employees e0…e5 (salary 10, 20, …).
    private static func staff(_ kind: StoreKind) throws
        -> SaveIntegrity.UpdatePatchTests.RecordingStore
    {
        let model = try StaffModel.make()
        let recording = SaveIntegrity.UpdatePatchTests.RecordingStore(
            try kind.open(model), patches: true)
        let context = try Self.context(recording, model)
        try context.performAndWait {
            for i in 0..<6 { StaffModel.employee("e\(i)", salary: 10 * (i + 1), in: context) }
            try context.save()
        }
        return recording
    }

    /// The employees of `context`, by name.
    private static func employees(_ context: ManagedObjectContext) throws -> [ManagedObject] {
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return try context.fetch(r)
    }

    /// Runs `body` on the queue of a context of a fresh recording store of `kind` (see
    /// `staff(_:)`), with the context's employees, by name.
    private static func onStaff(
        _ kind: StoreKind,
        _ body: (ManagedObjectContext, [ManagedObject], Recording) throws -> Void
    ) throws {
        let recording = try staff(kind)
        let context = try Self.context(recording, recording.model)
        try context.performAndWait { try body(context, try employees(context), recording) }
    }

    /// A context on `store`'s own coordinator.
    private static func context(_ store: any PersistentStore, _ model: ManagedObjectModel) throws
        -> ManagedObjectContext
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test func aPatchOfAnOverlaysWriteIsEqualHashesAndReadsAsOneMadeFromAValue() throws {
        let model = try StaffModel.make()
        let store = InMemoryStore(model: model)
        let context = try Self.context(store, model)
        let id = try context.performAndWait {
            let e = StaffModel.employee("e", salary: 1, in: context)
            try context.save()
            return e.objectID
        }
        let value = AttributeValue.integer(5)
        let write = RowOverlay.OneWrite(RowOverlay.Entry(slot: 1, value: value))
        let shared = StoreRowPatch(objectID: id, version: 2, slots: [1], write: write)
        let inline = StoreRowPatch(objectID: id, version: 2, slots: [1], value: .attribute(value))
        let fromArray = StoreRowPatch(
            objectID: id, version: 2, slots: [1], values: [.attribute(value)])
        #expect(shared == inline && shared == fromArray)
        #expect(shared.hashValue == inline.hashValue && shared.hashValue == fromArray.hashValue)
        #expect(shared.values == [.attribute(value)])
        #expect(shared.valueCount == 1 && shared.value(atPosition: 0) == .attribute(value))
        let other = StoreRowPatch(
            objectID: id, version: 2, slots: [1],
            write: RowOverlay.OneWrite(RowOverlay.Entry(slot: 1, value: .integer(6))))
        #expect(other != shared)
        let old = try #require(try store.row(for: id))
        #expect(shared.applied(to: old) == inline.applied(to: old))
        #expect(shared.changedProperties(from: old) == ["salary"])
        // Setting the values replaces the shared block; the block is not changed.
        var changed = shared
        changed.values = [.attribute(.integer(7))]
        #expect(changed.value(atPosition: 0) == .attribute(.integer(7)))
        #expect(shared.value(atPosition: 0) == .attribute(value))
        #expect(write.entry.value == value)
        #expect(MemoryLayout<StoreRowPatch>.stride == 40)
    }

    @Test(arguments: StoreKind.all)
    func aSavedPatchKeepsItsValueWhenTheObjectIsWrittenAgain(_ kind: StoreKind) throws {
        try Self.onStaff(kind) { context, all, recording in
            for (i, e) in all.enumerated() { e.setValue(100 + i, forKey: "salary") }
            #expect(all.allSatisfy { $0.hasRowOverlay })
            try context.save()
            let first = try #require(recording.committed.last).patched
            for (i, e) in all.enumerated() {
                #expect(e.value(forKey: "salary") as? Int32 == Int32(100 + i))
                #expect(
                    e.committedValues(forKeys: ["salary"])["salary"] as? Int32 == Int32(100 + i))
                e.setValue(200 + i, forKey: "salary")
            }
            try context.save()
            let second = try #require(recording.committed.last).patched
            // The first save's patches still hold what that save wrote (the objects' later
            // writes made new blocks), the second's the new values.
            #expect(
                first.map { $0.value(atPosition: 0) }
                    == (0..<6).map { .attribute(.integer(Int64(100 + $0))) })
            #expect(
                second.map { $0.value(atPosition: 0) }
                    == (0..<6).map { .attribute(.integer(Int64(200 + $0))) })
            #expect(first.map(\.version) == Array(repeating: 2, count: 6))
            #expect(second.map(\.version) == Array(repeating: 3, count: 6))
            for (i, e) in all.enumerated() {
                #expect(e.value(forKey: "salary") as? Int32 == Int32(200 + i) && !e.hasChanges)
                let row = try #require(try recording.base.row(for: e.objectID))
                #expect(row.values[1] == .attribute(.integer(Int64(200 + i))))
                #expect(row.version == 3)
            }
        }
    }

    /// A save whose store took the change set and then failed leaves the objects' writes in
    /// place (the patches shared their overlays' blocks); writing again makes new blocks, so
    /// the change set the store kept still holds the first writes, and the next save stores
    /// the second.
    @Test(arguments: StoreKind.all)
    func aFailedSavesPatchesKeepTheirValuesWhenTheObjectsAreWrittenAgain(_ kind: StoreKind)
        throws
    {
        try Self.onStaff(kind) { context, all, recording in
            for (i, e) in all.enumerated() { e.setValue(100 + i, forKey: "salary") }
            recording.failsNextCommit = true
            #expect(throws: (any Error).self) { try context.save() }
            let failed = try #require(recording.committed.last).patched
            #expect(all.allSatisfy { $0.hasChanges && $0.hasRowOverlay })
            for (i, e) in all.enumerated() { e.setValue(200 + i, forKey: "salary") }
            #expect(
                failed.map { $0.value(atPosition: 0) }
                    == (0..<6).map { .attribute(.integer(Int64(100 + $0))) })
            try context.save()
            for (i, e) in all.enumerated() {
                let row = try #require(try recording.base.row(for: e.objectID))
                #expect(row.values[1] == .attribute(.integer(Int64(200 + i))))
                #expect(row.version == 2)
            }
            #expect(
                failed.map { $0.value(atPosition: 0) }
                    == (0..<6).map { .attribute(.integer(Int64(100 + $0))) })
        }
    }

    /// Through plain stores, which read the versions in bulk (the recording store is asked
    /// row by row): objects of two stores, the second store's run starting at position 1,
    /// one of its objects changed by another save. The stale position is the object's place
    /// in the whole list, and the save names exactly it.
    @Test(arguments: StoreKind.all)
    func theBulkLockingCheckNamesPositionsInTheWholeList(_ kind: StoreKind) throws {
        let model = try StaffModel.make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let stores = [try kind.open(model), try kind.open(model)]
        for store in stores { try coordinator.addPersistentStore(store) }
        let mine = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let theirs = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let (all, ids) = try mine.performAndWait {
            () throws -> ([ManagedObject], [ManagedObjectID]) in
            let all = (0..<4).map { StaffModel.employee("e\($0)", salary: $0 + 1, in: mine) }
            for (i, e) in all.enumerated() { mine.assign(e, to: stores[i == 0 ? 0 : 1]) }
            try mine.save()
            return (all, all.map(\.objectID))
        }
        #expect(ids[0].storeIdentifier == stores[0].identifier)
        #expect(ids[1...].allSatisfy { $0.storeIdentifier == stores[1].identifier })
        try theirs.performAndWait {
            theirs.object(with: ids[2]).setValue(99, forKey: "salary")
            try theirs.save()
        }
        try mine.performAndWait {
            for e in all { e.setValue("x", forKey: "name") }
            #expect(try coordinator.stalePositions(of: all) == [2])
            var failure: ObjectGraphError?
            do { try mine.save() } catch let error as ObjectGraphError { failure = error }
            let conflicts = try #require(
                failure?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict])
            #expect(conflicts.map(\.sourceObject.objectID) == [ids[2]])
        }
    }

    @Test(arguments: StoreKind.all)
    func theLockingCheckFindsExactlyTheStaleObjectsInOrder(_ kind: StoreKind) throws {
        let recording = try Self.staff(kind)
        let mine = try Self.context(recording, recording.model)
        let theirs = try Self.context(recording, recording.model)
        let all = try mine.performAndWait { try Self.employees(mine) }
        try theirs.performAndWait {
            let others = try Self.employees(theirs)
            others[4].setValue(1, forKey: "salary")
            others[1].setValue(1, forKey: "salary")
            try theirs.save()
        }
        let committed = recording.committed.count
        try mine.performAndWait {
            for e in all { e.setValue("7", forKey: "name") }
            let ids = all.map(\.objectID)
            let stale = try #require(mine.persistentStoreCoordinator).stalePositions(of: all)
            #expect(stale == [1, 4])
            var failure: ObjectGraphError?
            do { try mine.save() } catch let error as ObjectGraphError { failure = error }
            let conflicts = try #require(
                failure?.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [MergeConflict])
            #expect(conflicts.map(\.sourceObject.objectID) == [ids[1], ids[4]])
            // Nothing changed: every object keeps its write, the store its rows.
            #expect(all.allSatisfy { $0.hasChanges && $0.value(forKey: "name") as? String == "7" })
            #expect(recording.committed.count == committed)
            for (i, id) in ids.enumerated() {
                let row = try #require(try recording.base.row(for: id))
                #expect(row.version == (i == 1 || i == 4 ? 2 : 1))
                #expect(row.values[0] == .attribute(.string("e\(i)")))
                #expect(
                    row.values[1]
                        == .attribute(.integer(i == 1 || i == 4 ? 1 : Int64(10 * (i + 1)))))
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func objectsWithoutARowAreStale(_ kind: StoreKind) throws {
        try Self.onStaff(kind) { context, all, _ in
            let new = StaffModel.employee("n", salary: 1, in: context)
            context.delete(all[2])
            let coordinator = try #require(context.persistentStoreCoordinator)
            #expect(try coordinator.stalePositions(of: [all[0], new, all[2]]) == [1])
            #expect(try coordinator.rowVersions(of: [all[0], new]) == [1, nil])
            try context.save()
            #expect(try coordinator.stalePositions(of: [all[0], all[2], all[3]]) == [1])
            #expect(try coordinator.rowVersions(of: [all[2], all[3]]) == [nil, 1])
        }
    }
}
