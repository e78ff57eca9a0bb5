import Foundation
import Testing

@testable import ObjectGraph

/// An object's ``ManagedObject/managedObjectContext`` names its context while the object is
/// in it and reads `nil` once it left, by any path a user can take (reset, a saved delete, an
/// undone insert) and once the context itself is freed while the object lives on, whatever
/// state the object was in (fault, changed, inserted, deleted, discarded, refreshed, swept
/// and fetched again, kept by `retainsRegisteredObjects`, in a child context).
@Suite struct ContextReferenceTests {
    /// Runs `first` then, in a later event (the objects handed out in the first let go),
    /// `body` on a new context of `kind` seeded with R&D, alpha and bravo (reset, so every
    /// object is fetched anew), frees the context and returns what `body` returned.
    private static func afterFreeing<T>(
        _ kind: StoreKind, first: (ManagedObjectContext) throws -> Void = { _ in },
        then body: (ManagedObjectContext) throws -> T
    ) throws -> T {
        var context: ManagedObjectContext? = try StaffModel.context(kind)
        weak var freed: ManagedObjectContext?
        try context!.performAndWait { () throws in
            try StaffModel.seedRnD(in: context!)
            try first(context!)
        }
        let result = try context!.performAndWait { () throws in
            UncheckedSendable(try body(context!))
        }
        freed = context
        context = nil
        #expect(freed == nil, "the context is freed")
        return result.value
    }

    /// Alpha and bravo of the seeded store, fetched as faults, by name.
    private static func employees(_ context: ManagedObjectContext) throws -> [String: ManagedObject]
    {
        let request = FetchRequest<ManagedObject>(entityName: "Employee")
        request.returnsObjectsAsFaults = true
        var byName: [String: ManagedObject] = [:]
        for object in try context.fetch(request) {
            byName[object.value(forKey: "name") as! String] = object
        }
        return byName
    }

