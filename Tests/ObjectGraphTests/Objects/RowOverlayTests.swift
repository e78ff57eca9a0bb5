import Foundation
import Testing

@testable import ObjectGraph

/// An object that keeps its store row and has attributes written keeps the row as its
/// committed values and records only the written values over it (`RowOverlay`); a save hands
/// the row to the store to patch in place and takes the patched row back. Each behaviour runs
/// with the row kept and with the row converted into slots before the writes (the path every
/// write took before), on both stores, and both must answer the same.
@Suite struct RowOverlayTests {
    /// A stack on a fresh store of `kind` holding the department "R&D" with employees alpha
    /// (salary 10) and bravo (20). The inserting context is reset: its saved inserts would
    /// otherwise keep sharing the store's rows (a row another object shares is copied by the
    /// store's patch, as it must be).
    private static func staff(_ kind: StoreKind, failing: Bool = false) throws -> Stack {
        let stack = try Stack(try StaffModel.make(), on: kind, failing: failing)
        let context = stack.context()
        try context.performAndWait { try StaffModel.seedRnD(in: context) }
        return stack
    }

    /// The employees of `context`, by name, their rows converted into slots when `converted`.
    private static func employees(_ context: ManagedObjectContext, converted: Bool) throws
        -> [ManagedObject]
    {
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        let all = try context.fetch(r)
        for e in all {
            _ = e.value(forKey: "name")
            if converted { e.materialiseRow() }
            #expect((e.rowValues != nil) == !converted)
        }
        return all
    }

    /// Runs `body` in a new context of a ``staff(_:failing:)`` stack, with the employees
    /// fetched (their rows converted when `converted`) and alpha's salary written 11; returns
    /// the stack.
    @discardableResult
    private static func withAlphaWritten(
        _ kind: StoreKind, converted: Bool, failing: Bool = false,
        _ body: (Stack, ManagedObjectContext, [ManagedObject]) throws -> Void
    ) throws -> Stack {
        let stack = try staff(kind, failing: failing)
        let context = stack.context()
        try context.performAndWait { () throws in
            let all = try employees(context, converted: converted)
            all[0].setValue(11, forKey: "salary")
            try body(stack, context, all)
        }
        return stack
    }

    /// Holds the did-save notification an observer receives.
    final class NoteBox { var note: Notification? }

    /// Whether `object` keeps the store's own array of values (the same buffer).
    private static func sharesStoreRow(_ object: ManagedObject, _ stack: Stack) throws -> Bool {
        guard let kept = object.rowValues,
            let stored = try stack.baseStore.row(for: object.objectID)?.values
        else { return false }
        let a = kept.withUnsafeBufferPointer { $0.baseAddress }
        let b = stored.withUnsafeBufferPointer { $0.baseAddress }
        return a != nil && a == b
    }

