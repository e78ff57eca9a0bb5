import Foundation

/// One commit to a store, as persistent history recorded it: who, when, and what changed.
///
/// Every commit to a store that tracks history is a transaction: a context's save, and each
/// batch update, delete or insert. Fetch them with a ``PersistentHistoryChangeRequest``;
/// merge one into a context with ``objectIDNotification()``.
///
/// ```swift
/// for transaction in transactions where transaction.author != myAuthor {
///     viewContext.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
/// }
/// ```
///
/// Immutable and `Sendable`.
///
/// - Note: Mirrors `NSPersistentHistoryTransaction`.
public final class PersistentHistoryTransaction: Sendable, CustomStringConvertible {
    /// When the commit happened (the coordinator's clock).
    public var timestamp: Date { record.timestamp }
    /// The identifier of the store committed to.
    public let storeID: String
    /// The committing program's bundle identifier (its process name on Linux).
    public var bundleID: String { record.bundleID }
    /// The committing process's identifier, in decimal.
    public var processID: String { record.processID }
    /// The committing context's `name`.
    public var contextName: String? { record.contextName }
    /// The committing context's `transactionAuthor`.
    public var author: String? { record.author }
    /// The transaction's number in its store: one more than the previous transaction's.
    public var transactionNumber: Int64 { record.number }
    /// The token of this transaction: fetching history after it returns later transactions.
    public var token: PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: storeID, transactionNumber: record.number)
    }

    /// The author of the transaction a file store's migration adds (with no changes), so
    /// that tokens from before it stay valid and consumers can see where the model changed.
    public static let migrationAuthor = "ObjectGraph.migration"

    /// What the transaction changed (deletes, updates, then inserts); `nil` when the request
    /// asked for transactions only.
    ///
    /// Each call returns new change objects whose ``PersistentHistoryChange/transaction`` is
    /// this transaction.
    public var changes: [PersistentHistoryChange]? {
        guard includesChanges else { return nil }
        return (selected ?? Array(record.changes.indices)).map {
            PersistentHistoryChange(transaction: self, index: $0)
        }
    }

    let record: StoreHistoryTransaction
    let includesChanges: Bool
    /// The indices of the changes a change filter kept; `nil` for all.
    let selected: [Int]?

    init(
        record: StoreHistoryTransaction, storeID: String, includesChanges: Bool = true,
        selected: [Int]? = nil
    ) {
        self.record = record
        self.storeID = storeID
        self.includesChanges = includesChanges
        self.selected = selected
    }

    /// A did-save notification carrying the IDs this transaction inserted, updated and
    /// deleted (all of its changes, even when a change filter selected some) (`NSInsertedObjectIDsKey`, `NSUpdatedObjectIDsKey`, `NSDeletedObjectIDsKey`,
    /// each a `Set<ManagedObjectID>`), for
    /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)``.
    ///
    /// - Note: Mirrors `objectIDNotification()`.
    public func objectIDNotification() -> Notification {
        var inserted = Set<ManagedObjectID>()
        var updated = Set<ManagedObjectID>()
        var deleted = Set<ManagedObjectID>()
        for change in record.changes {
            switch change.changeType {
            case .insert: inserted.insert(change.objectID)
            case .update: updated.insert(change.objectID)
            case .delete: deleted.insert(change.objectID)
            }
        }
        return Notification(
            name: ManagedObjectContext.didSaveObjectIDsNotification, object: nil,
            userInfo: [
                NSInsertedObjectIDsKey: inserted, NSUpdatedObjectIDsKey: updated,
                NSDeletedObjectIDsKey: deleted,
            ])
    }

    /// `PersistentHistoryTransaction(N, author, changes)`.
    public var description: String {
        "PersistentHistoryTransaction(\(record.number), author: \(author ?? "nil"), "
            + "\(record.changes.count) changes)"
    }
}

/// One object's change in a ``PersistentHistoryTransaction``.
///
/// - Note: Mirrors `NSPersistentHistoryChange`.
public final class PersistentHistoryChange: Sendable, CustomStringConvertible {
    /// The transaction this change belongs to.
    public let transaction: PersistentHistoryTransaction?
    let index: Int

    init(transaction: PersistentHistoryTransaction, index: Int) {
        self.transaction = transaction
        self.index = index
    }

    private var record: StoreHistoryChange { transaction!.record.changes[index] }

    /// The change's identifier, unique in its store and increasing with the transactions:
    /// the transaction number times 2³² plus the change's place in the transaction.
    public var changeID: Int64 {
        (transaction!.record.number << 32) | Int64(index)
    }
    /// The object inserted, updated or deleted.
    public var changedObjectID: ManagedObjectID { record.objectID }
    /// Insert, update or delete.
    public var changeType: PersistentHistoryChangeType { record.changeType }
    /// For an update, the properties whose stored values changed; `nil` for inserts and
    /// deletes.
    public var updatedProperties: Set<PropertyDescription>? {
        guard let names = record.updatedProperties else { return nil }
        let byName = record.objectID.entity.propertiesByName
        return Set(names.compactMap { byName[$0] })
    }
    /// The names of ``updatedProperties``, in the entity's slot order.
    public var updatedPropertyNames: [String]? { record.updatedProperties }
    /// For a delete, the last values of the attributes marked
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion`` (by name; `NSNull` for
    /// nil); `nil` for inserts and updates.
    public var tombstone: [String: Any]? {
        guard let values = record.tombstone else { return nil }
        let entity = record.objectID.entity
        var result: [String: Any] = [:]
        for (name, value) in values {
            let type = entity.attributesByName[name]?.type ?? .undefined
            result[name] = value.isNull ? NSNull() : (value.swiftValue(for: type) ?? NSNull())
        }
        return result
    }
    /// The tombstone's values as stored.
    public var tombstoneValues: [String: AttributeValue]? { record.tombstone }

    /// `PersistentHistoryChange(update ID)`.
    public var description: String {
        "PersistentHistoryChange(\(changeType) \(changedObjectID))"
    }
}
