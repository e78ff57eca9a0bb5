import Foundation

/// What the predicate evaluator and sort comparator read: a store row or a managed object.
///
/// One evaluator serves stores (scanning rows) and contexts (checking unsaved objects);
/// each side wraps its records in a small struct conforming to this protocol. Slots are
/// ``PropertyDescription/index`` values of ``recordEntity`` (inherited properties share
/// slots with the superentity), so a compiled predicate reads values by index, not by name.
///
/// - Note: Core Data's counterpart is key-value coding on `NSManagedObject` and on the
///   SQL store's rows.
public protocol PredicateRecord {
    /// The record's entity (a subentity when the fetch includes subentities).
    var recordEntity: EntityDescription { get }
    /// The record's object ID (temporary for unsaved objects).
    var recordObjectID: ManagedObjectID { get }
    /// The attribute value in slot `index`; `.null` when unset.
    func attributeValue(at index: Int) -> AttributeValue
    /// The destination of the to-one relationship in slot `index`, or `nil`.
    func toOneRecord(at index: Int) -> Self?
    /// The destinations of the to-many relationship in slot `index`, in order when ordered.
    func toManyRecords(at index: Int) -> [Self]
    /// The ID of the to-one relationship's destination in slot `index`, without loading it.
    ///
    /// The evaluator uses it to reuse a sub-result already computed for that object; the
    /// default implementation loads the record.
    func toOneObjectID(at index: Int) -> ManagedObjectID?
}

extension PredicateRecord {
    /// The destination's ID, by loading the destination record.
    public func toOneObjectID(at index: Int) -> ManagedObjectID? {
        toOneRecord(at: index)?.recordObjectID
    }
}