    /// The stored salary of the employee named `name`.
    private static func storedSalary(_ stack: Stack, _ name: String) throws -> AttributeValue? {
        for row in try stack.rows("Employee") where row.values[0] == .attribute(.string(name)) {
            if case .attribute(let v) = row.values[1] { return v }
        }
        return nil
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aWriteReadsOverTheRowWhichStaysTheCommittedValues(_ kind: StoreKind, converted: Bool)
        throws
    {
        try Self.withAlphaWritten(kind, converted: converted) { stack, context, all in
            let alpha = all[0]
            #expect(alpha.hasRowOverlay == !converted)
            #expect(try Self.sharesStoreRow(alpha, stack) == !converted)
            // No snapshot entry: the row holds the committed value.
            #expect(alpha.snapshot?.kept.isEmpty == !converted)
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.attributeValue(forKey: "salary") == .integer(11))
            #expect(alpha.hasChanges && alpha.isUpdated && alpha.hasPersistentChangedValues)
            #expect(alpha.changedValues().keys.sorted() == ["salary"])
            #expect(alpha.changedValues()["salary"] as? Int32 == 11)
            let committed = alpha.committedValues(forKeys: nil)
            #expect(committed["salary"] as? Int32 == 10)
            #expect(committed["name"] as? String == "alpha")
            // Predicates over in-memory objects see the written value.
            let p = try FetchPredicate(format: "salary == 11").compile(for: alpha.entity)
            #expect(p.evaluate(ObjectRecord(alpha)))
            // A second write of the slot replaces the first; the committed value stays.
            alpha.setValue(12, forKey: "salary")
            #expect(alpha.value(forKey: "salary") as? Int32 == 12)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
            if case .overlay(let overlay)? = alpha.faultSource {
                #expect(overlay.count == 1)
            }
            // Writing the committed value back reads as it did with slots: still changed.
            alpha.setValue(10, forKey: "salary")
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(alpha.hasChanges && alpha.changedValues()["salary"] as? Int32 == 10)
            // A to-one write after it converts the row: the written value survives.
            alpha.setValue(13, forKey: "salary")
            let sales = StaffModel.department("Sales", in: context)
            let rnd = alpha.value(forKey: "department") as? ManagedObject
            alpha.setValue(sales, forKey: "department")
            #expect(alpha.rowValues == nil && !alpha.hasRowOverlay)
            #expect(alpha.value(forKey: "salary") as? Int32 == 13)
            let after = alpha.committedValues(forKeys: ["salary", "department"])
            #expect(after["salary"] as? Int32 == 10)
            #expect(after["department"] as? ManagedObject === rnd)
            #expect(alpha.changedValues().keys.sorted() == ["department", "salary"])
            context.rollback()
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(alpha.value(forKey: "department") as? ManagedObject === rnd)
            #expect(!alpha.hasChanges)
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aSaveLeavesTheValuesHeldOnceInTheStoresPatchedRow(_ kind: StoreKind, converted: Bool)
        throws
    {
        let stack = try Self.withAlphaWritten(kind, converted: converted) { stack, context, all in
            let before = all[0].rowValues?.withUnsafeBufferPointer { $0.baseAddress }
            try context.save()
            let alpha = all[0]
            #expect(!alpha.hasChanges && !alpha.isUpdated && !alpha.hasRowOverlay)
            #expect(alpha.changedValues().isEmpty)
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 11)
            #expect(alpha.snapshotVersion == 2)
            if !converted {
                // The store's own row, patched in place (not copied: the object let go of
                // it for the patch), is the object's values.
                #expect(alpha.rowValues?.withUnsafeBufferPointer { $0.baseAddress } == before)
                #expect(try Self.sharesStoreRow(alpha, stack))
                #expect(try Self.sharesStoreRow(all[1], stack))
            }
            #expect(try Self.storedSalary(stack, "alpha") == .integer(11))
            #expect(try Self.storedSalary(stack, "bravo") == .integer(20))
            // A later write is kept over the new row, and saves again.
            alpha.setValue(12, forKey: "salary")
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 11)
            try context.save()
            #expect(try Self.storedSalary(stack, "alpha") == .integer(12))
        }
        let fresh = stack.context()
        try fresh.performAndWait { () throws in
            let alpha = try Self.employees(fresh, converted: false)[0]
            #expect(alpha.value(forKey: "salary") as? Int32 == 12)
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aFailedSaveLeavesTheObjectExactlyAsItWas(_ kind: StoreKind, converted: Bool) throws {
        try Self.withAlphaWritten(kind, converted: converted, failing: true) {
            stack, context, all in
            let failing = try #require(stack.store as? FailingStore)
            let alpha = all[0]
            let row = alpha.rowValues?.withUnsafeBufferPointer { $0.baseAddress }
            failing.failing = true
            #expect(throws: ObjectGraphError.self) { try context.save() }
            #expect(alpha.rowValues?.withUnsafeBufferPointer { $0.baseAddress } == row)
            #expect(alpha.hasRowOverlay == !converted)
            #expect(alpha.hasChanges && alpha.changedValues()["salary"] as? Int32 == 11)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
            #expect(try Self.storedSalary(stack, "alpha") == .integer(10))
            failing.failing = false
            try context.save()
            #expect(!alpha.hasChanges && alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(try Self.storedSalary(stack, "alpha") == .integer(11))
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aFailedValidationLeavesTheObjectAsItWas(_ kind: StoreKind, converted: Bool) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Employee",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "salary", type: .integer32, maxValue: .integer(100)),
                ])
        ])
        let stack = try Stack(model, on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let alpha = context.insertNewObject(forEntityName: "Employee")
            alpha.setValue("alpha", forKey: "name")
            alpha.setValue(10, forKey: "salary")
            try context.save()
        }
        let other = stack.context()
        try other.performAndWait { () throws in
            let alpha = try Self.employees(other, converted: converted)[0]
            alpha.setValue(500, forKey: "salary")
            #expect(throws: ObjectGraphError.self) { try other.save() }
            #expect(alpha.hasRowOverlay == !converted)
            #expect(alpha.value(forKey: "salary") as? Int32 == 500)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func refreshEitherWayAndUndoSeeTheWrittenValue(_ kind: StoreKind, converted: Bool) throws {
        let stack = try Self.withAlphaWritten(kind, converted: converted) { _, context, all in
            let (alpha, bravo) = (all[0], all[1])
            context.refresh(alpha, mergeChanges: true)
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
            #expect(alpha.hasChanges)
            bravo.setValue(21, forKey: "salary")
            context.refresh(bravo, mergeChanges: false)
            #expect(bravo.isFault && !bravo.hasChanges)
            #expect(bravo.value(forKey: "salary") as? Int32 == 20)
        }
        let undoing = stack.context()
        try undoing.performAndWait { () throws in
            undoing.undoManager = ObjectGraphUndoManager()
            let alpha = try Self.employees(undoing, converted: converted)[0]
            alpha.setValue(15, forKey: "salary")
            undoing.processPendingChanges()
            undoing.undoManager?.undo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(!alpha.hasChanges)
            undoing.undoManager?.redo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 15)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aPrimitiveSetIsNoChangeAndTheEventsOldValueIsTheCommittedOne(
        _ kind: StoreKind, converted: Bool
    ) throws {
        try Self.withAlphaWritten(kind, converted: converted) { _, _, all in
            let alpha = all[0]
            #expect(alpha.primitiveValue(forKey: "salary") as? Int32 == 11)
            #expect(alpha.changedValuesForCurrentEvent()["salary"] as? Int32 == 10)
            alpha.setPrimitiveValue("al", forKey: "name")
            #expect(alpha.value(forKey: "name") as? String == "al")
            #expect(alpha.changedValues().keys.sorted() == ["salary"])
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
        }
    }

    @Test(
        arguments: StoreKind.all,
        [
            MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite,
            .rollback,
        ])
    func aConflictWithAnotherSaveResolvesAsWithSlots(_ kind: StoreKind, policy: MergePolicy)
        throws
    {
        var outcomes: [[String]] = []
        for converted in [false, true] {
            let stack = try Self.staff(kind)
            let mine = stack.context()
            let theirs = stack.context()
            try mine.performAndWait { () throws in
                let alpha = try Self.employees(mine, converted: converted)[0]
                alpha.setValue(11, forKey: "salary")
                try theirs.performAndWait { () throws in
                    let a = try Self.employees(theirs, converted: false)[0]
                    a.setValue(30, forKey: "salary")
                    a.setValue("alef", forKey: "name")
                    try theirs.save()
                }
                // The error policy refuses and leaves the object as it was.
                #expect(throws: ObjectGraphError.self) { try mine.save() }
                #expect(alpha.value(forKey: "salary") as? Int32 == 11)
                #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
                mine.mergePolicy = policy
                try mine.save()
                outcomes.append([
                    "\(alpha.value(forKey: "salary") ?? "nil")",
                    "\(alpha.value(forKey: "name") ?? "nil")", "\(alpha.hasChanges)",
                    "\(try Self.storedSalary(stack, "alef") ?? Self.storedSalary(stack, "alpha") ?? .null)",
                ])
            }
        }
        #expect(outcomes[0] == outcomes[1])
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aMergeOfAnotherContextsSaveKeepsTheWrittenValueOnTop(_ kind: StoreKind, converted: Bool)
        throws
    {
        let stack = try Self.staff(kind)
        let mine = stack.context()
        let theirs = stack.context()
        try mine.performAndWait { () throws in
            let all = try Self.employees(mine, converted: converted)
            let (alpha, bravo) = (all[0], all[1])
            alpha.setValue(11, forKey: "salary")
            bravo.setValue(21, forKey: "salary")
            let note = UncheckedSendable(NoteBox())
            let token = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: theirs,
                queue: nil
            ) { note.value.note = $0 }
            defer { NotificationCenter.default.removeObserver(token) }
            try theirs.performAndWait { () throws in
                let e = try Self.employees(theirs, converted: false)
                e[0].setValue("alef", forKey: "name")  // a slot alpha did not write
                e[1].setValue(40, forKey: "salary")  // the slot bravo wrote
                try theirs.save()
            }
            mine.mergeChanges(fromContextDidSave: try #require(note.value.note))
            #expect(alpha.value(forKey: "name") as? String == "alef")
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 10)
            #expect(bravo.value(forKey: "salary") as? Int32 == 21)
            #expect(bravo.committedValues(forKeys: ["salary"])["salary"] as? Int32 == 40)
            #expect(alpha.hasChanges && bravo.hasChanges)
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aChildsSaveAndAFetchedResultsControllerSeeTheWrite(_ kind: StoreKind, converted: Bool)
        throws
    {
        try Self.withAlphaWritten(kind, converted: converted) { stack, parent, all in
            let alpha = all[0]
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            try child.performAndWait { () throws in
                let a = try child.existingObject(with: alpha.objectID)
                #expect(a.value(forKey: "salary") as? Int32 == 11)
                a.setValue("alef", forKey: "name")
                try child.save()
            }
            #expect(alpha.value(forKey: "name") as? String == "alef")
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.changedValues().keys.sorted() == ["name", "salary"])
            let r = FetchRequest<ManagedObject>(entityName: "Employee")
            r.predicate = try FetchPredicate(format: "salary == 11")
            r.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let frc = FetchedResultsController(
                fetchRequest: r, managedObjectContext: parent, sectionNameKeyPath: nil,
                cacheName: nil)
            try frc.performFetch()
            #expect(frc.fetchedObjects?.count == 1 && frc.fetchedObjects?[0] === alpha)
            try parent.save()
            #expect(try Self.storedSalary(stack, "alef") == .integer(11))
        }
    }

    /// The overlay lives in a field a filled object does not use: no object grows.
    @Test func theOverlayTakesNoFieldOfItsOwn() {
        #expect(MemoryLayout<FaultSource?>.size == 8)
        #expect(MemoryLayout<RowOverlay>.size == 8)
    }
}
