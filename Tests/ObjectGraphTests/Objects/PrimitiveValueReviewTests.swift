import Foundation
import Testing

@testable import ObjectGraph

// PrimitiveValueTests, continued: what a bare primitive set must not become later (undo,
// merge policies), key-path probes through custom getters, the event baselines' lifetime and
// timing, the will/did pair's open changes, and relationships of every shape.
extension PrimitiveValueTests {
    // MARK: A bare primitive set stays no change

    // https://developer.apple.com/documentation/coredata/nsmanagedobject/setprimitivevalue(_:forkey:):
    // "This method does not invoke the change notification methods", so the undo manager
    // (which Core Data feeds from those notifications) never hears of it: undoing another
    // change neither makes it a change nor takes it back.
    @Test(arguments: StoreKind.all)
    func undoingOtherChangesLeavesABarePrimitiveSetUnsaved(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            context.undoManager = ObjectGraphUndoManager()
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setPrimitiveValue("zed", forKey: "name")
            alpha.setValue(11, forKey: "salary")
            context.processPendingChanges()
            context.undo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 10)
            #expect(alpha.value(forKey: "name") as? String == "zed")
            #expect(!alpha.hasChanges && !context.hasChanges)
            #expect(alpha.changedValues().isEmpty)
            try context.save()
        }
        #expect(try Self.stored(stack, "Employee", "name") as? [String] == ["alpha", "bravo"])
    }

    // The same with an undo baseline from an earlier event: the bare set does not join the
    // next group, so undoing that group leaves it in place.
    @Test(arguments: StoreKind.all)
    func aBarePrimitiveSetDoesNotJoinTheNextUndoGroup(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            context.undoManager = ObjectGraphUndoManager()
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setValue(11, forKey: "salary")
            context.processPendingChanges()
            alpha.setPrimitiveValue("zed", forKey: "name")
            alpha.setValue(12, forKey: "salary")
            context.processPendingChanges()
            context.undo()
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.value(forKey: "name") as? String == "zed")
            #expect(alpha.changedValues().keys.sorted() == ["salary"])
            context.undo()
            #expect(!alpha.hasChanges)
            try context.save()
        }
        #expect(try Self.stored(stack, "Employee", "name") as? [String] == ["alpha", "bravo"])
    }

    // NSOverwriteMergePolicy writes the object's state as the context knows it: a bare
    // primitive value is not part of it (the property's committed value is written).
    @Test(arguments: StoreKind.all)
    func theOverwritePolicyDoesNotSaveABarePrimitiveSet(_ kind: StoreKind) throws {
        let stack = try Self.savedStaff(kind)
        let mine = stack.context()
        mine.mergePolicy = .overwrite
        try mine.performAndWait { () throws in
            let alpha = try Self.fetch("Employee", mine)[0]
            alpha.setPrimitiveValue("zed", forKey: "name")
            alpha.setValue(11, forKey: "salary")
        }
        let theirs = stack.context()
        try theirs.performAndWait { () throws in
            try Self.fetch("Employee", theirs)[0].setValue(50, forKey: "salary")
            try theirs.save()
        }
        try mine.performAndWait { () throws in try mine.save() }
        #expect(try Self.stored(stack, "Employee", "name") as? [String] == ["alpha", "bravo"])
        #expect(try Self.stored(stack, "Employee", "salary") as? [Int32] == [11, 20])
    }

    // MARK: Key-path probes

    // A Foundation SortDescriptor or #Predicate on a custom getter (the porting article's
    // Employee.name) reads it on a probe: the key resolves instead of trapping on the probe's
    // entity; a getter of another type does not resolve and throws, as any computed property.
    @Test func aKeyPathThroughACustomStringGetterResolvesToItsKey() throws {
        let sort = try FetchSortDescriptor(SortDescriptor(\PrimEmployee.name))
        #expect(sort.key == "name")
        #expect(FetchSortDescriptor(keyPath: \PrimEmployee.name).key == "name")
        let predicate = try FetchPredicate(
            translating: #Predicate<PrimEmployee> { $0.name == "alpha" })
        #expect(predicate.description == #"name == "alpha""#)
        #expect(KeyPathProbe.resolve(\PrimEmployee.department, rootType: PrimEmployee.self) == nil)
    }

    // MARK: changedValuesForCurrentEvent()

    // An objects-did-change observer that writes starts the next event: the value it
    // replaces is that event's old value (Apple: the old values of the properties changed
    // "since the last posting of NSManagedObjectContextObjectsDidChange").
    @Test(arguments: StoreKind.all)
    func aWriteByAnObserverIsAChangeOfTheNextEvent(_ kind: StoreKind) throws {
        let stack = try Self.savedStaff(kind)
        let context = stack.context()
        final class Box: @unchecked Sendable {
            var writes = 0
            var seen: [[String: Any]] = []
        }
        let box = Box()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didChangeObjectsNotification, object: context, queue: nil
        ) { note in
            for o in (note.userInfo?[NSUpdatedObjectsKey] as? Set<ManagedObject>) ?? [] {
                box.seen.append(o.changedValuesForCurrentEvent())
                if box.writes == 0 {
                    box.writes += 1
                    o.setValue("X", forKey: "name")
                }
            }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        try context.performAndWait { () throws in
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setValue("alice", forKey: "name")
            context.processPendingChanges()
            #expect(alpha.changedValuesForCurrentEvent()["name"] as? String == "alice")
            context.processPendingChanges()
            #expect(box.seen.count == 2)
            #expect(box.seen.last?["name"] as? String == "alice")
        }
    }

    // A refresh that turns the object into a fault drops its changes: its next event compares
    // with the store's values, not with what an earlier event left.
    @Test(arguments: StoreKind.all)
    func afterARefreshTheNextEventComparesWithTheStoresValues(_ kind: StoreKind) throws {
        try Self.inSavedStaff(kind) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setValue("alice", forKey: "name")
            context.processPendingChanges()
            context.refresh(alpha, mergeChanges: false)
            alpha.setValue("ally", forKey: "name")
            #expect(alpha.changedValuesForCurrentEvent()["name"] as? String == "alpha")
        }
    }

    // An undone insert is never announced again: what the last posting kept for it goes.
    @Test func anUndoneInsertLeavesNoEventBaseline() throws {
        try Self.inSavedStaff(.inMemory) { context in
            context.undoManager = ObjectGraphUndoManager()
            let e = context.insertNewObject(forEntityName: "Employee")
            e.setValue("new", forKey: "name")
            context.processPendingChanges()
            #expect(context.eventBaselines[ObjectIdentifier(e)] != nil)
            context.undo()
            #expect(e.managedObjectContext == nil)
            #expect(context.eventBaselines[ObjectIdentifier(e)] == nil)
        }
    }

    // The baseline keeps the values of the slots changed at the posting only; a slot
    // unchanged then compares with its committed value.
    @Test func theEventBaselineKeepsOnlyTheChangedSlots() throws {
        try Self.inSavedStaff(.inMemory) { context in
            let alpha = try Self.fetch("Employee", context)[0]
            alpha.setValue("alice", forKey: "name")
            context.processPendingChanges()
            let kept = context.eventBaselines[ObjectIdentifier(alpha)]?.kept.map(\.slot)
            #expect(kept == [alpha.entity.propertiesByName["name"]!.index])
            alpha.setValue(12, forKey: "salary")
            alpha.setValue("ally", forKey: "name")
            let event = alpha.changedValuesForCurrentEvent()
            #expect(event["salary"] as? Int32 == 10)
            #expect(event["name"] as? String == "alice")
        }
    }

    // MARK: Open will/did-change pairs

    // A willChangeValue left open is kept by the context, not the process: dropped by a save
    // of changes, rollback and reset, and gone with the context (the object is then freed).
    @Test func anOpenChangeIsDroppedAtSaveRollbackAndResetAndGoesWithItsContext() throws {
        let stack = try Self.savedStaff(.inMemory)
        weak var held: ManagedObject?
        do {
            let context = stack.context()
            try context.performAndWait { () throws in
                let staff = try Self.fetch("Employee", context)
                let (alpha, bravo) = (staff[0], staff[1])
                alpha.willChangeValue(forKey: "name")
                alpha.setPrimitiveValue("zed", forKey: "name")
                bravo.setValue(21, forKey: "salary")
                try context.save()
                #expect(context.openChanges.isEmpty)
                // Its did now finds no noted value: the property is marked changed.
                alpha.didChangeValue(forKey: "name")
                #expect(alpha.changedValues()["name"] as? String == "zed")
                bravo.willChangeValue(forKey: "salary")
                context.rollback()
                #expect(context.openChanges.isEmpty)
                bravo.willChangeValue(forKey: "salary")
                context.reset()
                #expect(context.openChanges.isEmpty)
                let fresh = try Self.fetch("Employee", context)[1]
                fresh.willChangeValue(forKey: "salary")
                held = fresh
            }
        }
        #expect(held == nil)
    }

    // An object without a context notes nothing: the pair marks the property changed (it
    // is saved with the insert) and maintains no inverse, as an unbalanced did does.
    @Test(arguments: StoreKind.all)
    func thePairOnAnObjectWithoutAContextMarksTheChangeOnly(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            let entity = try #require(context.model.entitiesByName["Employee"])
            let detached = PrimEmployee(entity: entity, insertInto: nil)
            detached.name = "charlie"
            #expect(detached.changedSlots.contains(entity.propertiesByName["name"]!.index))
            let rnd = try Self.fetch("Department", context)[0]
            context.insert(detached)
            detached.department = rnd
            try context.save()
        }
        #expect(
            try Self.stored(stack, "Employee", "name") as? [String] == [
                "alpha", "bravo", "charlie",
            ])
    }

    // MARK: Relationships of every shape

    // A bare to-many set changes the object's members only: the inverse is left alone and
    // nothing is saved.
    @Test(arguments: StoreKind.all)
    func aBareToManySetLeavesTheInverseAloneAndSavesNothing(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            let rnd = try Self.fetch("Department", context)[0]
            let alpha = try Self.fetch("Employee", context)[0]
            rnd.setPrimitiveValue(Set<ManagedObject>(), forKey: "employees")
            #expect((rnd.value(forKey: "employees") as? Set<ManagedObject>)?.isEmpty == true)
            #expect(alpha.value(forKey: "department") as? ManagedObject === rnd)
            #expect(!rnd.hasChanges && !alpha.hasChanges)
            try context.save()
        }
        #expect(try Self.stored(stack, "Employee", "department") as? [String] == ["R&D", "R&D"])
    }

    // Review finding 6: a to-many's primitive value is a copy (Core Data's is a live mutable
    // set); changing it changes nothing until it is set.
    @Test func aToManyPrimitiveValueIsACopyToSetBack() throws {
        try Self.inSavedStaff(.inMemory) { context in
            let rnd = try Self.fetch("Department", context)[0]
            let ops = context.insertNewObject(forEntityName: "Employee")
            ops.setValue("ops", forKey: "name")
            var members = try #require(
                rnd.primitiveValue(forKey: "employees") as? Set<ManagedObject>)
            #expect(rnd.primitiveValue(forKey: "employees") as? NSMutableSet == nil)
            members.insert(ops)
            #expect((rnd.primitiveValue(forKey: "employees") as? Set<ManagedObject>)?.count == 2)
            rnd.willChangeValue(forKey: "employees", withSetMutation: .union, using: [ops])
            rnd.setPrimitiveValue(members, forKey: "employees")
            rnd.didChangeValue(forKey: "employees", withSetMutation: .union, using: [ops])
            #expect((rnd.primitiveValue(forKey: "employees") as? Set<ManagedObject>)?.count == 3)
            #expect(ops.value(forKey: "department") as? ManagedObject === rnd)
        }
    }

    // An ordered to-many through the primitive methods (an array, in order) and a
    // many-to-many through the will/did pair: both inverses kept in step, saved in order.
    @Test(arguments: StoreKind.all)
    func anOrderedManyToManyThroughThePairKeepsOrderAndInverses(_ kind: StoreKind) throws {
        let stack = try Self.inSavedStaff(kind) { context in
            let staff = try Self.fetch("Employee", context)
            let (alpha, bravo) = (staff[0], staff[1])
            let project = context.insertNewObject(forEntityName: "Project")
            project.setValue("P", forKey: "name")
            project.willChangeValue(forKey: "members")
            project.setPrimitiveValue([bravo, alpha], forKey: "members")
            project.didChangeValue(forKey: "members")
            #expect(
                project.primitiveValue(forKey: "members") as? [ManagedObject] == [bravo, alpha])
            #expect((alpha.value(forKey: "projects") as? Set<ManagedObject>) == [project])
            #expect((bravo.value(forKey: "projects") as? Set<ManagedObject>) == [project])
            try context.save()
            project.willChangeValue(forKey: "members")
            project.setPrimitiveValue([alpha], forKey: "members")
            project.didChangeValue(forKey: "members")
            #expect((bravo.value(forKey: "projects") as? Set<ManagedObject>)?.isEmpty == true)
            try context.save()
        }
        let reopened = try stack.reopen()
        let context = reopened.context()
        try context.performAndWait { () throws in
            let project = try Self.fetch("Project", context)[0]
            let members = try #require(project.value(forKey: "members") as? [ManagedObject])
            #expect(members.map { $0.value(forKey: "name") as? String } == ["alpha"])
        }
    }

    // A child context's save carries a paired change (and its inverse) up to its parent,
    // and the parent's save to the store.
    @Test(arguments: StoreKind.all)
    func aChildContextsSaveCarriesAPairedChange(_ kind: StoreKind) throws {
        let stack = try Self.savedStaff(kind)
        let parent = stack.context()
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        try child.performAndWait { () throws in
            let alpha = try #require(try Self.fetch("Employee", child)[0] as? PrimEmployee)
            let ops = child.insertNewObject(forEntityName: "Department")
            ops.setValue("Ops", forKey: "name")
            alpha.name = "alice"
            alpha.department = ops
            try child.save()
        }
        try parent.performAndWait { () throws in
            let alpha = try #require(try Self.fetch("Employee", parent)[0] as? PrimEmployee)
            #expect(alpha.name == "alice")
            #expect(alpha.changedValues().keys.sorted() == ["department", "name"])
            let ops = try #require(alpha.department)
            #expect((ops.value(forKey: "employees") as? Set<ManagedObject>) == [alpha])
            try parent.save()
        }
        #expect(try Self.stored(stack, "Employee", "department") as? [String] == ["Ops", "R&D"])
    }
}
