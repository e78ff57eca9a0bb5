import Foundation
import ObjectGraph
import Testing

// Core Data list code ported with the README's renames only (NSFetchedResultsController ->
// FetchedResultsController, NSFetchRequest -> FetchRequest, NSPredicate -> FetchPredicate, …).
// Apple's documentation cited below: developer.apple.com/documentation/coredata/
// nsfetchedresultscontroller (and its object(at:), indexPath(forObject:), sectionIndexTitles,
// section(forSectionIndexTitle:at:) pages), nsfetchedresultscontrollerdelegate ("Typical use"),
// nsfetchedresultssectioninfo.

/// A table view's state as UIKit keeps it: rows per section, changed in batches between
/// `beginUpdates()` and `endUpdates()` the way `UITableView` applies them (deletions at old
/// index paths, then insertions at new ones; a reload changes no structure).
final class PortedTableView {
    /// The cells: each row's object and the text it shows.
    private var cells: [[(id: ObjectIdentifier, text: String)]] = []
    /// The text of each row.
    var rows: [[String]] { cells.map { $0.map(\.text) } }
    private(set) var reloaded: [String] = []
    private var updating = false
    private var deletedSections = IndexSet()
    private var insertedSections = IndexSet()
    private var deletedRows: [IndexPath] = []
    private var insertedRows: [IndexPath] = []
    private var reloadRows: [IndexPath] = []
    var cell: (IndexPath) -> (id: ObjectIdentifier, text: String) = { _ in
        (ObjectIdentifier(PortedTableView.self), "")
    }

    /// `reloadData()`: asks the data source for everything.
    func reloadData(sections: Int, rowsIn: (Int) -> Int) {
        cells = (0..<sections).map { s in
            (0..<rowsIn(s)).map { cell(IndexPath(item: $0, section: s)) }
        }
    }

    func beginUpdates() {
        updating = true
        deletedSections = []
        insertedSections = []
        deletedRows = []
        insertedRows = []
        reloadRows = []
        reloaded = []
    }
    func insertSections(_ s: IndexSet) { insertedSections.formUnion(s) }
    func deleteSections(_ s: IndexSet) { deletedSections.formUnion(s) }
    func insertRows(at paths: [IndexPath]) { insertedRows += paths }
    func deleteRows(at paths: [IndexPath]) { deletedRows += paths }
    func reloadRows(at paths: [IndexPath]) { reloadRows += paths }

    func endUpdates() {
        precondition(updating)
        updating = false
        // UIKit's reloadRows takes index paths from before the update; the reloaded cell is
        // asked for again wherever its row ends up.
        let reloadedIDs = reloadRows.map { cells[$0.section][$0.item].id }
        for path in deletedRows.sorted(by: >) where !deletedSections.contains(path.section) {
            cells[path.section].remove(at: path.item)
        }
        for s in deletedSections.reversed() { cells.remove(at: s) }
        for s in insertedSections { cells.insert([], at: s) }
        for path in insertedRows.sorted() {
            cells[path.section].insert(cell(path), at: path.item)
        }
        for id in reloadedIDs {
            for s in cells.indices {
                if let i = cells[s].firstIndex(where: { $0.id == id }) {
                    cells[s][i] = cell(IndexPath(item: i, section: s))
                }
            }
        }
        reloaded = reloadRows.map { "\($0.section).\($0.item)" }
    }
}

/// Apple's "Typical use" of NSFetchedResultsControllerDelegate, ported: begin updates in
/// `controllerWillChangeContent`, section and row changes in the two `didChange` methods,
/// end updates in `controllerDidChangeContent`.
final class PortedStaffListController: FetchedResultsControllerDelegate {
    let tableView = PortedTableView()
    let fetchedResultsController: FetchedResultsController<Employee>
    var messages: [String] = []

