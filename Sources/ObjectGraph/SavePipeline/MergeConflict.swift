import Foundation

/// An optimistic-locking conflict found at save: the object's row changed (or vanished) in
/// the store since the object was read.
///
/// Listed under `NSPersistentStoreSaveConflictsErrorKey` (`"conflictList"`) of a 133020 error.
/// Snapshots hold attributes and to-one relationships (as object IDs), not to-manys.
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
    /// Always `nil` here: the coordinator has no separate row cache (see the differences doc).
    public let persistedSnapshot: [String: Any]?
    /// The store's current row version; 0 when the row was deleted.
    public let newVersionNumber: Int64
    /// The row version the object was read at.
    public let oldVersionNumber: Int64
    /// Keys changed both in the object and in the store, with both values.
    public let conflictingKeys: [String]

    init(source: ManagedObject, objectSnapshot: [String: Any]?, cachedSnapshot: [String: Any]?,
         newVersion: Int64, oldVersion: Int64, conflictingKeys: [String]) {
        self.sourceObject = source
        self.objectSnapshot = objectSnapshot
        self.cachedSnapshot = cachedSnapshot
        self.persistedSnapshot = nil
        self.newVersionNumber = newVersion
        self.oldVersionNumber = oldVersion
        self.conflictingKeys = conflictingKeys
    }

    /// The entity, ID, versions and keys changed on both sides.
    public var description: String {
        let name = sourceObject.entity.name
        if newVersionNumber == 0 {
            return "\(name) \(sourceObject.objectID) was deleted in the store (read at version \(oldVersionNumber))"
        }
        let keys = conflictingKeys.map { key in
            "\(key): here \(String(describing: sourceObject.changedValuesSnapshot[key] ?? "nil")), "
                + "store \(String(describing: cachedSnapshot?[key] ?? "nil"))"
        }
        return "\(name) \(sourceObject.objectID) changed in the store (version \(oldVersionNumber) → \(newVersionNumber))"
            + (keys.isEmpty ? "" : "; changed on both sides: " + keys.joined(separator: "; "))
    }
}

extension ManagedObject {
    /// Changed values without the queue check (the conflict is read on the saver's queue).
    var changedValuesSnapshot: [String: Any] {
        var result: [String: Any] = [:]
        for index in changedSlots {
            if case .attribute(let v) = slots[index] {
                result[entity.properties[index].name] = v.swiftValue(for: (entity.properties[index] as! AttributeDescription).type)
            }
        }
        return result
    }
}
