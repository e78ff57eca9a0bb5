import Foundation
import ObjectGraph
import Testing

// Core Data's undo: `processPendingChanges()` "causes changes to registered managed objects to
// be recorded with the undo manager"; `undoManager` is nil by default; `rollback()` "removes
// everything from the undo stack"
// (developer.apple.com/documentation/coredata/nsmanagedobjectcontext/processpendingchanges(),
// .../undomanager, .../rollback()). Foundation's UndoManager: groups nest, `undo()` reverses the
// last top-level group and what it registers becomes the redo group
// (developer.apple.com/documentation/foundation/undomanager/beginundogrouping()).
@Suite struct UndoTests {
    private func context(_ kind: StoreKind) throws -> ManagedObjectContext {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
        context.performAndWait { context.undoManager = ObjectGraphUndoManager() }
        return context
    }

    /// A category that passes validation.
    private func category(_ context: ManagedObjectContext, _ name: String) -> Category {
        let category = Category(context: context)
        category.id = UUID()
        category.name = name
        return category
    }

    @Test func aContextHasNoUndoManagerByDefault() throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        context.performAndWait {
            #expect(context.undoManager == nil)
            let food = category(context, "Food")
            context.undo()  // nothing to undo with: no effect
            #expect(food.name == "Food")
        }
    }

    @Test(arguments: StoreKind.all)
    func changesOfOneEventUndoTogetherAndRedo(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait {
            let food = category(context, "Food")
            try context.save()
            food.name = "Groceries"
            food.colorHex = "#00FF00"
            context.processPendingChanges()
            food.name = "Market"
            context.processPendingChanges()
            #expect(context.undoManager?.canUndo == true)
            context.undo()
            #expect(food.name == "Groceries")
            #expect(food.colorHex == "#00FF00")
            context.undo()
            #expect(food.name == "Food")
            #expect(food.colorHex == "#FFFFFF")
            #expect(!context.hasChanges)
            #expect(context.undoManager?.canRedo == true)
            context.redo()
            #expect(food.name == "Groceries")
            #expect(food.colorHex == "#00FF00")
            #expect(food.isUpdated)
            context.redo()
            #expect(food.name == "Market")
        }
    }

    @Test(arguments: StoreKind.all)
    func undoingAnInsertRemovesTheObjectAndRedoBringsItBack(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait {
            let food = category(context, "Food")
            context.processPendingChanges()
            context.undo()
            #expect(context.insertedObjects.isEmpty)
            #expect(food.managedObjectContext == nil)
            #expect(!context.hasChanges)
            context.redo()
            #expect(context.insertedObjects == [food])
            #expect(food.name == "Food")
            try context.save()
            let count = try context.count(for: FetchRequest<Category>(entityName: "Category"))
            #expect(count == 1)
        }
    }

    @Test(arguments: StoreKind.all)
    func undoingADeleteRestoresTheObjectAndItsRelationships(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait {
            let food = category(context, "Food")
            let t = Transaction(context: context)
            t.id = UUID()
            t.date = Date(timeIntervalSinceReferenceDate: 0)
            t.amount = 5
            t.category = food
            try context.save()
            context.delete(food)
            context.processPendingChanges()  // the nullify rule runs: t.category is nil
            #expect(t.category == nil)
            context.undo()
            #expect(!food.isDeleted)
            #expect(t.category === food)
            #expect(food.transactions == [t])
            #expect(!context.hasChanges)
            context.redo()
            #expect(food.isDeleted)
            #expect(t.category == nil)
        }
    }

    @Test(arguments: StoreKind.all)
    func undoingAfterSaveMarksTheObjectChangedAgain(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait {
            let food = category(context, "Food")
            try context.save()
            food.name = "Groceries"
            try context.save()  // save processes pending changes: the rename is one group
            #expect(!context.hasChanges)
            context.undo()
            #expect(food.name == "Food")
            #expect(food.isUpdated)
            #expect(context.updatedObjects == [food])
            try context.save()
        }
        let reader = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        let names = try reader.performAndWait {
            try reader.fetch(FetchRequest<Category>(entityName: "Category")).map(\.name)
        }
        #expect(names == ["Food"])
    }

    @Test(arguments: StoreKind.all)
    func undoingASavedInsertDeletesTheObjectAndASavedDeleteInsertsItAgain(_ kind: StoreKind)
        throws
    {
        let context = try context(kind)
        try context.performAndWait {
            let food = category(context, "Food")
            try context.save()
            context.undo()  // the saved insertion
            #expect(food.isDeleted)
            try context.save()
            #expect(try context.count(for: FetchRequest<Category>(entityName: "Category")) == 0)
            context.redo()  // inserted again, with its ID
            #expect(food.isInserted)
            #expect(food.name == "Food")
            try context.save()
            let names = try context.fetch(FetchRequest<Category>(entityName: "Category")).map(
                \.name)
            #expect(names == ["Food"])
        }
    }

    @Test func rollbackAndResetEmptyTheStacks() throws {
        let context = try context(.inMemory)
        context.performAndWait {
            _ = category(context, "Food")
            context.processPendingChanges()
            #expect(context.undoManager?.canUndo == true)
            context.rollback()
            #expect(context.undoManager?.canUndo == false)
            _ = category(context, "Rent")
            context.processPendingChanges()
            context.undo()
            #expect(context.undoManager?.canRedo == true)
            context.reset()
            #expect(context.undoManager?.canUndo == false)
            #expect(context.undoManager?.canRedo == false)
        }
    }

    // A save refused by validation (1570/1560) changes nothing, the undo stack included: the
    // invalid change undoes, the store never saw it, and a redo brings it back still invalid.
    @Test(arguments: StoreKind.all)
    func aSaveThatFailedValidationLeavesTheUndoStackWhole(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait {
            let food = category(context, "Food")
            try context.save()
            food.name = nil
            #expect(throws: NSError.self) { try context.save() }
            #expect(food.name == nil)
            #expect(context.hasChanges)
            context.undo()
            #expect(food.name == "Food")
            #expect(!context.hasChanges)
            context.redo()
            #expect(food.name == nil)
            #expect(throws: NSError.self) { try context.save() }
            context.undo()
            try context.save()
            context.reset()
            #expect(context.undoManager?.canUndo == false)
            context.undo()  // after reset: nothing to undo, no effect
            let names = try context.fetch(FetchRequest<Category>(entityName: "Category")).map(
                \.name)
            #expect(names == ["Food"])
        }
    }

    @Test func anExplicitGroupSpansEventsAndDisabledRegistrationRecordsNothing() throws {
        let context = try context(.inMemory)
        context.performAndWait {
            let undo = context.undoManager!
            let food = category(context, "Food")
            context.processPendingChanges()
            undo.beginUndoGrouping()
            food.name = "A"
            context.processPendingChanges()
            food.name = "B"
            context.processPendingChanges()
            undo.endUndoGrouping()
            undo.disableUndoRegistration()
            food.colorHex = "#000000"
            context.processPendingChanges()
            undo.enableUndoRegistration()
            context.undo()  // both renames together; the untracked colour stays
            #expect(food.name == "Food")
            #expect(food.colorHex == "#000000")
            context.undo()
            #expect(food.managedObjectContext == nil)
            #expect(!undo.canUndo)
        }
    }

    @Test func aNewChangeClearsTheRedoStack() throws {
        let context = try context(.inMemory)
        context.performAndWait {
            let food = category(context, "Food")
            context.processPendingChanges()
            food.name = "Groceries"
            context.processPendingChanges()
            context.undo()
            #expect(context.undoManager?.canRedo == true)
            food.name = "Market"
            context.processPendingChanges()
            #expect(context.undoManager?.canRedo == false)
        }
    }
}

