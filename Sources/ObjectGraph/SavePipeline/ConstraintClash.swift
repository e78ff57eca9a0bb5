import Foundation

/// Objects being saved, and stored rows, that share the values of one uniqueness constraint.
struct ConstraintClash {
    /// The entity declaring the constraint.
    let owner: EntityDescription
    /// The constrained keys.
    let constraint: [String]
    /// The shared values, one per key.
    let values: [StoreValue]
    /// Objects of the save using the values, in the order the save lists them.
    var objects: [ManagedObject]
    /// Stored rows (of objects not in the save) using the values.
    var rows: [StoreRow]
}