    @Test(arguments: StoreKind.all)
    func objectsInEveryStateHeldOutsideAFreedContextReadNoContext(_ kind: StoreKind) throws {
        let objects = try Self.afterFreeing(kind) { context in
            let staff = try Self.employees(context)
            let alpha = try #require(staff["alpha"])
            let bravo = try #require(staff["bravo"])
            alpha.setValue(11, forKey: "salary")
            context.delete(bravo)
            let department = try #require(alpha.value(forKey: "department") as? ManagedObject)
            let charlie = StaffModel.employee("charlie", salary: 30, in: context)
            let discarded = StaffModel.employee("delta", salary: 40, in: context)
            context.delete(discarded)
            context.processPendingChanges()
            let fault = context.object(with: department.objectID)
            let all = [alpha, bravo, department, charlie, discarded, fault]
            for object in all { #expect(object.managedObjectContext === context) }
            return all
        }
        for object in objects { #expect(object.managedObjectContext == nil) }
        #expect(objects[3].value(forKey: "name") as? String == "charlie")
    }

    @Test(arguments: StoreKind.all)
    func savedDeletesAndResetObjectsReadNoContextBeforeAndAfterTheContextIsFreed(
        _ kind: StoreKind
    ) throws {
        let left = try Self.afterFreeing(kind) { context in
            let staff = try Self.employees(context)
            let alpha = try #require(staff["alpha"])
            let bravo = try #require(staff["bravo"])
            context.delete(alpha)
            #expect(alpha.managedObjectContext === context, "deleted, not saved: still in it")
            try context.save()
            #expect(alpha.managedObjectContext == nil)
            #expect(bravo.managedObjectContext === context)
            context.reset()
            #expect(bravo.managedObjectContext == nil)
            return [alpha, bravo]
        }
        for object in left { #expect(object.managedObjectContext == nil) }
    }

    @Test(arguments: StoreKind.all)
    func anObjectRefreshedToAFaultKeepsItsContextUntilTheContextIsFreed(_ kind: StoreKind) throws {
        let alpha = try Self.afterFreeing(kind) { context in
            let alpha = try #require(try Self.employees(context)["alpha"])
            alpha.setValue(12, forKey: "salary")
            context.refresh(alpha, mergeChanges: false)
            #expect(alpha.isFault)
            #expect(alpha.managedObjectContext === context)
            return alpha
        }
        #expect(alpha.managedObjectContext == nil)
    }

    @Test(arguments: StoreKind.all)
    func anObjectSweptAndFetchedAgainIsInItsContextUntilTheContextIsFreed(_ kind: StoreKind)
        throws
    {
        var id: ManagedObjectID?
        let again = try Self.afterFreeing(
            kind,
            first: { context in id = try #require(try Self.employees(context)["alpha"]).objectID },
            then: { context in
                let id = try #require(id)
                context.registry.sweep()
                #expect(context.registeredObject(for: id) == nil, "only the registry held it")
                let again = try context.existingObject(with: id)
                #expect(again.managedObjectContext === context)
                #expect(again.value(forKey: "name") as? String == "alpha")
                return again
            })
        #expect(again.managedObjectContext == nil)
    }

    @Test(arguments: StoreKind.all)
    func anObjectKeptByRetainsRegisteredObjectsReadsNoContextOnceTheContextIsFreed(
        _ kind: StoreKind
    ) throws {
        var id: ManagedObjectID?
        let bravo = try Self.afterFreeing(
            kind,
            first: { context in
                context.retainsRegisteredObjects = true
                id = try #require(try Self.employees(context)["bravo"]).objectID
            },
            then: { context in
                let id = try #require(id)
                context.registry.sweep()
                let bravo = try #require(context.registeredObject(for: id), "kept by the context")
                #expect(bravo.managedObjectContext === context)
                return bravo
            })
        #expect(bravo.managedObjectContext == nil)
    }

    @Test(arguments: StoreKind.all)
    func undoneAndRedoneInsertsReadNoContextOnceTheContextIsFreed(_ kind: StoreKind) throws {
        let (undone, redone) = try Self.afterFreeing(kind) { context in
            context.undoManager = ObjectGraphUndoManager()
            let undone = StaffModel.employee("echo", salary: 50, in: context)
            context.processPendingChanges()
            context.undo()
            #expect(undone.managedObjectContext == nil)
            let redone = StaffModel.employee("foxtrot", salary: 60, in: context)
            context.processPendingChanges()
            context.undo()
            context.redo()
            #expect(redone.managedObjectContext === context)
            return (undone, redone)
        }
        #expect(undone.managedObjectContext == nil)
        #expect(redone.managedObjectContext == nil)
    }

    @Test(arguments: StoreKind.all)
    func aFreedChildContextsObjectsReadNoContextAndItsParentsKeepTheirs(_ kind: StoreKind)
        throws
    {
        let parent = try StaffModel.context(kind)
        let alphaInParent = try parent.performAndWait { () throws in
            try StaffModel.seedRnD(in: parent)
            return UncheckedSendable(try #require(try Self.employees(parent)["alpha"]))
        }
        var child: ManagedObjectContext? = ManagedObjectContext(concurrencyType: .privateQueue)
        child!.parent = parent
        weak var freed: ManagedObjectContext?
        let held = try child!.performAndWait { () throws in
            let alpha = try #require(try Self.employees(child!)["alpha"])
            alpha.setValue(13, forKey: "salary")
            let inserted = StaffModel.employee("golf", salary: 70, in: child!)
            #expect(alpha.managedObjectContext === child)
            return UncheckedSendable([alpha, inserted])
        }
        freed = child
        child = nil
        #expect(freed == nil, "the child is freed")
        for object in held.value { #expect(object.managedObjectContext == nil) }
        parent.performAndWait {
            #expect(alphaInParent.value.managedObjectContext === parent)
            #expect(alphaInParent.value.value(forKey: "salary") as? Int32 == 10)
        }
    }
}