    init(
        context: ManagedObjectContext, request: FetchRequest<Employee>, sectionNameKeyPath: String?
    ) {
        fetchedResultsController = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: sectionNameKeyPath, cacheName: "Staff")
        fetchedResultsController.delegate = self
        tableView.cell = { [unowned self] in
            let employee = self.fetchedResultsController.object(at: $0)
            return (ObjectIdentifier(employee), employee.name ?? "")
        }
    }

    // MARK: data source

    func numberOfSections() -> Int { fetchedResultsController.sections?.count ?? 0 }

    func numberOfRows(inSection section: Int) -> Int {
        guard let sections = fetchedResultsController.sections else { return 0 }
        let sectionInfo = sections[section]
        return sectionInfo.numberOfObjects
    }

    func titleForHeader(inSection section: Int) -> String? {
        guard let sectionInfo = fetchedResultsController.sections?[section] else { return nil }
        return sectionInfo.name
    }

    func sectionIndexTitles() -> [String]? { fetchedResultsController.sectionIndexTitles }

    func section(forSectionIndexTitle title: String, at index: Int) -> Int {
        fetchedResultsController.section(forSectionIndexTitle: title, at: index)
    }

    func reload() {
        tableView.reloadData(sections: numberOfSections(), rowsIn: numberOfRows(inSection:))
    }

    /// What the table should show: the controller's sections read through the data source.
    func expectedRows() -> [[String]] {
        (0..<numberOfSections()).map { s in
            (0..<numberOfRows(inSection: s)).map {
                fetchedResultsController.object(at: IndexPath(item: $0, section: s)).name ?? ""
            }
        }
    }

    // MARK: NSFetchedResultsControllerDelegate

    func controllerWillChangeContent(_ controller: FetchedResultsControllerBase) {
        messages.append("will")
        tableView.beginUpdates()
    }

    func controller(
        _ controller: FetchedResultsControllerBase,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {
        messages.append("section \(type.rawValue) \(sectionIndex)")
        switch type {
        case .insert: tableView.insertSections(IndexSet(integer: sectionIndex))
        case .delete: tableView.deleteSections(IndexSet(integer: sectionIndex))
        default: return
        }
    }

    func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        messages.append("object \(type.rawValue) \((anObject as? Employee)?.name ?? "?")")
        switch type {
        case .insert: tableView.insertRows(at: [newIndexPath!])
        case .delete: tableView.deleteRows(at: [indexPath!])
        case .update: tableView.reloadRows(at: [indexPath!])
        case .move:
            tableView.deleteRows(at: [indexPath!])
            tableView.insertRows(at: [newIndexPath!])
        @unknown default: fatalError()
        }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsControllerBase) {
        messages.append("did")
        tableView.endUpdates()
    }
}

/// `NSDiffableDataSourceSnapshot` delegate form, ported.
final class PortedSnapshotDelegate: FetchedResultsControllerSnapshotDelegate {
    var snapshots: [FetchedResultsSnapshot] = []
    var perChange = 0
    func controller(
        _ controller: FetchedResultsControllerBase,
        didChangeContentWith snapshot: FetchedResultsSnapshot
    ) {
        snapshots.append(snapshot)
    }
    func controllerWillChangeContent(_ controller: FetchedResultsControllerBase) { perChange += 1 }
}

/// The `CollectionDifference<NSManagedObjectID>` delegate form, ported.
final class PortedDifferenceDelegate: FetchedResultsControllerDifferenceDelegate {
    var differences: [CollectionDifference<ManagedObjectID>] = []
    var perChange = 0
    func controller(
        _ controller: FetchedResultsControllerBase,
        didChangeContentWith diff: CollectionDifference<ManagedObjectID>
    ) {
        differences.append(diff)
    }
    func controllerWillChangeContent(_ controller: FetchedResultsControllerBase) { perChange += 1 }
}

/// Xcode's Master-Detail template (Core Data), ported: a lazily made controller without
/// sections, newest first, cache "Master", batch size 20; its delegate moves rows with
/// `moveRow(at:to:)`.
final class PortedMasterViewController: FetchedResultsControllerDelegate {
    let managedObjectContext: ManagedObjectContext
    private var _fetchedResultsController: FetchedResultsController<Employee>?
    var calls: [String] = []

