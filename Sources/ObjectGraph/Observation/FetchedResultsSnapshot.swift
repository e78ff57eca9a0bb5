import Foundation

/// The results of a fetched results controller as section names and object IDs.
///
/// What ``FetchedResultsControllerSnapshotDelegate`` receives and what the change stream
/// (``ManagedObjectContext/changes(for:sectionNameKeyPath:)``) yields. Plain, `Sendable` data:
/// pass it to any queue and look the objects up with `object(with:)` where they are needed.
///
/// - Note: Stands in for `NSDiffableDataSourceSnapshot<String, NSManagedObjectID>`, which is
///   UIKit/AppKit; names follow it.
public struct FetchedResultsSnapshot: Sendable, Hashable {
    /// One section: its name and its objects' IDs in order.
    public struct Section: Sendable, Hashable {
        /// The section's name (`""` without a section key path).
        public let name: String
        /// The IDs of the section's objects, in order.
        public let itemIdentifiers: [ManagedObjectID]
    }

    /// The sections in order.
    public let sections: [Section]
    /// The IDs of objects that changed in place in the event this snapshot ends (still in the
    /// results, not inserted); empty for a first snapshot.
    public let reloadedItemIdentifiers: [ManagedObjectID]

    /// The section names, in order.
    public var sectionIdentifiers: [String] { sections.map(\.name) }
    /// Every object ID, section after section.
    public var itemIdentifiers: [ManagedObjectID] { sections.flatMap(\.itemIdentifiers) }
    /// How many sections there are.
    public var numberOfSections: Int { sections.count }
    /// How many objects there are in all.
    public var numberOfItems: Int { sections.reduce(0) { $0 + $1.itemIdentifiers.count } }

    /// The IDs in the section named `name`, or `nil` when there is no such section.
    public func itemIdentifiers(inSection name: String) -> [ManagedObjectID]? {
        sections.first { $0.name == name }?.itemIdentifiers
    }
}
