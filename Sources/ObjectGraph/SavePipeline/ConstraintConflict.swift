import Foundation

/// A uniqueness-constraint conflict found at save: several objects being saved, or an
/// object and a stored row, share the values of a constraint.
///
/// Listed under `NSPersistentStoreSaveConflictsErrorKey` (`"conflictList"`) of a 133021
/// error. Two shapes, as in Core Data: objects of one save colliding with each other
/// (``databaseObject`` is `nil`, several ``conflictingObjects``), and one object colliding
/// with a stored row (``databaseObject`` and ``databaseSnapshot`` set, one conflicting
/// object).
///
/// - Important: Holds managed objects; read it on its context's queue only.
/// - Note: Mirrors `NSConstraintConflict`.
public final class ConstraintConflict: CustomStringConvertible {
    /// The constrained keys, e.g. `["name"]` or `["owner", "code"]`.
    public let constraint: [String]
    /// The entity that declares the constraint.
    public let entityName: String
    /// The shared values by key (attributes as Foundation objects, to-ones as
    /// ``ManagedObjectID``s), as they were when the conflict was found.
    public let constraintValues: [String: Any]
    /// The stored object already using the values (a fault of the saving context), or `nil`
    /// when only objects of the save collide.
    public let databaseObject: ManagedObject?
    /// The stored row's values by key (attributes and to-ones), or `nil`.
    public let databaseSnapshot: [String: Any]?
    /// The objects of the save that use the values, in the order they were changed.
    public let conflictingObjects: [ManagedObject]
    /// Each conflicting object's last saved values (empty for an object never saved).
    public let conflictingSnapshots: [[String: Any]]
    private let valuesText: String

    init(
        entityName: String, constraint: [String], constraintValues: [String: Any],
        valuesText: String,
        databaseObject: ManagedObject?, databaseSnapshot: [String: Any]?,
        conflictingObjects: [ManagedObject], conflictingSnapshots: [[String: Any]]
    ) {
        self.entityName = entityName
        self.constraint = constraint
        self.constraintValues = constraintValues
        self.valuesText = valuesText
        self.databaseObject = databaseObject
        self.databaseSnapshot = databaseSnapshot
        self.conflictingObjects = conflictingObjects
        self.conflictingSnapshots = conflictingSnapshots
    }

    /// The constraint, the values and every object using them, e.g.
    /// `Tag(name) name = "red": new Tag x-coredata:///Tag/t7 and stored Tag x-coredata://…/Tag/p1`.
    public var description: String {
        let objects = conflictingObjects.map {
            ($0.isInserted ? "new " : "changed ") + "\($0.entity.name) \($0.objectID)"
        }
        let stored = databaseObject.map { ["stored \($0.entity.name) \($0.objectID)"] } ?? []
        return "\(entityName)(\(constraint.joined(separator: ", "))) \(valuesText): "
            + (objects + stored).joined(separator: " and ")
    }
}
