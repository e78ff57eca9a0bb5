import Foundation
import ObjectGraph
import Testing

@Suite struct ContextTreeTests {
    /// A root context over a fresh store of `kind`.
    func root(_ kind: StoreKind) throws -> ManagedObjectContext {
        ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
    }

    /// A child context of `parent`.
    func child(of parent: ManagedObjectContext) -> ManagedObjectContext {
        let c = ManagedObjectContext(concurrencyType: .privateQueue)
        c.parent = parent
        return c
    }

    private func categoryNames(_ context: ManagedObjectContext) throws -> [String] {
        try context.performAndWait {
            let request = FetchRequest<Category>(entityName: "Category")
            return try context.fetch(request).compactMap(\.name).sorted()
        }
    }

    @Test(arguments: StoreKind.all)
    func aDiscardedChildLeavesTheParentUntouched(_ kind: StoreKind) throws {
        let parent = try root(kind)
        var draft: ManagedObjectContext? = child(of: parent)
        draft!.performAndWait {
            let c = Category(context: draft!)
            c.id = UUID()
            c.name = "Cancelled"
        }
        draft = nil
        #expect(parent.performAndWait { parent.hasChanges } == false)
        #expect(try categoryNames(parent).isEmpty)
    }

    @Test(arguments: StoreKind.all)
    func aChildFetchSeesTheParentsUnsavedStateOverlaidByItsOwn(_ kind: StoreKind) throws {
        let parent = try root(kind)
        try parent.performAndWait {
            for name in ["Saved", "Renamed", "Doomed"] {
                let c = Category(context: parent)
                c.id = UUID()
                c.name = name
            }
            try parent.save()
            let pending = Category(context: parent)
            pending.id = UUID()
            pending.name = "ParentPending"
        }
        let kid = child(of: parent)
        try kid.performAndWait {
            let all = try kid.fetch(FetchRequest<Category>(entityName: "Category"))
            all.first { $0.name == "Renamed" }!.name = "Renamed2"
            kid.delete(all.first { $0.name == "Doomed" }!)
            let mine = Category(context: kid)
            mine.id = UUID()
            mine.name = "ChildPending"
        }
        #expect(try categoryNames(kid) == ["ChildPending", "ParentPending", "Renamed2", "Saved"])
        #expect(try categoryNames(parent) == ["Doomed", "ParentPending", "Renamed", "Saved"])
        let grandchild = child(of: kid)
        #expect(
            try categoryNames(grandchild) == ["ChildPending", "ParentPending", "Renamed2", "Saved"])
    }

    @Test(arguments: StoreKind.all)
    func temporaryIDsStayTemporaryUntilTheRootSaves(_ kind: StoreKind) throws {
        let parent = try root(kind)
        let kid = child(of: parent)
        let id = try kid.performAndWait {
            let c = Category(context: kid)
            c.id = UUID()
            c.name = "Food"
            try kid.save()
            #expect(c.objectID.isTemporaryID)
            return c.objectID
        }
        try parent.performAndWait {
            let inParent = parent.object(with: id) as! Category
            #expect(inParent.name == "Food")
            try parent.save()
            #expect(!inParent.objectID.isTemporaryID)
            #expect(
                parent.persistentStoreCoordinator?.managedObjectID(
                    forURIRepresentation: id.uriRepresentation()) == nil)
            let uri = inParent.objectID.uriRepresentation()
            #expect(
                parent.persistentStoreCoordinator?.managedObjectID(forURIRepresentation: uri)
                    == inParent.objectID)
        }
    }

    /// A child's objects keep their temporary IDs after the root saves them; turned back into
    /// faults, they are filled through the parent, which finds them by those temporary IDs,
    /// over several root saves (each records its batch of new IDs) and after other IDs were
    /// looked up in between.
    @Test(arguments: StoreKind.all)
    func aChildsObjectsAreFilledByTheirTemporaryIDsAfterTheRootSaves(_ kind: StoreKind) throws {
        let parent = try root(kind)
        let kid = child(of: parent)
        var made: [Category] = []
        for round in 0..<3 {
            try kid.performAndWait {
                for i in 0..<40 {
                    let c = Category(context: kid)
                    c.id = UUID()
                    c.name = "round \(round) #\(i)"
                    made.append(c)
                }
                try kid.save()
            }
            try parent.performAndWait { try parent.save() }
            if round == 1 {
                // A look-up between two saves: the first batches are folded in already.
                kid.performAndWait {
                    kid.refresh(made[0], mergeChanges: false)
                    #expect(made[0].name == "round 0 #0")
                }
            }
        }
        kid.performAndWait {
            for (n, category) in made.enumerated() {
                #expect(category.objectID.isTemporaryID)
                kid.refresh(category, mergeChanges: false)
                #expect(category.isFault)
                #expect(category.name == "round \(n / 40) #\(n % 40)")
                #expect(!category.isDeleted)
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func obtainedPermanentIDsAreTheSameInChildParentAndStore(_ kind: StoreKind) throws {
        let parent = try root(kind)
        let kid = child(of: parent)
        let id = try kid.performAndWait {
            let c = Category(context: kid)
            c.id = UUID()
            c.name = "Food"
            try kid.obtainPermanentIDs(for: [c])
            #expect(!c.objectID.isTemporaryID)
            #expect(c.isInserted)
            try kid.save()
            return c.objectID
        }
        try parent.performAndWait {
            let inParent = parent.registeredObject(for: id)
            #expect(inParent != nil)
            try parent.save()
            #expect(inParent?.objectID == id)
        }
        let other = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: parent.persistentStoreCoordinator!)
        let name = try other.performAndWait {
            (try other.existingObject(with: id) as? Category)?.name
        }
        #expect(name == "Food")
    }

    @Test(arguments: StoreKind.all)
    func pickingACategoryAcrossTheBoundaryFailsWhenItWasDeletedMeanwhile(_ kind: StoreKind) throws {
        let view = try root(kind)
        let id = try view.performAndWait {
            let c = Category(context: view)
            c.id = UUID()
            c.name = "Food"
            try view.save()
            return c.objectID
        }
        let editor = child(of: view)
        let picked = try editor.performAndWait {
            (try editor.existingObject(with: id) as? Category)?.name
        }
        #expect(picked == "Food")
        try view.performAndWait {
            view.delete(view.object(with: id))
            try view.save()
        }
        let late = child(of: view)
        late.performAndWait {
            #expect(throws: ObjectGraphError.self) { _ = try late.existingObject(with: id) }
        }
    }

    @Test(arguments: StoreKind.all)
    func aBackgroundImportSavesOnceAndTheStoreHasEverything(_ kind: StoreKind) throws {
        let coordinator = try ExpenseModel.coordinator(kind)
        let background = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        let saves = Counter()
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectIDsNotification, object: background,
            queue: nil
        ) { _ in saves.add() }
        defer { NotificationCenter.default.removeObserver(token) }
        try background.performAndWait {
            let food = Category(context: background)
            food.id = UUID()
            food.name = "Food"
            for i in 0..<500 {
                let t = Transaction(context: background)
                t.id = UUID()
                t.amount = Decimal(i + 1)
                t.date = Date(timeIntervalSince1970: Double(i))
                t.category = food
            }
            try background.save()
        }
        #expect(saves.value == 1)
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let count = try reader.performAndWait {
            try reader.count(for: FetchRequest<Transaction>(entityName: "Transaction"))
        }
        #expect(count == 500)
        let inFood = try reader.performAndWait {
            try reader.fetch(FetchRequest<Category>(entityName: "Category")).first?.transactions
                .count
        }
        #expect(inFood == 500)
    }

    @Test(arguments: StoreKind.all)
    func performAndWaitIsReentrantAndRethrows(_ kind: StoreKind) throws {
        let context = try root(kind)
        let value = context.performAndWait { context.performAndWait { 42 } }
        #expect(value == 42)
        #expect(throws: ObjectGraphError.self) {
            try context.performAndWait { throw ObjectGraphError(.validationFailed, "boom") }
        }
    }

    @Test(arguments: StoreKind.all)
    func performAsyncReturnsTheBlocksValue(_ kind: StoreKind) async throws {
        let context = try root(kind)
        let count = try await context.perform {
            let c = Category(context: context)
            c.id = UUID()
            c.name = "Food"
            try context.save()
            return try context.count(for: FetchRequest<Category>(entityName: "Category"))
        }
        #expect(count == 1)
    }
}