    init(context: ManagedObjectContext) { managedObjectContext = context }

    var fetchedResultsController: FetchedResultsController<Employee> {
        if _fetchedResultsController != nil {
            return _fetchedResultsController!
        }
        let fetchRequest: FetchRequest<Employee> = Employee.fetchRequest()
        fetchRequest.fetchBatchSize = 20
        let sortDescriptor = FetchSortDescriptor(key: "hired", ascending: false)
        fetchRequest.sortDescriptors = [sortDescriptor]
        let aFetchedResultsController = FetchedResultsController(
            fetchRequest: fetchRequest, managedObjectContext: self.managedObjectContext,
            sectionNameKeyPath: nil, cacheName: "Master")
        aFetchedResultsController.delegate = self
        _fetchedResultsController = aFetchedResultsController
        do {
            try _fetchedResultsController!.performFetch()
        } catch {
            let nserror = error as NSError
            fatalError("Unresolved error \(nserror), \(nserror.userInfo)")
        }
        return _fetchedResultsController!
    }

    func insertNewObject(hired: Date) throws {
        let context = self.fetchedResultsController.managedObjectContext
        let newEvent = Employee(context: context)
        newEvent.hired = hired
        try context.save()
    }

    func commitDelete(forRowAt indexPath: IndexPath) throws {
        let context = fetchedResultsController.managedObjectContext
        context.delete(fetchedResultsController.object(at: indexPath))
        try context.save()
    }

