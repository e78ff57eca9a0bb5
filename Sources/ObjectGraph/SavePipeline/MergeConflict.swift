import Foundation

/// An optimistic-locking conflict found at save: the object's row changed (or vanished) in
/// the store since the object was read.
///
/// Listed under `NSPersistentStoreSaveConflictsErrorKey` (`"conflictList"`) of a 133020
/// error, which the `.error` merge policy throws. Snapshots hold attributes (as Foundation
/// objects: `NSNumber`, `String`, `Date`, …, `NSNull` for nil) and to-one relationships (as
/// ``ManagedObjectID``s), not to-manys. Its ``description`` names the properties changed on
/// both sides, with both values.
///
/// ```swift
/// let nsError = error as NSError
/// for case let conflict as MergeConflict in nsError.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any] ?? [] {
///     print(conflict.sourceObject.objectID, conflict.conflictingKeys)
/// }
/// ```
///
/// - Important: Holds a managed object; read it on its context's queue only.
/// - Note: Mirrors `NSMergeConflict`.
public final class MergeConflict: CustomStringConvertible {
    /// The object whose save conflicted.
    public let sourceObject: ManagedObject
    /// The values the object was read with (its snapshot), by key.
    public let objectSnapshot: [String: Any]?
    /// The store's current values, by key; `nil` when the row was deleted.
    public let cachedSnapshot: [String: Any]?
    /// Always `nil` here: the coordinator has no separate row cache, so the store's values
    /// are in ``cachedSnapshot``.
    public let persistedSnapshot: [String: Any]?
    /// The store's current row version; 0 when the row was deleted.
    public let newVersionNumber: Int64
    /// The row version the object was read at.
    public let oldVersionNumber: Int64
    /// Keys changed both in the object and in the store, in slot order.
    public let conflictingKeys: [String]
    private let localValues: [String: String]
    private let storeValues: [String: String]

    init(
        source: ManagedObject, objectSnapshot: [String: Any]?, cachedSnapshot: [String: Any]?,
        newVersion: Int64, oldVersion: Int64, conflictingKeys: [String],
        localValues: [String: String], storeValues: [String: String]
    ) {
        self.sourceObject = source
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = nil
        self.newVersionNumber = newVersion
        self.oldVersionNumber = oldVersion
        self.conflictingKeys = conflictingKeys
        self.localValues = localValues
        self.storeValues = storeValues
    }

    /// The entity, ID, versions and the keys changed on both sides with both values, e.g.
    /// `Person x-coredata://…/Person/p1 changed in the store (version 1 → 2); changed on
    /// both sides: name: here "Annie", store "Anna"`.
    public var description: String {
        let name = sourceObject.entity.name
        if newVersionNumber == 0 {
            return
                "\(name) \(sourceObject.objectID) was deleted in the store (read at version \(oldVersionNumber))"
        }
        let keys = conflictingKeys.map { key in
            "\(key): here \(localValues[key] ?? "nil"), store \(storeValues[key] ?? "nil")"
        }
        return
            "\(name) \(sourceObject.objectID) changed in the store (version \(oldVersionNumber) → \(newVersionNumber))"
            + (keys.isEmpty ? "" : "; changed on both sides: " + keys.joined(separator: "; "))
    }
}
