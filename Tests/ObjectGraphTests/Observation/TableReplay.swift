import Foundation
import ObjectGraph

/// A table that applies a controller's per-change calls the way a table view applies a batch
/// update: deletions (rows and sections) at old index paths first, then insertions at new ones;
/// a move is a deletion at its old path and an insertion at its new one; an update changes no
/// structure. Replaying every event must give the controller's own sections, which checks each
/// reported index path.
final class TableReplay: ControllerRecorderBase {
    private(set) var sections: [[ObjectIdentifier]] = []
    private var deletedSections = Set<Int>()
    private var insertedSections: [Int] = []
    private var deletedRows = Set<IndexPath>()
    private var insertedRows: [(IndexPath, ObjectIdentifier)] = []
    private(set) var problems: [String] = []

    /// Starts from the controller's current sections.
    func load(_ frc: FetchedResultsController<Employee>) {
        sections = (frc.sections ?? []).map { $0.results.map(ObjectIdentifier.init) }
    }

    override func controllerWillChangeContent(_ controller: FetchedResultsControllerBase) {
        deletedSections = []
        insertedSections = []
        deletedRows = []
        insertedRows = []
    }

    override func controller(
        _ controller: FetchedResultsControllerBase,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {
        switch type {
        case .delete: deletedSections.insert(sectionIndex)
        case .insert: insertedSections.append(sectionIndex)
        default: problems.append("section change of type \(type)")
        }
    }

    override func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        let id = ObjectIdentifier(anObject as AnyObject)
        switch type {
        case .delete:
            guard let indexPath, newIndexPath == nil else { return problems.append("bad delete") }
            deletedRows.insert(indexPath)
        case .insert:
            guard let newIndexPath, indexPath == nil else { return problems.append("bad insert") }
            insertedRows.append((newIndexPath, id))
        case .move:
            guard let indexPath, let newIndexPath else {
                return problems.append("bad move")
            }
            deletedRows.insert(indexPath)
            insertedRows.append((newIndexPath, id))
        case .update:
            guard let indexPath, newIndexPath != nil else { return problems.append("bad update") }
            if sections.indices.contains(indexPath.section),
                sections[indexPath.section].indices.contains(indexPath.item),
                sections[indexPath.section][indexPath.item] == id
            {
                return
            }
            problems.append("update at \(indexPath) is not that object")
        }
    }

    override func controllerDidChangeContent(_ controller: FetchedResultsControllerBase) {
        var kept: [[ObjectIdentifier]] = []
        for (s, rows) in sections.enumerated() where !deletedSections.contains(s) {
            kept.append(
                rows.enumerated().filter {
                    !deletedRows.contains(IndexPath(item: $0.offset, section: s))
                }
                .map(\.element))
        }
        for s in insertedSections.sorted() {
            guard s <= kept.count else { return problems.append("section insert at \(s)") }
            kept.insert([], at: s)
        }
        for (path, id) in insertedRows.sorted(by: { $0.0 < $1.0 }) {
            guard kept.indices.contains(path.section), path.item <= kept[path.section].count else {
                return problems.append("row insert at \(path)")
            }
            kept[path.section].insert(id, at: path.item)
        }
        sections = kept
    }
}
