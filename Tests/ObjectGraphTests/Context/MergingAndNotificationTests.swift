import Foundation
import ObjectGraph
import Testing

@Suite struct MergingAndNotificationTests {
    private func insertCategory(_ context: ManagedObjectContext, _ name: String) -> Category {
        let c = Category(context: context)
        c.id = UUID()
        c.name = name
        return c
    }

    @Test(arguments: StoreKind.all)
    func didSaveCarriesTheInsertedUpdatedAndDeletedObjectsAndTheirIDs(_ kind: StoreKind) throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let (keep, drop) = try context.performAndWait {
            let keep = insertCategory(context, "Keep")
            let drop = insertCategory(context, "Drop")
            try context.save()
            return (keep, drop)
        }
        let captured = UncheckedSendable(InfoBox())
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { note in captured.value.info = note.userInfo ?? [:] }
        defer { NotificationCenter.default.removeObserver(token) }
        let added = try context.performAndWait {
            keep.name = "Kept"
            context.delete(drop)
            let added = insertCategory(context, "Added")
            try context.save()
            return added
        }
        let info = captured.value.info
        #expect(info[NSInsertedObjectsKey] as? Set<ManagedObject> == [added])
        #expect(info[NSUpdatedObjectsKey] as? Set<ManagedObject> == [keep])
        #expect(info[NSDeletedObjectsKey] as? Set<ManagedObject> == [drop])
        #expect(info[NSInsertedObjectIDsKey] as? Set<ManagedObjectID> == [added.objectID])
        #expect((info[NSDeletedObjectIDsKey] as? Set<ManagedObjectID>)?.count == 1)
        // The store got the update's patch and the deletion in one change set (the deletions
        // handed to its empty list after the patch made it): a fresh context reads both.
        let fresh = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let names = try fresh.performAndWait {
            try fresh.fetch(FetchRequest<Category>(entityName: "Category")).compactMap(\.name)
        }
        #expect(names.sorted() == ["Added", "Kept"])
    }

    final class InfoBox { var info: [AnyHashable: Any] = [:] }

    @MainActor
    @Test(arguments: StoreKind.all)
    func siblingSavesReachAViewContextThatMergesAutomatically(_ kind: StoreKind) async throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        view.automaticallyMergesChangesFromParent = true
        let food = insertCategory(view, "Food")
        try view.save()
        let id = food.objectID
        let background = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        try background.performAndWait {
            (background.object(with: id) as! Category).name = "Groceries"
            try background.save()
        }
        try await view.perform {}
        #expect(food.name == "Groceries")
        #expect(!food.hasChanges)
        try background.performAndWait {
            background.delete(background.object(with: id))
            try background.save()
        }
        try await view.perform {}
        // Core Data keeps a merged deletion registered while referenced, not a fault, deleted
        // (FreeCoreData NSMergePolicyTests.m, testMergeChangesRemovesDeletedObjectsFromOtherContext).
        #expect(food.isDeleted)
        #expect(!food.isFault)
        #expect(view.registeredObject(for: id) === food)
        #expect(try view.fetch(FetchRequest<Category>(entityName: "Category")).isEmpty)
    }

    @Test(arguments: StoreKind.all)
    func mergingKeepsLocalUnsavedChangesOnOtherProperties(_ kind: StoreKind) throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let a = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let b = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let id = try a.performAndWait {
            let c = insertCategory(a, "Food")
            try a.save()
            return c.objectID
        }
        let note = UncheckedSendable(NoteBox())
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: a, queue: nil
        ) { note.value.note = $0 }
        defer { NotificationCenter.default.removeObserver(token) }
        b.performAndWait { (b.object(with: id) as! Category).colorHex = "#000000" }
        try a.performAndWait {
            (a.object(with: id) as! Category).name = "Groceries"
            try a.save()
        }
        b.performAndWait {
            b.mergeChanges(fromContextDidSave: note.value.note!)
            let c = b.object(with: id) as! Category
            #expect(c.name == "Groceries")
            #expect(c.colorHex == "#000000")
            #expect(c.hasChanges)
        }
    }

    final class NoteBox { var note: Notification? }

    @Test(arguments: StoreKind.all)
    func remoteChangesMergeByIDsOrURIs(_ kind: StoreKind) throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let writer = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let id = try writer.performAndWait {
            let c = insertCategory(writer, "Food")
            try writer.save()
            return c.objectID
        }
        let readerCopy = try reader.performAndWait {
            try reader.existingObject(with: id) as! Category
        }
        try writer.performAndWait {
            (writer.object(with: id) as! Category).name = "Groceries"
            try writer.save()
        }
        reader.performAndWait { #expect(readerCopy.name == "Food") }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSUpdatedObjectsKey: [id.uriRepresentation()]],
            into: [reader])
        reader.performAndWait { #expect(readerCopy.name == "Groceries") }
        ManagedObjectContext.mergeChanges(
            fromRemoteContextSave: [NSDeletedObjectsKey: [id]], into: [reader])
        reader.performAndWait { #expect(readerCopy.isDeleted) }
    }

    @Test(arguments: StoreKind.all)
    func theAsyncSequenceDeliversSavedIDs(_ kind: StoreKind) async throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
        let stream = context.notifications(named: ManagedObjectContext.didSaveObjectIDsNotification)
        let id = try await context.perform {
            let c = Category(context: context)
            c.id = UUID()
            c.name = "Food"
            try context.save()
            return c.objectID
        }
        var iterator = stream.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?[NSInsertedObjectIDsKey] == [id])
    }
}
