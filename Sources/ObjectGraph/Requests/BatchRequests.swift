import Foundation

/// A request executed directly against the stores, bypassing contexts:
/// ``BatchUpdateRequest``, ``BatchDeleteRequest`` or ``BatchInsertRequest``.
///
/// Batch requests change rows in one atomic commit per store without loading objects, without
/// validation and without delete rules; contexts do not see the changes until they merge the
/// returned IDs with ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
///
/// - Note: Mirrors `NSPersistentStoreRequest`. Core Data runs batch requests only on SQLite
///   stores; ObjectGraph runs them on every store.
public class PersistentStoreRequest: CustomStringConvertible {
    /// The entity the request changes.
    public let entityName: String

    /// The stores the request changes; `nil` (the default) for every store of the coordinator.
    ///
    /// A batch update or delete changes matching rows of these stores only; a batch insert
    /// goes to the first of them that is writable and holds the entity (<doc:SeveralStores>).
    ///
    /// - Note: Mirrors `affectedStores`.
    public var affectedStores: [any PersistentStore]?

    init(entityName: String) { self.entityName = entityName }

    /// The identifiers of ``affectedStores``, or `nil` for every store.
    var affectedStoreIdentifiers: Set<String>? { identifiers(of: affectedStores) }

    /// The request's kind and entity.
    public var description: String { "\(type(of: self))(\(entityName))" }
}

/// The identifiers of a request's `affectedStores`, or `nil` (every store) for `nil`.
func identifiers(of stores: [any PersistentStore]?) -> Set<String>? {
    stores.map { Set($0.map(\.identifier)) }
}

/// What a batch request returns.
///
/// - Note: Mirrors `NSBatchUpdateRequestResultType`, `NSBatchDeleteRequestResultType` and
///   `NSBatchInsertRequestResultType` (same raw values).
public enum BatchResultType: Int, Sendable {
    /// Only success (`result` is `true`). The default.
    case statusOnly = 0
    /// The IDs of the changed objects (`result` is `[ManagedObjectID]`).
    case objectIDs = 1
    /// How many objects changed (`result` is `Int`).
    case count = 2

    /// `.objectIDs` under Core Data's batch-update name.
    public static let updatedObjectIDsResultType = BatchResultType.objectIDs
    /// `.count` under Core Data's batch-update name.
    public static let updatedObjectsCountResultType = BatchResultType.count
    /// `.statusOnly` under Core Data's batch-update name.
    public static let statusOnlyResultType = BatchResultType.statusOnly

    /// `.objectIDs` under Core Data's batch-delete name
    /// (`NSBatchDeleteRequestResultType.resultTypeObjectIDs`).
    public static let resultTypeObjectIDs = BatchResultType.objectIDs
    /// `.count` under Core Data's batch-delete name
    /// (`NSBatchDeleteRequestResultType.resultTypeCount`).
    public static let resultTypeCount = BatchResultType.count
    /// `.statusOnly` under Core Data's batch-delete name
    /// (`NSBatchDeleteRequestResultType.resultTypeStatusOnly`).
    public static let resultTypeStatusOnly = BatchResultType.statusOnly
}

/// Sets properties of every matching row at once: `amount = amount * 1.2`.
///
/// ```swift
/// let update = BatchUpdateRequest(entityName: "Transaction")
/// update.propertiesToUpdate = ["amount": try FetchExpression(format: "amount * 1.2")]
/// update.resultType = .updatedObjectIDsResultType
/// let ids = (try context.execute(update) as? BatchUpdateResult)?.result as? [ManagedObjectID]
/// ```
///
/// Values are constants (anything `setValue(_:forKey:)` accepts) or ``FetchExpression``s
/// evaluated per row over the row's own attributes (key paths through relationships evaluate
/// to nil). Only attributes can be updated; model validation is not run.
///
/// - Note: Mirrors `NSBatchUpdateRequest`.
public final class BatchUpdateRequest: PersistentStoreRequest {
    /// Which rows; `nil` updates all.
    public var predicate: FetchPredicate?
    /// Attribute names and their new values or expressions.
    public var propertiesToUpdate: [String: Any] = [:]
    /// Whether rows of subentities are updated too. Default `true`.
    public var includesSubentities = true
    /// What the result holds. Default `.statusOnly`.
    public var resultType: BatchResultType = .statusOnly

    /// A request updating rows of the entity named `entityName`.
    public override init(entityName: String) { super.init(entityName: entityName) }
}

/// Deletes every matching row (or the given IDs) at once, without delete rules.
///
/// - Note: Mirrors `NSBatchDeleteRequest`.
public final class BatchDeleteRequest: PersistentStoreRequest {
    /// Which rows; `nil` deletes all (ignored when ``objectIDs`` is set).
    public var predicate: FetchPredicate?
    /// Explicit objects to delete, all of one entity.
    public let objectIDs: [ManagedObjectID]?
    /// Whether rows of subentities are deleted too. Default `true`.
    public var includesSubentities = true
    /// What the result holds. Default `.statusOnly`.
    public var resultType: BatchResultType = .statusOnly

    /// The class whose entity the request deletes from, for a fetch request that names no
    /// entity (`Category.fetchRequest()`); resolved when the request runs.
    let entityClass: ManagedObject.Type?

    /// A request deleting the rows a fetch request matches (its entity, predicate and
    /// `includesSubentities`).
    ///
    /// A request that names no entity (`Transaction.fetchRequest()`) deletes from the entity
    /// of its result class, found when the request runs, as a fetch finds it.
    ///
    /// - Note: Mirrors `NSBatchDeleteRequest(fetchRequest:)`, which takes only
    ///   `NSFetchRequest<NSFetchRequestResult>`; any result type is accepted here.
    public init<R>(fetchRequest: FetchRequest<R>) {
        self.objectIDs = nil
        let name = fetchRequest.entityName ?? fetchRequest.entity?.name
        self.entityClass = name == nil ? R.self as? ManagedObject.Type : nil
        super.init(
            entityName: name ?? ManagedObjectModel.unqualifiedName(of: R.self))
        self.predicate = fetchRequest.predicate
        self.includesSubentities = fetchRequest.includesSubentities
        self.affectedStores = fetchRequest.affectedStores
    }

    /// A request deleting the given objects.
    ///
    /// - Precondition: `objectIDs` is not empty; the request fails at execution if they are of
    ///   several entities.
    public init(objectIDs: [ManagedObjectID]) {
        precondition(!objectIDs.isEmpty, "BatchDeleteRequest: give at least one object ID")
        self.objectIDs = objectIDs
        self.entityClass = nil
        super.init(entityName: objectIDs[0].entity.name)
    }
}

/// The outcome of a batch request: `result` holds what its `resultType` asked for.
///
/// - Note: Mirrors `NSBatchUpdateResult`, `NSBatchDeleteResult` and `NSBatchInsertResult`.
public class PersistentStoreResult {
    /// `true`, `[ManagedObjectID]` or `Int`, per ``resultType``.
    public let result: Any?
    /// What ``result`` holds.
    public let resultType: BatchResultType

    init(result: Any?, resultType: BatchResultType) {
        self.result = result
        self.resultType = resultType
    }
}

/// The result of a ``BatchUpdateRequest``. Mirrors `NSBatchUpdateResult`.
public final class BatchUpdateResult: PersistentStoreResult {}
/// The result of a ``BatchDeleteRequest``. Mirrors `NSBatchDeleteResult`.
public final class BatchDeleteResult: PersistentStoreResult {}
/// The result of a ``BatchInsertRequest``. Mirrors `NSBatchInsertResult`.
public final class BatchInsertResult: PersistentStoreResult {}
