import Foundation
import ObjectGraph
import Testing

// The UIKit side of the list code FetchedResultsPortingTests ports: a table view as UIKit
// keeps it, and the controllers and delegates Apple's templates write.

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
