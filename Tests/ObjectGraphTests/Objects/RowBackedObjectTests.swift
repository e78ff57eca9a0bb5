import Foundation
import Testing

@testable import ObjectGraph

/// An object filled from a store row keeps the row as its values and converts only what is
/// read; everything else (writes, snapshots, undo, merges, refresh, child contexts, a failed
/// save) sees what it saw when every fill converted the whole row into slots.
@Suite struct RowBackedObjectTests {
    /// A context on a fresh store of `kind` holding the department "R&D" with employees
    /// alpha (salary 10) and bravo (20), saved and then forgotten (`reset()`).
    private func savedStaff(_ kind: StoreKind) throws -> ManagedObjectContext {
        let context = try StaffModel.context(kind)
        try context.performAndWait { try StaffModel.seedRnD(in: context) }
        return context
    }

    private func employees(_ context: ManagedObjectContext, asFaults: Bool = true) throws
        -> [ManagedObject]
    {
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        r.returnsObjectsAsFaults = asFaults
        return try context.fetch(r)
    }

    final class NoteBox { var note: Notification? }

    @Test(arguments: StoreKind.all)
    func aFiredFaultKeepsItsRowAndReadsAttributesAndToOnesFromIt(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        try context.performAndWait { () throws in
            let all = try employees(context)
            let alpha = all[0]
            let bravo = all[1]
            #expect(alpha.isFault)
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            #expect(!alpha.isFault)
            #expect(alpha.rowValues != nil)
            #expect(alpha.attributeValue(forKey: "salary") == .integer(10))
            // Still the row: reading attributes did not convert it.
            #expect(alpha.rowValues != nil)
            let department = try #require(alpha.value(forKey: "department") as? ManagedObject)
            #expect(department.value(forKey: "name") as? String == "R&D")
            // The to-one's destination is held from its first read on (as a slot holds it).
            #expect(alpha.rowValues == nil)
            // One ID, one object: both employees' to-one is the registered department.
            #expect(bravo.value(forKey: "department") as? ManagedObject === department)
            #expect(context.registeredObject(for: department.objectID) === department)
            #expect(!alpha.hasChanges)
            #expect(alpha.changedValues().isEmpty)
            #expect(alpha.committedValues(forKeys: ["name"])["name"] as? String == "alpha")
        }
    }

    @Test(arguments: StoreKind.all)
    func aFetchThatFillsObjectsKeepsTheirRows(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        try context.performAndWait { () throws in
            let all = try employees(context, asFaults: false)
            #expect(all.allSatisfy { !$0.isFault && $0.rowValues != nil })
            #expect(all.map { $0.value(forKey: "salary") as? Int32 } == [10, 20])
            let departments = all.map { $0.value(forKey: "department") as? ManagedObject }
            #expect(departments[0] != nil && departments[0] === departments[1])
        }
    }

    @Test(arguments: StoreKind.all)
    func aDestinationDeletedInTheContextReadsAsDeletedThenNil(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        try context.performAndWait { () throws in
            let departments = try context.fetch(
                FetchRequest<ManagedObject>(entityName: "Department"))
            let alpha = try employees(context)[0]
            _ = alpha.value(forKey: "name")
            #expect(alpha.rowValues != nil)
            context.delete(departments[0])
            let before = try #require(alpha.value(forKey: "department") as? ManagedObject)
            #expect(before === departments[0] && before.isDeleted)
            // The nullify rule runs at the end of the event and writes the employee's slot.
            context.processPendingChanges()
            #expect(alpha.value(forKey: "department") == nil)
            #expect(alpha.changedValues().keys.sorted() == ["department"])
            let committed = alpha.committedValues(forKeys: ["department"])["department"]
            #expect(committed as? ManagedObject === departments[0])
        }
    }

    /// Regression: the to-one setter wrote the slot without keeping its committed value.
    @Test(arguments: StoreKind.all)
    func settingAToOneKeepsTheCommittedDestinationForRollback(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        try context.performAndWait { () throws in
            let alpha = try employees(context)[0]
            let department = try #require(alpha.value(forKey: "department") as? ManagedObject)
            let other = StaffModel.department("Sales", in: context)
            alpha.setValue(other, forKey: "department")
            let committed = alpha.committedValues(forKeys: ["department"])["department"]
            #expect(committed as? ManagedObject === department)
            context.rollback()
            #expect(alpha.value(forKey: "department") as? ManagedObject === department)
            #expect(!alpha.hasChanges)
        }
    }

