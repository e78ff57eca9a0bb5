import Foundation

/// The entities that describe history for fetch requests: their attributes are the keys a
/// ``PersistentHistoryChangeRequest/fetchHistory(withFetchRequest:)`` predicate may use.
///
/// `PersistentHistoryTransaction`: `author`, `bundleID`, `contextName`, `processID`,
/// `storeID` (strings), `timestamp` (date), `transactionNumber` (integer).
/// `PersistentHistoryChange`: `changeID`, `changeType` (0 insert, 1 update, 2 delete),
/// `transactionNumber` (integers), `changedEntity` (the changed object's entity name), and
/// the transaction's `author`, `contextName` and `timestamp`.
enum HistoryEntities {
    static let model: ManagedObjectModel = {
        func strings(_ names: String...) -> [AttributeDescription] {
            names.map { AttributeDescription(name: $0, type: .string) }
        }
        let transaction = EntityDescription(
            name: "PersistentHistoryTransaction",
            properties: strings("author", "bundleID", "contextName", "processID", "storeID") + [
                AttributeDescription(name: "timestamp", type: .date),
                AttributeDescription(name: "transactionNumber", type: .integer64),
            ])
        let change = EntityDescription(
            name: "PersistentHistoryChange",
            properties: strings("author", "changedEntity", "contextName") + [
                AttributeDescription(name: "changeID", type: .integer64),
                AttributeDescription(name: "changeType", type: .integer16),
                AttributeDescription(name: "timestamp", type: .date),
                AttributeDescription(name: "transactionNumber", type: .integer64),
            ])
        do {
            return try ManagedObjectModel(entities: [transaction, change])
        } catch {
            preconditionFailure("ObjectGraph: the history entities do not build: \(error)")
        }
    }()

    static var transaction: EntityDescription {
        model.entitiesByName["PersistentHistoryTransaction"]!
    }
    static var change: EntityDescription { model.entitiesByName["PersistentHistoryChange"]! }
}

extension PersistentHistoryTransaction {
    /// The entity describing transactions, for filtering history with a fetch request.
    ///
    /// - Note: Mirrors `entityDescription(with:)` and `entityDescription`.
    public static func entityDescription(with context: ManagedObjectContext) -> EntityDescription? {
        HistoryEntities.transaction
    }

    /// The entity describing transactions (``entityDescription(with:)``).
    public static var entityDescription: EntityDescription? { HistoryEntities.transaction }

    /// A fetch request on ``entityDescription``: give it a predicate and pass it to
    /// ``PersistentHistoryChangeRequest/fetchHistory(withFetchRequest:)``.
    ///
    /// - Note: Mirrors `fetchRequest`.
    public static var fetchRequest: FetchRequest<PersistentHistoryTransaction>? {
        FetchRequest(entity: HistoryEntities.transaction)
    }
}

extension PersistentHistoryChange {
    /// The entity describing changes, for filtering history with a fetch request.
    ///
    /// - Note: Mirrors `entityDescription(with:)` and `entityDescription`.
    public static func entityDescription(with context: ManagedObjectContext) -> EntityDescription? {
        HistoryEntities.change
    }

    /// The entity describing changes (``entityDescription(with:)``).
    public static var entityDescription: EntityDescription? { HistoryEntities.change }

    /// A fetch request on ``entityDescription``: a history request made with it returns the
    /// transactions that have matching changes, each with those changes only.
    ///
    /// - Note: Mirrors `fetchRequest`.
    public static var fetchRequest: FetchRequest<PersistentHistoryChange>? {
        FetchRequest(entity: HistoryEntities.change)
    }
}

/// The part of a fetch request a history request keeps: which history entity, predicate,
/// sort, offset and limit.
public struct HistoryFetchFilter: @unchecked Sendable {
    // Sendable: every member is immutable after init; predicates and sort descriptors are
    // plain data.
    /// The entity name: `PersistentHistoryTransaction` or `PersistentHistoryChange`.
    public let entityName: String
    /// Which transactions or changes match; `nil` matches all.
    public let predicate: FetchPredicate?
    /// The order of the transactions (or of changes within each); empty keeps history order.
    public let sortDescriptors: [FetchSortDescriptor]
    /// How many matching transactions to skip.
    public let fetchOffset: Int
    /// The most transactions to return; 0 means no limit.
    public let fetchLimit: Int

    init<R>(_ request: FetchRequest<R>) {
        self.entityName =
            request.entity?.name ?? request.entityName ?? "PersistentHistoryTransaction"
        self.predicate = request.predicate
        self.sortDescriptors = request.sortDescriptors
        self.fetchOffset = request.fetchOffset
        self.fetchLimit = request.fetchLimit
    }
}

/// A transaction (or one of its changes) seen by the predicate evaluator.
struct HistoryRecord: PredicateRecord {
    let transaction: StoreHistoryTransaction
    let storeID: String
    /// The change, for a record of the change entity.
    let change: Int?

    var recordEntity: EntityDescription {
        change == nil ? HistoryEntities.transaction : HistoryEntities.change
    }
    var recordObjectID: ManagedObjectID {
        ManagedObjectID(
            entity: recordEntity, storeIdentifier: storeID,
            primaryKey: change.map { (transaction.number << 32) | Int64($0) }
                ?? transaction.number)
    }

    func attributeValue(at index: Int) -> AttributeValue {
        let name = recordEntity.properties[index].name
        func string(_ s: String?) -> AttributeValue { s.map(AttributeValue.string) ?? .null }
        switch name {
        case "author": return string(transaction.author)
        case "bundleID": return .string(transaction.bundleID)
        case "contextName": return string(transaction.contextName)
        case "processID": return .string(transaction.processID)
        case "storeID": return .string(storeID)
        case "timestamp": return .date(transaction.timestamp)
        case "transactionNumber": return .integer(transaction.number)
        default: break
        }
        guard let change else { return .null }
        let record = transaction.changes[change]
        switch name {
        case "changedEntity": return .string(record.objectID.entity.name)
        case "changeID": return .integer((transaction.number << 32) | Int64(change))
        case "changeType": return .integer(Int64(record.changeType.rawValue))
        default: return .null
        }
    }

    func toOneRecord(at index: Int) -> HistoryRecord? { nil }
    func toManyRecords(at index: Int) -> [HistoryRecord] { [] }
}
