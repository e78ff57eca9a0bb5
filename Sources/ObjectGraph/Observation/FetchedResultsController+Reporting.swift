import Foundation

/// Which form of the delegate protocol a delegate takes.
struct DelegateReport {
    let wantsSnapshot: Bool
    let wantsDifference: Bool
    var wantsCalls: Bool { !wantsSnapshot && !wantsDifference }

    /// The snapshot form wins; the difference form applies only without sections (Core
    /// Data's rules for `controller(_:didChangeContentWith:)`).
    init(_ delegate: (any FetchedResultsControllerDelegate)?, hasSections: Bool) {
        wantsSnapshot = delegate is any FetchedResultsControllerSnapshotDelegate
        wantsDifference =
            !wantsSnapshot && !hasSections
            && delegate is any FetchedResultsControllerDifferenceDelegate
    }
}

/// One event's object changes with their index paths, reported in a fixed order.
struct ObjectChanges {
    var deletes: [(ManagedObject, IndexPath)] = []
    var inserts: [(ManagedObject, IndexPath)] = []
    var moves: [(ManagedObject, IndexPath, IndexPath)] = []
    var updates: [(ManagedObject, IndexPath, IndexPath)] = []

    /// Deletions by old index path, insertions by new, moves and updates by old.
    func report(
        _ controller: FetchedResultsControllerBase, _ delegate: any FetchedResultsControllerDelegate
    ) {
        for (object, path) in deletes.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(
                controller, didChange: object, at: path, for: .delete, newIndexPath: nil)
        }
        for (object, path) in inserts.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(
                controller, didChange: object, at: nil, for: .insert, newIndexPath: path)
        }
        for (object, from, to) in moves.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(
                controller, didChange: object, at: from, for: .move, newIndexPath: to)
        }
        for (object, from, to) in updates.sorted(by: { $0.1 < $1.1 }) {
            delegate.controller(
                controller, didChange: object, at: from, for: .update, newIndexPath: to)
        }
    }
}

extension FetchedResultsController {
    /// Reports sections that disappeared (old indexes) and then those that appeared (new).
    func reportSections(
        from old: [String], to new: [String], _ delegate: any FetchedResultsControllerDelegate
    ) {
        guard sectionNameKeyPath != nil, old != new else { return }
        let oldNames = Set(old)
        let newNames = Set(new)
        for (i, name) in old.enumerated() where !newNames.contains(name) {
            delegate.controller(
                self,
                didChange: DeletedSectionInfo(name: name, indexTitle: indexTitle(forSection: name)),
                atSectionIndex: i, for: .delete)
        }
        guard let sections else { return }
        for (i, name) in new.enumerated() where !oldNames.contains(name) {
            delegate.controller(self, didChange: sections[i], atSectionIndex: i, for: .insert)
        }
    }

    /// The current results as section names and object IDs.
    func snapshot(reloaded: [ManagedObjectID]) -> FetchedResultsSnapshot {
        let layout = self.layout ?? FetchedResultsLayout(sorts: [], isSingleSection: true)
        let sections = layout.sections.map { run in
            FetchedResultsSnapshot.Section(
                name: run.name,
                itemIdentifiers: layout.entries[run.start..<(run.start + run.count)].map(
                    \.object.objectID))
        }
        return FetchedResultsSnapshot(sections: sections, reloadedItemIdentifiers: reloaded)
    }
}
