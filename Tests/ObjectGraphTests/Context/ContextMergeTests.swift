import Foundation
import ObjectGraph
import Testing

/// Merging another context's inserts and deletes, by each of the three ways in.
@Suite struct ContextMergeTests {
    /// How a save reaches the other context.
    enum Route: String, CaseIterable, CustomTestStringConvertible {
        /// `mergeChanges(fromContextDidSave:)` with the did-save notification.
        case didSaveNotification
        /// `automaticallyMergesChangesFromParent` (a sibling on the same coordinator).
        case automatic
        /// `mergeChanges(fromRemoteContextSave:into:)` with the saved IDs.
        case remote

        var testDescription: String { rawValue }

        static var cases: [(StoreKind, Route)] {
            StoreKind.all.flatMap { kind in allCases.map { (kind, $0) } }
        }
    }

    /// Two private contexts on one coordinator; saves of `source` reach `target` by `route`.
    final class Pair {
        let source: ManagedObjectContext
        let target: ManagedObjectContext
        let route: Route
        private let lastSave = UncheckedSendable(NoteBox())
        private var token: (any NSObjectProtocol)?

        final class NoteBox { var note: Notification? }

        init(_ kind: StoreKind, _ route: Route) throws {
            let coordinator = try ExpenseModel.coordinator(kind)
            source = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
            target = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
            self.route = route
            target.automaticallyMergesChangesFromParent = route == .automatic
            let box = lastSave
            token = NotificationCenter.default.addObserver(
                forName: ManagedObjectContext.didSaveObjectsNotification, object: source,
                queue: nil
            ) { box.value.note = $0 }
        }

        deinit { if let token { NotificationCenter.default.removeObserver(token) } }

        /// Saves a new category "Food" in `source` and delivers the save; returns its ID.
        func saveFood() throws -> ManagedObjectID {
            var id: ManagedObjectID?
            try save {
                let food = Category(context: source)
                food.id = UUID()
                food.name = "Food"
                try source.obtainPermanentIDs(for: [food])
                id = food.objectID
            }
            return try #require(id)
        }

        /// Saves `source` after `changes`, then delivers the save to `target` and returns.
        func save(_ changes: () throws -> Void) throws {
            try source.performAndWait {
                try changes()
                try source.save()
            }
            let note = lastSave.value.note!
            switch route {
            case .didSaveNotification:
                target.performAndWait { target.mergeChanges(fromContextDidSave: note) }
            case .automatic:
                target.performAndWait {}  // after the merge `perform` queued by the save
            case .remote:
                let info = note.userInfo ?? [:]
                var ids: [AnyHashable: Any] = [:]
                for key in [NSInsertedObjectIDsKey, NSUpdatedObjectIDsKey, NSDeletedObjectIDsKey] {
                    ids[key] = Array(info[key] as? Set<ManagedObjectID> ?? [])
                }
                ManagedObjectContext.mergeChanges(fromRemoteContextSave: ids, into: [target])
            }
        }
    }

    // Apple: mergeChanges(fromContextDidSave:) "faults in any newly inserted objects"
    // (NSManagedObjectContext.h, coredata-semantics.md (f)); they reach observers as inserted
    // objects and are registered after the merge (FreeCoreData NSMergePolicyTests.m,
    // testMergeChangesRegistersInsertedObjectsInOtherContext, run against Apple). Apple does not
    // promise they stay registered when nothing references them; here the notification's
    // observer keeps them.
    @Test(arguments: Route.cases)
    func mergedInsertsAreAnnouncedAsInsertedAndReachableByID(_ kind: StoreKind, _ route: Route)
        throws
    {
        let pair = try Pair(kind, route)
        let recorder = ChangeRecorder(pair.target)
        let foodID = try pair.saveFood()
        #expect(recorder.all.count == 1)
        let announced = recorder.all.first?.set(NSInsertedObjectsKey) ?? []
        #expect(announced.map(\.objectID) == [foodID])
        try pair.target.performAndWait {
            let object = pair.target.object(with: foodID)
            #expect(announced.first === object)
            let existing = try pair.target.existingObject(with: foodID)
            #expect(existing === object)
            #expect((object as? Category)?.name == "Food")
            #expect(!pair.target.hasChanges, "a merged insert is saved, not pending")
        }
    }

    // Apple keeps a merged deletion registered while referenced: not a fault, isDeleted, its
    // last values readable, and fetches leave it out (FreeCoreData NSMergePolicyTests.m,
    // testMergeChangesRemovesDeletedObjectsFromOtherContext, commit f16f632, run against
    // Apple; coredata-semantics.md (e)).
    @Test(arguments: Route.cases)
    func aMergedDeletionStaysRegisteredDeletedAndReadableAndFetchesLeaveItOut(
        _ kind: StoreKind, _ route: Route
    ) throws {
        let pair = try Pair(kind, route)
        let foodID = try pair.saveFood()
        let local = try pair.target.performAndWait {
            let all = try pair.target.fetch(FetchRequest<Category>(entityName: "Category"))
            #expect(all.first?.name == "Food")
            return try #require(all.first)
        }
        let recorder = ChangeRecorder(pair.target)
        try pair.save { pair.source.delete(pair.source.object(with: foodID)) }
        try pair.target.performAndWait {
            #expect(pair.target.registeredObject(for: foodID) === local)
            #expect(!local.isFault)
            #expect(local.isDeleted)
            #expect(local.name == "Food")
            let request = FetchRequest<Category>(entityName: "Category")
            let fetched = try pair.target.fetch(request)
            let counted = try pair.target.count(for: request)
            #expect(fetched.isEmpty && counted == 0)
            #expect(!pair.target.hasChanges)
            #expect(throws: ObjectGraphError.self) {
                _ = try pair.target.existingObject(with: foodID)
            }
        }
        #expect(recorder.all.count == 1)
        #expect(recorder.all.first?.set(NSDeletedObjectsKey) == [local])
    }

    // A merge delivered through perform on a main-queue context (automaticallyMergesChanges-
    // FromParent on a view context) is a main-queue event: its objects-did-change is posted
    // there (perform "encapsulates … a call to processPendingChanges", perform(_:)
    // documentation).
    @MainActor
    @Test(arguments: StoreKind.all)
    func aMergeDeliveredThroughPerformPostsObjectsDidChangeOnTheMainQueue(_ kind: StoreKind)
        async throws
    {
        let coordinator = try ExpenseModel.coordinator(kind)
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        view.automaticallyMergesChangesFromParent = true
        let background = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        let recorder = ChangeRecorder(view)
        let id = try background.performAndWait {
            let food = Category(context: background)
            food.id = UUID()
            food.name = "Food"
            try background.save()
            return food.objectID
        }
        await drainMainQueue()
        #expect(recorder.all.count == 1)
        #expect(recorder.all.first?.ids(NSInsertedObjectsKey) == [id])
        #expect(recorder.all.first?.onMainQueue == true)

        let food = try #require(recorder.all.first?.set(NSInsertedObjectsKey).first as? Category)
        #expect(food.name == "Food")
        try background.performAndWait {
            (background.object(with: id) as? Category)?.name = "Groceries"
            try background.save()
        }
        await drainMainQueue()
        #expect(recorder.all.count == 2)
        let changed = recorder.all.last.map {
            $0.set(NSUpdatedObjectsKey).union($0.set(NSRefreshedObjectsKey))
        }
        #expect(changed == [food])
        #expect(recorder.all.last?.onMainQueue == true)
        #expect(food.name == "Groceries")
    }
}
