import Foundation

/// One transaction of a store's persistent history, as the store keeps it: plain `Sendable`
/// data a store returns from ``PersistentStore/history(after:)``.
///
/// - Note: The store-level part of `NSPersistentHistoryTransaction`.
public struct StoreHistoryTransaction: Sendable, Hashable {
    /// The transaction number: increases by one with each commit to the store.
    public var number: Int64
    /// When the commit happened (the coordinator's clock).
    public var timestamp: Date
    /// The committing context's `transactionAuthor`.
    public var author: String?
    /// The committing context's `name`.
    public var contextName: String?
    /// The committing program's bundle identifier, or its process name where it has none.
    public var bundleID: String
    /// The committing process's identifier, in decimal.
    public var processID: String
    /// What the commit changed, in order: deletes, updates, inserts.
    public var changes: [StoreHistoryChange]

    /// Creates a transaction.
    public init(
        number: Int64, timestamp: Date, author: String? = nil, contextName: String? = nil,
        bundleID: String = StoreHistoryTransaction.currentBundleID,
        processID: String = StoreHistoryTransaction.currentProcessID,
        changes: [StoreHistoryChange]
    ) {
        self.number = number
        self.timestamp = timestamp
        self.author = author
        self.contextName = contextName
        self.bundleID = bundleID
        self.processID = processID
        self.changes = changes
    }

    /// This program's bundle identifier, or its process name when it has none (on Linux).
    public static let currentBundleID: String =
        Bundle.main.bundleIdentifier ?? ProcessInfo.processInfo.processName
    /// This process's identifier, in decimal.
    public static var currentProcessID: String {
        String(ProcessInfo.processInfo.processIdentifier)
    }

    /// The history record of committing `changes` as transaction `number`.
    ///
    /// - Parameters:
    ///   - changes: The change set being committed.
    ///   - number: The transaction number it is committed as.
    ///   - oldRow: The row each updated or deleted object had before the commit: updates
    ///     record the names of the stored slots whose values differ, deletes the values of
    ///     the attributes marked ``AttributeDescription/preservesValueInHistoryOnDeletion``.
    /// - Complexity: O(slots of the changed rows).
    public init(
        committing changes: StoreChangeSet, number: Int64,
        oldRow: (ManagedObjectID) -> StoreRow?
    ) {
        var list: [StoreHistoryChange] = []
        list.reserveCapacity(
            changes.deleted.count + changes.updated.count + changes.patched.count
                + changes.inserted.count)
        for (id, _) in changes.deleted {
            list.append(
                StoreHistoryChange(
                    objectID: id, changeType: .delete,
                    tombstone: oldRow(id).map { StoreHistoryChange.tombstone(of: $0) }))
        }
        for row in changes.updated {
            list.append(
                StoreHistoryChange(
                    objectID: row.objectID, changeType: .update,
                    updatedProperties: oldRow(row.objectID).map {
                        StoreHistoryChange.changedProperties(from: $0, to: row)
                    } ?? row.objectID.entity.properties.map(\.name)))
        }
        // A patch's slots the row keeps as they were are not changes, as with complete rows.
        for patch in changes.patched {
            list.append(
                StoreHistoryChange(
                    objectID: patch.objectID, changeType: .update,
                    updatedProperties: oldRow(patch.objectID).map {
                        patch.changedProperties(from: $0)
                    } ?? patch.objectID.entity.properties.map(\.name)))
        }
        for row in changes.inserted {
            list.append(StoreHistoryChange(objectID: row.objectID, changeType: .insert))
        }
        self.init(
            number: number, timestamp: changes.timestamp, author: changes.author,
            contextName: changes.contextName, changes: list)
    }
}

/// One object's change in a ``StoreHistoryTransaction``.
///
/// - Note: The store-level part of `NSPersistentHistoryChange`.
public struct StoreHistoryChange: Sendable, Hashable {
    /// The changed object.
    public var objectID: ManagedObjectID
    /// Insert, update or delete.
    public var changeType: PersistentHistoryChangeType
    /// For an update: the names of the stored properties whose values changed, in slot order.
    public var updatedProperties: [String]?
    /// For a delete: the values of the attributes marked
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, by name (null values
    /// included); `nil` for other changes.
    public var tombstone: [String: AttributeValue]?

    /// Creates a change.
    public init(
        objectID: ManagedObjectID, changeType: PersistentHistoryChangeType,
        updatedProperties: [String]? = nil, tombstone: [String: AttributeValue]? = nil
    ) {
        self.objectID = objectID
        self.changeType = changeType
        self.updatedProperties = changeType == .update ? (updatedProperties ?? []) : nil
        self.tombstone = changeType == .delete ? (tombstone ?? [:]) : nil
    }

    /// The names of the stored slots whose values differ between `old` and `new`.
    public static func changedProperties(from old: StoreRow, to new: StoreRow) -> [String] {
        let properties = new.objectID.entity.properties
        var names: [String] = []
        for i in properties.indices where i < old.values.count && i < new.values.count {
            if case .notStored = new.values[i] { continue }
            if old.values[i] != new.values[i] { names.append(properties[i].name) }
        }
        return names
    }

    /// The preserved attribute values of `row`.
    public static func tombstone(of row: StoreRow) -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for attribute in row.objectID.entity.attributes
        where attribute.preservesValueInHistoryOnDeletion && !attribute.isTransient {
            values[attribute.name] = row.values[attribute.index].attributeValue
        }
        return values
    }
}

/// What kind of change a history entry records.
///
/// - Note: Mirrors `NSPersistentHistoryChangeType` (same raw values).
public enum PersistentHistoryChangeType: Int, Sendable, Hashable, CaseIterable {
    /// The object was inserted.
    case insert = 0
    /// The object was updated.
    case update = 1
    /// The object was deleted.
    case delete = 2
}
