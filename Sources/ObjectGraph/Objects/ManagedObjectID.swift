import Foundation

/// A compact, universal identifier for a managed object: the currency between contexts,
/// queues and tasks.
///
/// An ID is *temporary* from insertion until the object's first save to a store (or
/// `obtainPermanentIDs(for:)`), then *permanent*: the store's identifier plus a primary
/// key unique within the entity's inheritance hierarchy. IDs are `Sendable`; pass them,
/// never managed objects, across queues, and turn them back into objects with
/// `existingObject(with:)`.
///
/// ```swift
/// let id = transaction.objectID
/// try background.performAndWait { _ = try background.existingObject(with: id) }
/// ```
///
/// - Note: Mirrors `NSManagedObjectID`; ``uriRepresentation()`` uses Core Data's
///   `x-coredata://STORE-UUID/Entity/pN` form.
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The entity of the object.
    public let entity: EntityDescription
    /// The identifier of the store holding the object; `nil` while the ID is temporary.
    public let storeIdentifier: String?
    /// The primary key: unique per hierarchy within a store (permanent) or per process (temporary).
    public let primaryKey: Int64

    /// Creates a permanent ID. Stores use this; applications get IDs from objects.
    public init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.entity = entity
        self.storeIdentifier = storeIdentifier
        self.primaryKey = primaryKey
    }

    private init(temporaryFor entity: EntityDescription, key: Int64) {
        self.entity = entity
        self.storeIdentifier = nil
        self.primaryKey = key
    }

    /// A new temporary ID for an object about to be inserted, unique in this process.
    public static func temporary(for entity: EntityDescription) -> ManagedObjectID {
        ManagedObjectID(temporaryFor: entity, key: TemporaryIDCounter.next())
    }

    /// Whether the ID is temporary (the object has not reached a store yet).
    public var isTemporaryID: Bool { storeIdentifier == nil }

    /// The ID as a URI: `x-coredata://STORE/Entity/pN`, or `x-coredata:///Entity/tN` when temporary.
    ///
    /// Resolve it with `PersistentStoreCoordinator.managedObjectID(forURIRepresentation:)`.
    public func uriRepresentation() -> URL {
        let host = storeIdentifier ?? ""
        let key = (isTemporaryID ? "t" : "p") + String(primaryKey)
        return URL(string: "x-coredata://\(host)/\(entity.name)/\(key)")!
    }

    /// The URI's text.
    public var description: String { uriRepresentation().absoluteString }

    /// Equal when entity, store and key are equal.
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entity === rhs.entity
            && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the key and the entity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
        hasher.combine(ObjectIdentifier(entity))
    }
}

/// The process-wide source of temporary keys.
enum TemporaryIDCounter {
    private static let counter = SerialCounter()

    static func next() -> Int64 { counter.next() }
}
