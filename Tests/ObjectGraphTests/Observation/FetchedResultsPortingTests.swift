import Foundation
import ObjectGraph
import Testing

// Core Data list code ported with the README's renames only (NSFetchedResultsController ->
// FetchedResultsController, NSFetchRequest -> FetchRequest, NSPredicate -> FetchPredicate, …).
// Apple's documentation cited below: developer.apple.com/documentation/coredata/
// nsfetchedresultscontroller (and its object(at:), indexPath(forObject:), sectionIndexTitles,
// section(forSectionIndexTitle:at:) pages), nsfetchedresultscontrollerdelegate ("Typical use"),
// nsfetchedresultssectioninfo.

@Suite struct FetchedResultsPortingTests {
    /// Two teams and four employees, saved.
    static func seed(_ context: ManagedObjectContext) throws -> (eng: Team, sales: Team) {
        try context.performAndWait {
            let eng = Team(context: context)
            eng.name = "Eng"
            let sales = Team(context: context)
            sales.name = "sales"
            for (name, team, salary) in [
                ("Ann", eng, 5), ("Bob", eng, 7), ("Cid", sales, 3), ("Dee", sales, 9),
            ] {
                StaffFixture.employee(context, name, team: nil, salary: Int32(salary)).unit = team
            }
            try context.save()
            return (eng, sales)
        }
    }

    static func staffRequest() -> FetchRequest<Employee> {
        let request = Employee.fetchRequest()
        request.sortDescriptors = [
            FetchSortDescriptor(key: "unit.name", ascending: true),
            FetchSortDescriptor(key: "name", ascending: true),
        ]
        request.fetchBatchSize = 20
        return request
    }

    // NSFetchedResultsController: sectionNameKeyPath "unit.name" names each section; sections
    // give name, indexTitle, numberOfObjects, objects (NSFetchedResultsSectionInfo); the default
    // index title is the capitalised first letter of the name (sectionIndexTitle(forSectionName:));
    // section(forSectionIndexTitle:at:) gives the section for an index title.
    @Test(arguments: StoreKind.all)
    func aTableDataSourceReadsSectionsRowsAndIndexTitles(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        _ = try Self.seed(context)
        try context.performAndWait {
            let list = PortedStaffListController(
                context: context, request: Self.staffRequest(), sectionNameKeyPath: "unit.name")
            try list.fetchedResultsController.performFetch()
            let frc = list.fetchedResultsController
            #expect(frc.cacheName == "Staff")
            #expect(frc.sectionNameKeyPath == "unit.name")
            #expect(list.numberOfSections() == 2)
            #expect(list.numberOfRows(inSection: 0) == 2)
            #expect(list.titleForHeader(inSection: 0) == "Eng")
            #expect(list.titleForHeader(inSection: 1) == "sales")
            #expect(list.sectionIndexTitles() == ["E", "S"])
            #expect(frc.sections?[1].indexTitle == "S")
            #expect(list.section(forSectionIndexTitle: "S", at: 1) == 1)
            #expect(frc.object(at: IndexPath(item: 1, section: 1)).name == "Dee")
            let dee = frc.object(at: IndexPath(item: 1, section: 1))
            #expect(frc.indexPath(forObject: dee) == IndexPath(item: 1, section: 1))
            #expect((frc.sections?[0].objects as? [Employee])?.map(\.name) == ["Ann", "Bob"])
            #expect(frc.fetchedObjects?.map(\.name) == ["Ann", "Bob", "Cid", "Dee"])
            // Not in the results: nil (Apple: indexPath(forObject:) returns nil since iOS 3.2).
            let outsider = StaffFixture.employee(context, "Zed", team: nil)
            #expect(frc.indexPath(forObject: outsider) == nil)
            context.rollback()
        }
    }