@Suite struct ObjectGraphUndoManagerTests {
    final class Box {
        var value = 0
    }

    private static func set(_ box: Box, _ value: Int, _ undo: ObjectGraphUndoManager) {
        let old = box.value
        box.value = value
        undo.registerUndo(withTarget: box) { Self.set($0, old, undo) }
    }

    @Test func groupsNestAndUndoAsOne() {
        let undo = ObjectGraphUndoManager()
        let box = Box()
        undo.beginUndoGrouping()
        Self.set(box, 1, undo)
        undo.beginUndoGrouping()
        Self.set(box, 2, undo)
        undo.endUndoGrouping()
        #expect(undo.groupingLevel == 1)
        undo.setActionName("Count")
        undo.endUndoGrouping()
        #expect(undo.undoActionName == "Count")
        undo.undo()
        #expect(box.value == 0)
        #expect(undo.redoActionName == "Count")
        undo.redo()
        #expect(box.value == 2)
    }

    @Test func levelsOfUndoDropsTheOldestGroups() {
        let undo = ObjectGraphUndoManager()
        undo.levelsOfUndo = 2
        let box = Box()
        for value in 1...3 {
            undo.beginUndoGrouping()
            Self.set(box, value, undo)
            undo.endUndoGrouping()
        }
        undo.undo()
        undo.undo()
        #expect(box.value == 1)
        #expect(!undo.canUndo)
    }

    @Test func removeAllActionsEmptiesBothStacks() {
        let undo = ObjectGraphUndoManager()
        let box = Box()
        undo.beginUndoGrouping()
        Self.set(box, 1, undo)
        undo.endUndoGrouping()
        Self.set(box, 2, undo)
        undo.undo()
        #expect(undo.canUndo && undo.canRedo)
        undo.removeAllActions()
        #expect(!undo.canUndo && !undo.canRedo)
    }
}
