import Foundation

/// What happened to an object or a section in a fetched results controller's results.
///
/// - Note: Mirrors `NSFetchedResultsChangeType` (same raw values).
public enum FetchedResultsChangeType: UInt, Sendable, Hashable {
    /// The object or section was added.
    case insert = 1
    /// The object or section was removed.
    case delete = 2
    /// The object moved: a sort key or its section changed and its index path with it.
    case move = 3
    /// The object changed without moving.
    case update = 4
}

/// Receives a fetched results controller's changes, one call per change, between
/// ``controllerWillChangeContent(_:)`` and ``controllerDidChangeContent(_:)``.
///
/// Every method has an empty default, so implement only those you need. Swift cannot ask
/// whether an optional method is implemented, so the two whole-change forms Core Data offers
/// are separate protocols refining this one: conform to
/// ``FetchedResultsControllerSnapshotDelegate`` or
/// ``FetchedResultsControllerDifferenceDelegate`` instead, and the per-change calls are not
/// made. Calls arrive on the context's queue, at the end of the event that made the changes.
///
/// For one event the calls are: `controllerWillChangeContent`; section deletions (old
/// indexes) then insertions (new indexes); object deletions (old index paths), insertions
/// (new), moves (old and new), updates (old and new); `controllerDidChangeContent`.
///
/// - Note: Mirrors `NSFetchedResultsControllerDelegate`.
public protocol FetchedResultsControllerDelegate: AnyObject {
    /// The controller is about to report the changes of one event.
    ///
    /// - Note: Mirrors `controllerWillChangeContent(_:)`.
    func controllerWillChangeContent(_ controller: FetchedResultsControllerBase)

    /// An object was inserted, deleted, moved or updated.
    ///
    /// `indexPath` is where the object was before the event (`nil` for an insertion);
    /// `newIndexPath` where it is after (`nil` for a deletion). Deletions count against the
    /// old sections, insertions against the new ones, as a table view's batch update expects.
    ///
    /// - Note: Mirrors `controller(_:didChange:at:for:newIndexPath:)`.
    func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?)

    /// A section was inserted (`sectionIndex` in the new sections) or deleted (in the old).
    ///
    /// - Note: Mirrors `controller(_:didChange:atSectionIndex:for:)`.
    func controller(
        _ controller: FetchedResultsControllerBase,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType)

    /// The controller reported every change of one event.
    ///
    /// - Note: Mirrors `controllerDidChangeContent(_:)`.
    func controllerDidChangeContent(_ controller: FetchedResultsControllerBase)

    /// The index title of the section named `sectionName`; the default asks the controller's
    /// ``FetchedResultsControllerBase/sectionIndexTitle(forSectionName:)``.
    ///
    /// - Note: Mirrors `controller(_:sectionIndexTitleForSectionName:)`.
    func controller(
        _ controller: FetchedResultsControllerBase,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String?
}

extension FetchedResultsControllerDelegate {
    /// Does nothing.
    public func controllerWillChangeContent(_ controller: FetchedResultsControllerBase) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {}
    /// Does nothing.
    public func controller(
        _ controller: FetchedResultsControllerBase,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {}
    /// Does nothing.
    public func controllerDidChangeContent(_ controller: FetchedResultsControllerBase) {}
    /// The controller's own ``FetchedResultsControllerBase/sectionIndexTitle(forSectionName:)``.
    public func controller(
        _ controller: FetchedResultsControllerBase,
        sectionIndexTitleForSectionName sectionName: String
    ) -> String? {
        controller.sectionIndexTitle(forSectionName: sectionName)
    }
}

/// A delegate that receives each event's changes as one snapshot of the new results.
///
/// A delegate conforming to this protocol gets no other change calls (no will/did-change,
/// no per-object or per-section calls). It wins over
/// ``FetchedResultsControllerDifferenceDelegate``. Each
/// ``FetchedResultsController/performFetch()`` also hands it the fetched results, as Core
/// Data's does, so applying every snapshot it receives keeps a list current.
///
/// - Note: Mirrors `controller(_:didChangeContentWith:)` with an
///   `NSDiffableDataSourceSnapshot`, which is UIKit/AppKit; ``FetchedResultsSnapshot`` stands
///   in for it.
public protocol FetchedResultsControllerSnapshotDelegate: FetchedResultsControllerDelegate {
    /// The results after one event: section names and object IDs.
    func controller(
        _ controller: FetchedResultsControllerBase,
        didChangeContentWith snapshot: FetchedResultsSnapshot)
}

/// A delegate that receives each event's changes as a difference of object IDs.
///
/// Used only when the controller has no section key path (otherwise the per-change calls of
/// ``FetchedResultsControllerDelegate`` are made). A conforming delegate gets no other change
/// calls. The difference holds insertions and removals only: an object that changed in place
/// does not appear, and one that moved appears as a removal and an insertion.
///
/// - Note: Mirrors `controller(_:didChangeContentWith:)` with a
///   `CollectionDifference<NSManagedObjectID>`.
public protocol FetchedResultsControllerDifferenceDelegate: FetchedResultsControllerDelegate {
    /// How the list of object IDs changed in one event.
    func controller(
        _ controller: FetchedResultsControllerBase,
        didChangeContentWith difference: CollectionDifference<ManagedObjectID>)
}
