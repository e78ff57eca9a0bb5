import Foundation
import ObjectGraph
import Testing

/// A child context's save of objects its parent (a root context) has already saved: the
/// child still names them by their temporary IDs, and its push must reach the parent's
/// objects, now under their permanent IDs (the suite's `root` and `child` make the contexts).
///
/// Core Data: a nested context's objects keep their temporary IDs after the parent saves
/// them to the store (W. Young, "Core Data Growing Pains", 2012,
/// http://wbyoung.tumblr.com/post/27851725562/core-data-growing-pains; MagicalRecord issue
/// 246, https://github.com/magicalpanda/MagicalRecord/issues/246: "objects temporary IDs not
/// being updated to permanent IDs after saving"); the parent's object is the one the child
/// saved into it, so the child's later changes save as updates of that object (and a delete
/// as its delete), not as changes to an object the store does not have.
extension ContextTreeTests {
    /// The categories' names in the store, read through a fresh root context.
    private func storedNames(_ parent: ManagedObjectContext) throws -> [String] {
        let reader = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: parent.persistentStoreCoordinator!)
        return try reader.performAndWait {
            try reader.fetch(FetchRequest<Category>(entityName: "Category")).compactMap(\.name)
                .sorted()
        }
    }

    /// A root context over a store of `kind` and a child of it, with a category the root
    /// inserts, the child gets by its temporary ID, and the root then saves: the contexts, the
    /// root's object and the child's.
    private func categorySavedAfterTheChildGotIt(_ kind: StoreKind) throws -> (
        parent: ManagedObjectContext, kid: ManagedObjectContext, inParent: Category,
        inKid: Category
    ) {
        let parent = try root(kind)
        let kid = child(of: parent)
        let inParent = parent.performAndWait {
            let c = Category(context: parent)
            c.id = UUID()
            c.name = "Food"
            return c
        }
        let inKid = kid.performAndWait { kid.object(with: inParent.objectID) as! Category }
        try parent.performAndWait { try parent.save() }
        return (parent, kid, inParent, inKid)
    }

    /// The parent inserts an object; the child gets it by its temporary ID (before or after
    /// the parent's save); the parent saves; the child changes it, saves, and the parent's
    /// next save writes the change as an update of the same row.
    @Test(arguments: StoreKind.all)
    func aChildsChangeToAnObjectTheParentSavedSavesAsAnUpdate(_ kind: StoreKind) throws {
        for readBeforeSave in [true, false] {
            let parent = try root(kind)
            let kid = child(of: parent)
            let (inParent, temporary) = parent.performAndWait {
                let c = Category(context: parent)
                c.id = UUID()
                c.name = "Food"
                return (c, c.objectID)
            }
            var inKid: Category?
            if readBeforeSave {
                kid.performAndWait {
                    inKid = kid.object(with: temporary) as? Category
                    #expect(inKid?.name == "Food")
                }
            }
            try parent.performAndWait { try parent.save() }
            try kid.performAndWait {
                if inKid == nil { inKid = kid.object(with: temporary) as? Category }
                #expect(inKid?.objectID.isTemporaryID == true)
                inKid?.name = "Groceries"
                try kid.save()
            }
            try parent.performAndWait {
                #expect(parent.updatedObjects.map(\.objectID) == [inParent.objectID])
                #expect(parent.insertedObjects.isEmpty)
                #expect(inParent.name == "Groceries")
                try parent.save()
                #expect(!parent.hasChanges)
            }
            #expect(try storedNames(parent) == ["Groceries"])
        }
    }

    /// The child inserts an object and saves it into the parent, which saves it; the child's
    /// next change to it saves as an update.
    @Test(arguments: StoreKind.all)
    func aChildsChangeToItsOwnInsertAfterTheRootSavedItSavesAsAnUpdate(_ kind: StoreKind)
        throws
    {
        let parent = try root(kind)
        let kid = child(of: parent)
        // The child's insert, saved into the parent.
        let made = kid.performAndWait { Category(context: kid) }
        try kid.performAndWait {
            made.id = UUID()
            made.name = "Food"
            try kid.save()
        }
        try parent.performAndWait { try parent.save() }
        try kid.performAndWait {
            made.name = "Groceries"
            try kid.save()
        }
        try parent.performAndWait {
            #expect(parent.updatedObjects.count == 1)
            #expect(parent.updatedObjects.first?.objectID.isTemporaryID == false)
            try parent.save()
        }
        #expect(try storedNames(parent) == ["Groceries"])
    }

    /// A child's delete of an object the parent has saved since the child got it deletes the
    /// parent's object, and the parent's save deletes its row.
    @Test(arguments: StoreKind.all)
    func aChildsDeleteOfAnObjectTheParentSavedDeletesItsRow(_ kind: StoreKind) throws {
        let (parent, kid, inParent, inKid) = try categorySavedAfterTheChildGotIt(kind)
        try kid.performAndWait {
            kid.delete(inKid)
            try kid.save()
        }
        try parent.performAndWait {
            #expect(parent.deletedObjects.map(\.objectID) == [inParent.objectID])
            try parent.save()
        }
        #expect(try storedNames(parent).isEmpty)
    }

    /// A child's new object with a to-one to an object the parent has saved since the child
    /// got it: the parent's save stores the relationship to that object's row.
    @Test(arguments: StoreKind.all)
    func aChildsToOneToAnObjectTheParentSavedReachesItsRow(_ kind: StoreKind) throws {
        let (parent, kid, inParent, inKid) = try categorySavedAfterTheChildGotIt(kind)
        try kid.performAndWait {
            let t = Transaction(context: kid)
            t.id = UUID()
            t.amount = 12
            t.date = Date(timeIntervalSince1970: 0)
            t.category = inKid
            try kid.save()
        }
        try parent.performAndWait {
            try parent.save()
            #expect(inParent.transactions.count == 1)
        }
        #expect(try storedNames(parent) == ["Food"])
        let reader = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: parent.persistentStoreCoordinator!)
        try reader.performAndWait {
            let all = try reader.fetch(FetchRequest<Transaction>(entityName: "Transaction"))
            #expect(all.count == 1)
            #expect(all.first?.category?.name == "Food")
            #expect(all.first?.category?.objectID == inParent.objectID)
        }
    }
}
