import Foundation

/// How a save resolves conflicts between a context's objects and the store's rows.
///
/// Conflicts are of two kinds: optimistic locking (the row changed since the object was
/// read) and uniqueness constraints (another object or row already has the constrained
/// values). Optimistic-locking conflicts are resolved first.
///
/// - Note: Mirrors `NSMergePolicy` and `NSMergePolicyType` (same raw values).
public enum MergePolicy: Int, Sendable, Hashable, CaseIterable {
    /// Fail the save with 133020 (or 133021 for constraints), listing the conflicts. The default.
    case error = 0
    /// Merge by property; where both sides changed a property, the store's value wins.
    case mergeByPropertyStoreTrump = 1
    /// Merge by property; where both sides changed a property, the object's value wins.
    case mergeByPropertyObjectTrump = 2
    /// Write the object's whole state over the store's.
    case overwrite = 3
    /// Discard the object's changes in favour of the store's state.
    case rollback = 4
}