    func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        switch type {
        case .insert: calls.append("insertRows \(newIndexPath!.item)")
        case .delete: calls.append("deleteRows \(indexPath!.item)")
        case .update: calls.append("configureCell \(indexPath!.item)")
        case .move: calls.append("moveRow \(indexPath!.item) \(newIndexPath!.item)")
        }
    }
}

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

    // Bad input. NSFetchedResultsController: "the fetch request must have at least one sort
    // descriptor"; Core Data raises NSInvalidArgumentException. Here performFetch() throws
    // 134060 (DifferencesFromCoreData).
    @Test func aRequestWithoutSortDescriptorsIsRefusedByPerformFetch() throws {
        let context = try StaffFixture.context(.inMemory)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Employee.fetchRequest(), managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.code == 134060)
            #expect(error.localizedDescription.localizedCaseInsensitiveContains("sort"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    @Test func aSectionKeyPathThatDoesNotExistIsRefusedNamingIt() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.nmae", cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.localizedDescription.contains("unit.nmae"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    @Test func aSectionKeyPathThroughAToManyIsRefusedNamingIt() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.members.name", cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.localizedDescription.contains("unit.members"))
        }
    }

    // NSFetchedResultsController.sectionNameKeyPath: the key path must give the same relative
    // order as the first sort descriptor; when it does not, performFetch() throws naming where.
    @Test func sectionsOutOfOrderAreRefusedNamingTheObjectIndex() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            // By name: Abe(sales) Ann(Eng) Bob(Eng) Cid(sales) Dee(sales): "sales" comes back
            // at index 3 after "Eng", which Core Data reports as "The fetched object at index 3
            // has an out of order section name".
            StaffFixture.employee(context, "Abe", team: nil).unit = frc.managedObjectContext
                .registeredObjects.compactMap { $0 as? Team }.first { $0.name == "sales" }
            try context.save()
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.code == 134060)
            #expect(error.localizedDescription.contains("index 3"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    // A subclass overriding sectionIndexTitles and sectionIndexTitle(forSectionName:), as
    // Apple's pages for both suggest, and a table's section-index lookup against it.
    @Test func aSubclassOverridesTheSectionIndexAndTheLookupLandsOnTheNextSection() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = AlphabetIndexController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            try frc.performFetch()
            #expect(frc.sectionIndexTitles == ["A", "B", "E", "Q", "S", "Z"])
            #expect(frc.sections?.map(\.indexTitle) == ["E", "S"])
            #expect(frc.section(forSectionIndexTitle: "E", at: 2) == 0)
            #expect(frc.section(forSectionIndexTitle: "S", at: 4) == 1)
            #expect(frc.section(forSectionIndexTitle: "Q", at: 3) == 1)
            #expect(frc.section(forSectionIndexTitle: "A", at: 0) == 0)
            #expect(frc.section(forSectionIndexTitle: "Z", at: 5) == 1)
        }
    }

    // NSFetchedResultsControllerDelegate.controller(_:sectionIndexTitleForSectionName:): the
    // delegate's title is used when it implements the method.
    @Test func aDelegateTitlesTheSectionIndex() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            let delegate = TitlingDelegate()
            frc.delegate = delegate
            try frc.performFetch()
            #expect(frc.sectionIndexTitles == ["#Eng", "#sales"])
            #expect(frc.sections?.map(\.indexTitle) == ["#Eng", "#sales"])
            #expect(frc.section(forSectionIndexTitle: "#sales", at: 1) == 1)
        }
    }

    // NSFetchedResultsController.sections is [any NSFetchedResultsSectionInfo]?; code that
    // stores it under that type keeps compiling.
    @Test func sectionsConvertToTheSectionInfoProtocolType() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            try frc.performFetch()
            let sections: [any FetchedResultsSectionInfo] = frc.sections ?? []
            #expect(sections.map(\.numberOfObjects) == [2, 2])
            #expect(sections.map(\.name) == ["Eng", "sales"])
            #expect(sections[1].objects?.count == 2)
        }
    }

    // Xcode's Master-Detail template: the new object goes to the top (newest first), a row
    // deleted by the table is deleted at its index path, a re-dated row moves.
    @Test func theMasterDetailTemplatePortsWithRenamesOnly() throws {
        let context = try StaffFixture.context(.inMemory)
        try context.performAndWait {
            let master = PortedMasterViewController(context: context)
            #expect(master.fetchedResultsController.cacheName == "Master")
            #expect(master.fetchedResultsController.sections?.count == 1)
            #expect(master.fetchedResultsController.sections?[0].numberOfObjects == 0)
            for day in 0..<3 {
                try master.insertNewObject(hired: Date(timeIntervalSince1970: Double(day) * 86_400))
            }
            #expect(master.calls == ["insertRows 0", "insertRows 0", "insertRows 0"])
            master.calls = []
            try master.commitDelete(forRowAt: IndexPath(item: 1, section: 0))
            #expect(master.calls == ["deleteRows 1"])
            master.calls = []
            master.fetchedResultsController.object(at: IndexPath(item: 1, section: 0)).hired =
                Date(timeIntervalSince1970: 10 * 86_400)
            try context.save()
            #expect(master.calls == ["moveRow 1 0"])
            #expect(master.fetchedResultsController.fetchedObjects?.count == 2)
        }
    }

    // NSFetchedResultsController overview, "No tracking: the delegate is set to nil. The
    // controller simply provides access to the data as it was when the fetch was executed."
    @Test func withoutADelegateTheResultsStayAsFetched() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            try frc.performFetch()
            StaffFixture.employee(context, "Abe", team: nil).unit = frc.fetchedObjects?[0].unit
            try context.save()
            #expect(frc.fetchedObjects?.map(\.name) == ["Ann", "Bob", "Cid", "Dee"])
            try frc.performFetch()
            #expect(frc.fetchedObjects?.first?.name == "Abe")
        }
    }

    // Code that sets the delegate after the first fetch (a view controller that fetches in
    // viewDidLoad and becomes delegate in viewWillAppear) gets the changes from then on
    // (Apple's overview: tracking is on while the delegate is non-nil).
    @Test func aDelegateSetAfterTheFetchReceivesLaterChanges() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            try frc.performFetch()
            let recorder = ControllerRecorder()
            frc.delegate = recorder
            StaffFixture.employee(context, "Bea", team: nil)
            try context.save()
            #expect(recorder.take() == ["will", "insert Bea nil->0.1", "did"])
            #expect(frc.fetchedObjects?.map(\.name) == ["Ann", "Bea", "Bob", "Cid", "Dee"])
        }
    }

    // A section key path to a number: the section name is the value's description.
    @Test func aNumericSectionKeyPathNamesSectionsByTheValue() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "salary", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: "salary", cacheName: nil)
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["3", "5", "7", "9"])
        }
    }

    @Test func aSortKeyThatDoesNotExistIsRefusedNamingIt() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "nmae", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.localizedDescription.contains("nmae"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    // NSFetchedResultsController.deleteCache(withName:) is a class method; accepted here.
    @Test func deleteCacheIsAcceptedAsAClassMethod() {
        FetchedResultsController<Employee>.deleteCache(withName: "Staff")
        FetchedResultsController<Employee>.deleteCache(withName: nil)
    }

    // object(at:): "If indexPath does not describe a valid index path in the fetch results, an
    // exception is raised." Here: a trap (Swift cannot raise a catchable exception).
    @Test func anOutOfRangeIndexPathTrapsNamingThePathAndTheSections() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try StaffFixture.context(.inMemory)
                _ = try Self.seed(context)
                try context.performAndWait {
                    let frc = FetchedResultsController(
                        fetchRequest: Self.staffRequest(), managedObjectContext: context,
                        sectionNameKeyPath: "unit.name", cacheName: nil)
                    try frc.performFetch()
                    _ = frc.object(at: IndexPath(item: 2, section: 0))
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("object(at:)"))
        #expect(message.contains("[0, 2]"))
        #expect(message.contains("[2, 2]"))
    }

    // NSDiffableDataSourceSnapshot raises for a section it does not hold; so does this one,
    // naming the section.
    @Test func askingASnapshotForAMissingSectionTrapsNamingIt() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try StaffFixture.context(.inMemory)
                _ = try Self.seed(context)
                try context.performAndWait {
                    let frc = FetchedResultsController(
                        fetchRequest: Self.staffRequest(), managedObjectContext: context,
                        sectionNameKeyPath: "unit.name", cacheName: nil)
                    let delegate = PortedSnapshotDelegate()
                    frc.delegate = delegate
                    try frc.performFetch()
                    StaffFixture.employee(context, "Abe", team: nil).unit =
                        frc.fetchedObjects?[0].unit
                    try context.save()
                    _ = delegate.snapshots[0].itemIdentifiers(inSection: "Ops")
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("no section named 'Ops'"))
    }

    // Used off its context's queue it traps, as the context does.
    @Test func useFromTheWrongQueueTrapsNamingTheCall() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try StaffFixture.context(.inMemory)
                _ = try Self.seed(context)
                let frc = FetchedResultsController(
                    fetchRequest: Self.staffRequest(), managedObjectContext: context,
                    sectionNameKeyPath: "unit.name", cacheName: nil)
                try frc.performFetch()
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("performFetch()"))
    }
}

/// A controller subclass as Core Data code writes one: its own section index (Apple:
/// sectionIndexTitles, "You should override this method if you want to return a different
/// array for the section index"; sectionIndexTitle(forSectionName:), "override this method if
/// you need a different way to convert from a section name to its name in the section index").
final class AlphabetIndexController: FetchedResultsController<Employee> {
    override var sectionIndexTitles: [String] { ["A", "B", "E", "Q", "S", "Z"] }
    override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        sectionName.first.map { String($0).uppercased() }
    }
}

/// A delegate that titles the index itself (controller(_:sectionIndexTitleForSectionName:)).
final class TitlingDelegate: FetchedResultsControllerDelegate {
    func controller(
        _ controller: FetchedResultsControllerBase,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        "#" + sectionName
    }
}