    // NSFetchedResultsControllerDelegate, "Typical use": will -> section/object changes ->
    // did; applying deletes at old index paths and inserts at new ones between beginUpdates and
    // endUpdates leaves the table equal to the controller's sections.
    @Test(arguments: StoreKind.all)
    func appleSampleDelegateKeepsATableInStepAcrossInsertsDeletesMovesAndUpdates(_ kind: StoreKind)
        throws
    {
        let context = try StaffFixture.context(kind)
        let (eng, _) = try Self.seed(context)
        try context.performAndWait {
            let list = PortedStaffListController(
                context: context, request: Self.staffRequest(), sectionNameKeyPath: "unit.name")
            try list.fetchedResultsController.performFetch()
            list.reload()
            let frc = list.fetchedResultsController
            func step(_ change: () throws -> Void) throws {
                list.messages = []
                try change()
                try context.save()
                #expect(list.tableView.rows == list.expectedRows())
            }
            // A new team: a section insert and a row insert.
            try step {
                let ops = Team(context: context)
                ops.name = "Ops"
                StaffFixture.employee(context, "Eve", team: nil).unit = ops
            }
            #expect(list.messages == ["will", "section 1 1", "object 1 Eve", "did"])
            #expect(list.titleForHeader(inSection: 1) == "Ops")
            // Renaming so the position changes: a move.
            try step { frc.object(at: IndexPath(item: 0, section: 0)).name = "Zoe" }
            #expect(list.messages == ["will", "object 3 Zoe", "did"])
            // A non-sort key: an update, reloaded at its index path.
            try step { frc.object(at: IndexPath(item: 0, section: 0)).salary = 99 }
            #expect(list.messages == ["will", "object 4 Bob", "did"])
            #expect(list.tableView.reloaded == ["0.0"])
            // Moving between sections through the to-one: a move.
            try step { frc.object(at: IndexPath(item: 0, section: 2)).unit = eng }
            #expect(list.messages.contains("object 3 Cid"))
            // Deleting the last object of a section deletes the section.
            try step { context.delete(frc.object(at: IndexPath(item: 0, section: 1))) }
            #expect(list.messages == ["will", "section 2 1", "object 2 Eve", "did"])
            #expect(list.numberOfSections() == 2)
            // Several changes in one event: a rename (move), a delete, an insert into a new
            // team, and a move to that team.
            try step {
                let hr = Team(context: context)
                hr.name = "HR"
                frc.object(at: IndexPath(item: 0, section: 0)).name = "Yan"
                context.delete(frc.object(at: IndexPath(item: 1, section: 0)))
                StaffFixture.employee(context, "Fay", team: nil).unit = hr
                frc.object(at: IndexPath(item: 0, section: 1)).unit = hr
            }
            // Sections first (deletions, then insertions), then objects: deletions, insertions,
            // moves, updates. Bob -> Yan keeps index path 0.0 (Cid, after it, is deleted), so it
            // is an update, and the table re-reads the row.
            #expect(
                list.messages == [
                    "will", "section 2 1", "section 1 1", "object 2 Cid", "object 1 Fay",
                    "object 3 Dee", "object 4 Yan", "did",
                ])
            #expect(list.titleForHeader(inSection: 1) == "HR")
        }
    }

    // NSFetchedResultsController: "if you want to modify the fetch request, you must … invoke
    // performFetch()" — changing the predicate and fetching again refetches.
    @Test func performFetchAfterChangingThePredicateRefetches() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let list = PortedStaffListController(
                context: context, request: Self.staffRequest(), sectionNameKeyPath: "unit.name")
            let frc = list.fetchedResultsController
            try frc.performFetch()
            #expect(frc.fetchedObjects?.count == 4)
            frc.fetchRequest.predicate = try FetchPredicate(format: "salary > %d", 5)
            try frc.performFetch()
            #expect(frc.fetchedObjects?.map(\.name) == ["Bob", "Dee"])
            // Edits keep following the new predicate.
            list.reload()
            list.messages = []
            frc.fetchedObjects?.first?.salary = 1
            try context.save()
            // Bob stops matching and was alone in "Eng": the section goes first (Apple's note:
            // sections are reported before objects), then the row.
            #expect(list.messages == ["will", "section 2 0", "object 2 Bob", "did"])
            #expect(frc.fetchedObjects?.map(\.name) == ["Dee"])
            #expect(list.tableView.rows == list.expectedRows())
        }
    }

    // coredata-semantics.md (l): after the context's reset() the controller is invalidated
    // without a delegate message; the app fetches again.
    @Test func contextResetInvalidatesWithoutAMessageUntilTheNextFetch() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let list = PortedStaffListController(
                context: context, request: Self.staffRequest(), sectionNameKeyPath: "unit.name")
            let frc = list.fetchedResultsController
            try frc.performFetch()
            list.messages = []
            context.reset()
            #expect(list.messages.isEmpty)
            #expect(frc.fetchedObjects == nil)
            try frc.performFetch()
            #expect(frc.fetchedObjects?.count == 4)
            #expect(list.numberOfSections() == 2)
        }
    }

    // NSManagedObjectContext.automaticallyMergesChangesFromParent: a sibling (background)
    // context's save merges into the view context, and the controller reports it.
    @Test func aBackgroundSaveMergedAutomaticallyReachesTheDelegate() async throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        context.automaticallyMergesChangesFromParent = true
        // DifferencesFromCoreData: a root context gets its coordinator at init.
        let background = ManagedObjectContext(
            concurrencyType: .privateQueueConcurrencyType,
            coordinator: try #require(context.persistentStoreCoordinator))
        let list = try context.performAndWait {
            let list = PortedStaffListController(
                context: context, request: Self.staffRequest(), sectionNameKeyPath: "unit.name")
            try list.fetchedResultsController.performFetch()
            list.reload()
            list.messages = []
            return UncheckedSendable(list)
        }
        try await background.perform {
            let request = Team.fetchRequest()
            request.predicate = try FetchPredicate(format: "name == %@", "Eng")
            let eng = try background.fetch(request)[0]
            StaffFixture.employee(background, "Abe", team: nil).unit = eng
            try background.save()
        }
        try await context.perform {}  // the merge queued on the view context has run
        try context.performAndWait {
            #expect(list.value.messages == ["will", "object 1 Abe", "did"])
            #expect(list.value.tableView.rows == list.value.expectedRows())
            #expect(list.value.tableView.rows.first == ["Abe", "Ann", "Bob"])
            _ = try context.count(for: Employee.fetchRequest())
        }
    }

    // NSFetchedResultsControllerDelegate: controller(_:didChangeContentWith:) with a snapshot
    // replaces the per-change calls; the CollectionDifference form works only without
    // sections.
    @Test func theSnapshotAndDifferenceFormsReplaceThePerChangeCalls() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let snapshotFRC = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            let snapshotDelegate = PortedSnapshotDelegate()
            snapshotFRC.delegate = snapshotDelegate
            try snapshotFRC.performFetch()
            let plainRequest = Self.staffRequest()
            plainRequest.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let differenceFRC = FetchedResultsController(
                fetchRequest: plainRequest, managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            let differenceDelegate = PortedDifferenceDelegate()
            differenceFRC.delegate = differenceDelegate
            try differenceFRC.performFetch()

            let abe = StaffFixture.employee(context, "Abe", team: nil, salary: 1)
            abe.unit = snapshotFRC.object(at: IndexPath(item: 0, section: 0)).unit
            // As with Core Data, a snapshot holds the IDs the objects have when the changes are
            // processed (at the start of save): obtain permanent IDs first, as diffable-data-
            // source code does (newbe.dev "How to get a diffable snapshot from an
            // NSFetchResultsController in iOS 13": "the snapshot must not contain temporary
            // object IDs").
            try context.obtainPermanentIDs(for: [abe])
            try context.save()
            #expect(snapshotDelegate.perChange == 0)
            #expect(differenceDelegate.perChange == 0)
            let snapshot = try #require(snapshotDelegate.snapshots.last)
            #expect(snapshot.sectionIdentifiers == ["Eng", "sales"])
            #expect(snapshot.itemIdentifiers(inSection: "Eng").first == abe.objectID)
            // NSDiffableDataSourceSnapshot's queries, as snapshot-applying code uses them
            // (comparing an item's index in the old and new snapshot to decide a reload).
            #expect(snapshot.numberOfItems(inSection: "Eng") == 3)
            #expect(snapshot.indexOfSection("sales") == 1)
            #expect(snapshot.indexOfSection("Ops") == nil)
            #expect(snapshot.indexOfItem(abe.objectID) == 0)
            let dee = snapshotFRC.object(at: IndexPath(item: 1, section: 1))
            #expect(snapshot.indexOfItem(dee.objectID) == 4)
            #expect(snapshot.sectionIdentifier(containingItem: dee.objectID) == "sales")
            // Core Data hands the snapshot delegate the results at performFetch() too: apps
            // rely on it ("always call itemController.performFetch which will end up calling
            // this function", Pocket/pocket-ios PR 504; "animatingDifferences:
            // !self.performingFetch", newbe.dev answer cited above).
            #expect(snapshotDelegate.snapshots.count == 2)
            let first = try #require(snapshotDelegate.snapshots.first)
            #expect(first.indexOfItem(abe.objectID) == nil)
            #expect(first.numberOfItems == 4)
            #expect(first.reloadedItemIdentifiers.isEmpty)
            #expect(snapshot.numberOfItems == 5)
            // After a predicate change, the refetch's snapshot is the new list.
            snapshotFRC.fetchRequest.predicate = try FetchPredicate(format: "salary > %d", 5)
            try snapshotFRC.performFetch()
            #expect(snapshotDelegate.snapshots.count == 3)
            #expect(snapshotDelegate.snapshots.last?.numberOfItems == 2)
            #expect(differenceDelegate.differences.count == 1)
            let diff = try #require(differenceDelegate.differences.last)
            #expect(diff.insertions.count == 1)
            #expect(diff.removals.isEmpty)
        }
    }
}
