import Foundation

/// Property descriptions are equal when they are the same description (identity), as
/// Core Data's `NSPropertyDescription` objects are; so ``PersistentHistoryChange/updatedProperties``
/// can be a set.
extension PropertyDescription: Hashable {
    /// Whether both are the same description.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool {
        lhs === rhs
    }

    /// Hashes the description's identity.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(self))
    }
}
