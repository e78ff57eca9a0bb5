import Foundation

/// One property's value in a store row: an attribute value, a to-one reference, or the
/// members of a to-many the row keeps (see ``RelationshipDescription/isStoredInRow``).
///
/// - Note: Core Data's counterpart is the value dictionary of an `NSIncrementalStoreNode`.
public enum StoreValue: Sendable, Hashable {
    /// An attribute's value.
    case attribute(AttributeValue)
    /// A to-one relationship's destination, or `nil`.
    case toOne(ManagedObjectID?)
    /// A to-many relationship's destinations, in order for ordered relationships.
    case toMany([ManagedObjectID])
    /// A slot the store does not keep (transient attributes, to-manys derived from their inverse).
    case notStored

    /// The attribute value, or `.null` for other cases.
    public var attributeValue: AttributeValue {
        if case .attribute(let v) = self { v } else { .null }
    }

    /// The primary key of a to-one's destination; `nil` for no destination and other cases.
    var toOneKey: Int64? {
        if case .toOne(let id?) = self { id.primaryKey } else { nil }
    }
}

/// An object's persistent state as a store keeps it: its ID, its version for optimistic
/// locking, and one ``StoreValue`` per slot of its entity (``EntityDescription/properties``).
///
/// - Note: Mirrors `NSIncrementalStoreNode` (objectID, version, values).
public struct StoreRow: Sendable, Hashable {
    /// The object's permanent ID.
    public var objectID: ManagedObjectID
    /// Incremented by every committed change; a save from an older version conflicts.
    public var version: Int64
    /// One value per slot of `objectID.entity.properties`.
    public var values: [StoreValue]

    /// Creates a row.
    public init(objectID: ManagedObjectID, version: Int64, values: [StoreValue]) {
        self.objectID = objectID
        self.version = version
        self.values = values
    }

    /// The value of the property named `key`, or `nil` when the entity has no such property.
    public subscript(key: String) -> StoreValue? {
        guard let p = objectID.entity.propertiesByName[key] else { return nil }
        return values[p.index]
    }
}
