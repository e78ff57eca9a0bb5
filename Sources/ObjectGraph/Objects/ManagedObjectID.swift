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
/// An ID is 16 bytes: its primary key and one reference to a shared, immutable record of its
/// entity and store (one record per entity and store identifier, and one per entity for
/// temporary IDs), so copying an ID costs one retain. IDs of the same entity, store
/// identifier and key are equal however they were made (from a store's row, from a URI,
/// after the store was reopened, through another coordinator on the same store).
///
/// - Note: Mirrors `NSManagedObjectID`; ``uriRepresentation()`` uses Core Data's
///   `x-coredata://STORE-UUID/Entity/pN` form.
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The entity and store the key belongs to, shared by every ID of them.
    let scope: ObjectIDScope
    /// The primary key: unique per hierarchy within a store (permanent) or per process (temporary).
    public let primaryKey: Int64

    /// Creates a permanent ID. Stores use this; applications get IDs from objects.
    ///
    /// Finds the shared record of `entity` and `storeIdentifier` under a process-wide lock;
    /// the engine's own hot paths keep that record per entity and make IDs from it directly.
    public init(entity: EntityDescription, storeIdentifier: String, primaryKey: Int64) {
        self.scope = ObjectIDScope.of(entity, store: storeIdentifier)
        self.primaryKey = primaryKey
    }

    /// An ID of `scope`'s entity and store (temporary when the scope has no store).
    @inline(__always)
    init(scope: ObjectIDScope, primaryKey: Int64) {
        self.scope = scope
        self.primaryKey = primaryKey
    }

    /// A new temporary ID for an object about to be inserted, unique in this process.
    public static func temporary(for entity: EntityDescription) -> ManagedObjectID {
        ObjectIDScope.nextTemporary(for: entity)
    }

    /// The entity of the object.
    public var entity: EntityDescription { scope.entity }

    /// The identifier of the store holding the object; `nil` while the ID is temporary.
    public var storeIdentifier: String? { scope.storeIdentifier }

    /// Whether the ID is temporary (the object has not reached a store yet).
    public var isTemporaryID: Bool { scope.storeIdentifier == nil }

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
    ///
    /// Records are shared, so two equal IDs almost always hold the same one and the
    /// comparison is the key and one pointer; records compare by content only when the keys
    /// are equal and the records differ (IDs of two entities or stores with the same key, or
    /// of an entity whose model is gone).
    @inline(__always)
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey
            && (lhs.scope === rhs.scope || lhs.scope.isEquivalent(to: rhs.scope))
    }

    /// Hashes the key and the entity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
        hasher.combine(ObjectIdentifier(scope.entity))
    }

    /// The ID's hash in a `Set` or `Dictionary` whose seed is `seed`: the key and the entity
    /// (what ``hash(into:)`` combines) mixed without `Hasher` (see `IdentityHash`).
    ///
    /// The standard library's hashing entry point for sets and dictionaries (an underscored
    /// requirement of `Hashable`); a save's notifications build sets of every ID it wrote.
    public func _rawHashValue(seed: Int) -> Int {
        IdentityHash.mix(
            UInt64(bitPattern: primaryKey) &+ IdentityHash.bits(scope.entity)
                &* 0xC2B2_AE3D_27D4_EB4F, seed: seed)
    }
}