    @Test(arguments: StoreKind.all)
    func aWriteAfterAReadKeepsTheCommittedValueAndSaves(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        try context.performAndWait { () throws in
            let alpha = try employees(context)[0]
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            alpha.setValue(11, forKey: "salary")
            // Kept over the row (see `RowOverlayTests`), which stays the committed values.
            #expect(alpha.rowValues != nil && alpha.hasRowOverlay)
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.hasChanges && alpha.isUpdated)
            #expect(alpha.changedValues().keys.sorted() == ["salary"])
            #expect(alpha.changedValues()["salary"] as? Int32 == 11)
            let committed = alpha.committedValues(forKeys: ["salary", "name"])
            #expect(committed["salary"] as? Int32 == 10)
            #expect(committed["name"] as? String == "alpha")
            try context.save()
            #expect(!alpha.hasChanges)
            context.reset()
            #expect(try employees(context)[0].value(forKey: "salary") as? Int32 == 11)
        }
    }

    @Test(arguments: StoreKind.all)
    func aFailedSaveLeavesARowBackedObjectsChangeAsItWas(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        let writer = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        let all = try context.performAndWait { () throws in
            let all = try employees(context)
            for e in all { _ = e.value(forKey: "name") }
            return UncheckedSendable(all)
        }
        try raiseSalaries(to: 99, in: writer)
        try context.performAndWait { () throws in
            let alpha = all.value[0]
            let bravo = all.value[1]
            alpha.setValue("alpha!", forKey: "name")
            let error = #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(error?.code == 133020)
            #expect(alpha.value(forKey: "name") as? String == "alpha!")
            #expect(alpha.changedValues().keys.sorted() == ["name"])
            #expect(alpha.committedValues(forKeys: ["name"])["name"] as? String == "alpha")
            // The other object, only read, still reads its row.
            #expect(bravo.rowValues != nil && !bravo.hasChanges)
            #expect(bravo.value(forKey: "salary") as? Int32 == 20)
        }
    }

    /// Sets every employee's salary to `salary` in `writer` and saves.
    private func raiseSalaries(to salary: Int, in writer: ManagedObjectContext) throws {
        try writer.performAndWait { () throws in
            for e in try employees(writer) { e.setValue(salary, forKey: "salary") }
            try writer.save()
        }
    }

    @Test(arguments: StoreKind.all)
    func refreshingARowBackedObjectReadsTheNewRow(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        let writer = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        let all = try context.performAndWait { () throws in
            let all = try employees(context)
            #expect(all.map { $0.value(forKey: "salary") as? Int32 } == [10, 20])
            return UncheckedSendable(all)
        }
        try raiseSalaries(to: 30, in: writer)
        context.performAndWait {
            let alpha = all.value[0]
            let bravo = all.value[1]
            // Stale until refreshed (the row it was filled from).
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            context.refresh(alpha, mergeChanges: false)
            #expect(alpha.isFault)
            #expect(alpha.value(forKey: "salary") as? Int32 == 30)
            context.refresh(bravo, mergeChanges: true)
            #expect(bravo.value(forKey: "salary") as? Int32 == 30)
            #expect(!bravo.hasChanges)
            // A change kept on top of the fresh row, with the fresh row as committed value.
            bravo.setValue("b", forKey: "name")
        }
        try raiseSalaries(to: 40, in: writer)
        context.performAndWait {
            let bravo = all.value[1]
            context.refresh(bravo, mergeChanges: true)
            #expect(bravo.value(forKey: "salary") as? Int32 == 40)
            #expect(bravo.value(forKey: "name") as? String == "b")
            #expect(bravo.changedValues().keys.sorted() == ["name"])
            #expect(bravo.committedValues(forKeys: ["name"])["name"] as? String == "bravo")
        }
    }

    @Test(arguments: StoreKind.all)
    func aMergedSaveReplacesARowBackedObjectsRow(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        let writer = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        let note = UncheckedSendable(NoteBox())
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: writer, queue: nil
        ) { note.value.note = $0 }
        defer { NotificationCenter.default.removeObserver(token) }
        let read = try context.performAndWait { () throws in
            let alpha = try employees(context)[0]
            let department = try #require(alpha.value(forKey: "department") as? ManagedObject)
            return UncheckedSendable((alpha, department))
        }
        try writer.performAndWait { () throws in
            let e = try employees(writer)[0]
            e.setValue(77, forKey: "salary")
            e.setValue(nil, forKey: "department")
            try writer.save()
        }
        try context.performAndWait { () throws in
            let (alpha, department) = read.value
            context.mergeChanges(fromContextDidSave: try #require(note.value.note))
            #expect(alpha.value(forKey: "salary") as? Int32 == 77)
            #expect(alpha.value(forKey: "department") == nil)
            #expect(!alpha.hasChanges)
            #expect(department.value(forKey: "name") as? String == "R&D")
        }
    }

    @Test(arguments: StoreKind.all)
    func undoingTheFirstWriteOfARowBackedObjectRestoresItsRowsValue(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        try context.performAndWait { () throws in
            context.undoManager = ObjectGraphUndoManager()
            let alpha = try employees(context)[0]
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            context.processPendingChanges()
            alpha.setValue(12, forKey: "salary")
            context.processPendingChanges()
            #expect(alpha.hasChanges)
            context.undo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(!alpha.hasChanges)
            #expect(!context.hasChanges)
            context.redo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 12)
            #expect(alpha.changedValues()["salary"] as? Int32 == 12)
        }
    }

    @Test(arguments: StoreKind.all)
    func aChildContextReadsAndSavesOverARowBackedObject(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        let read = try context.performAndWait { () throws in
            let alpha = try employees(context)[0]
            let department = try #require(
                context.fetch(FetchRequest<ManagedObject>(entityName: "Department")).first)
            _ = alpha.value(forKey: "name")
            #expect(alpha.rowValues != nil)
            return UncheckedSendable((alpha, department))
        }
        let id = context.performAndWait { read.value.0.objectID }
        let departmentID = context.performAndWait { read.value.1.objectID }
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = context
        try child.performAndWait { () throws in
            let mine = try child.existingObject(with: id)
            #expect(mine.value(forKey: "name") as? String == "alpha")
            // A child fills from its parent's objects: it keeps slots, not a row.
            #expect(mine.rowValues == nil)
            let d = mine.value(forKey: "department") as? ManagedObject
            #expect(d?.objectID == departmentID)
            mine.setValue(15, forKey: "salary")
            try child.save()
        }
        context.performAndWait {
            let (alpha, department) = read.value
            #expect(alpha.value(forKey: "salary") as? Int32 == 15)
            #expect(alpha.changedValues().keys.sorted() == ["salary"])
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
            #expect(alpha.value(forKey: "department") as? ManagedObject === department)
        }
    }

    @Test(arguments: StoreKind.all)
    func aSavedDeletionOfARowBackedObjectKeepsItsValues(_ kind: StoreKind) throws {
        let context = try savedStaff(kind)
        try context.performAndWait { () throws in
            let alpha = try employees(context)[0]
            let department = try #require(
                context.fetch(FetchRequest<ManagedObject>(entityName: "Department")).first)
            _ = alpha.value(forKey: "name")
            #expect(alpha.rowValues != nil)
            context.delete(alpha)
            try context.save()
            #expect(alpha.managedObjectContext == nil)
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            #expect(alpha.value(forKey: "department") as? ManagedObject === department)
            let left = department.value(forKey: "employees") as? Set<ManagedObject>
            #expect(left?.map { $0.value(forKey: "name") as? String } == ["bravo"])
        }
    }

    /// A deleted object that still keeps its row when its save ends resolves its to-ones
    /// while the objects deleted with it are still registered: its to-one (without an
    /// inverse, so the deletion never reads it) to a destination deleted in the same save
    /// reads that object after the save, and no fault is registered for the gone row.
    @Test(arguments: StoreKind.all)
    func aDeletedObjectsToOneToADestinationDeletedWithItReadsThatObject(_ kind: StoreKind)
        throws
    {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Desk", properties: [AttributeDescription(name: "name", type: .string)]),
            EntityDescription(
                name: "Worker",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(name: "desk", destination: "Desk"),
                ]),
        ])
        let stack = try Stack(model, on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let desk = context.insertNewObject(forEntityName: "Desk")
            desk.setValue("oak", forKey: "name")
            let worker = context.insertNewObject(forEntityName: "Worker")
            worker.setValue("ann", forKey: "name")
            worker.setValue(desk, forKey: "desk")
            try context.save()
            context.reset()
            let w = try #require(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Worker")).first)
            let d = try #require(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Desk")).first)
            #expect(w.value(forKey: "name") as? String == "ann")
            context.delete(w)
            context.delete(d)
            context.processPendingChanges()
            // The deletion did not read the to-one: the worker still keeps its row.
            #expect(w.rowValues != nil)
            try context.save()
            #expect(context.registeredObject(for: d.objectID) == nil)
            #expect(w.value(forKey: "desk") as? ManagedObject === d)
        }
    }
}
