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

    /// The IDs in the section named `name`, in order.
    ///
    /// - Precondition: a section named `name` exists; otherwise this traps naming it and the
    ///   sections there are (`NSDiffableDataSourceSnapshot` raises). Check
    ///   ``indexOfSection(_:)`` first when unsure.
    /// - Complexity: O(sections).
    /// - Note: Mirrors `NSDiffableDataSourceSnapshot.itemIdentifiers(inSection:)`.
    public func itemIdentifiers(inSection name: String) -> [ManagedObjectID] {
        guard let index = indexOfSection(name) else {
            preconditionFailure(
                "FetchedResultsSnapshot.itemIdentifiers(inSection:): no section named '\(name)' "
                    + "(sections: \(sectionIdentifiers))")
        }
        return sections[index].itemIdentifiers
    }

    /// How many objects the section named `name` holds.
    ///
    /// - Precondition: a section named `name` exists; otherwise this traps naming it
    ///   (`NSDiffableDataSourceSnapshot` raises).
    /// - Complexity: O(sections).
    /// - Note: Mirrors `NSDiffableDataSourceSnapshot.numberOfItems(inSection:)`.
    public func numberOfItems(inSection name: String) -> Int {
        itemIdentifiers(inSection: name).count
    }

    /// The position of the section named `name`, or `nil` when there is none.
    ///
    /// - Complexity: O(sections).
    /// - Note: Mirrors `NSDiffableDataSourceSnapshot.indexOfSection(_:)`.
    public func indexOfSection(_ name: String) -> Int? {
        sections.firstIndex { $0.name == name }
    }

    /// The position of `identifier` among all the objects (section after section), or `nil`
    /// when it is not in the snapshot.
    ///
    /// - Complexity: O(n).
    /// - Note: Mirrors `NSDiffableDataSourceSnapshot.indexOfItem(_:)`.
    public func indexOfItem(_ identifier: ManagedObjectID) -> Int? {
        var offset = 0
        for section in sections {
            if let i = section.itemIdentifiers.firstIndex(of: identifier) { return offset + i }
            offset += section.itemIdentifiers.count
        }
        return nil
    }

    /// The name of the section holding `identifier`, or `nil` when it is not in the snapshot.
    ///
    /// - Complexity: O(n).
    /// - Note: Mirrors `NSDiffableDataSourceSnapshot.sectionIdentifier(containingItem:)`.
    public func sectionIdentifier(containingItem identifier: ManagedObjectID) -> String? {
        sections.first { $0.itemIdentifiers.contains(identifier) }?.name
    }
}
