import Foundation

/// A managed object seen by the sort comparator without firing it: a fault that still holds
/// the row it was fetched with answers attribute reads from that row, so the controller can
/// record sort keys and sections of a large fetch and leave its objects as faults (as
/// `fetchBatchSize` and `returnsObjectsAsFaults` ask). Anything else reads the object.
struct FaultPeekRecord: PredicateRecord {
    let object: ManagedObject
    init(_ object: ManagedObject) { self.object = object }

    var recordEntity: EntityDescription { object.entity }
    var recordObjectID: ManagedObjectID { object.objectID }

    func attributeValue(at index: Int) -> AttributeValue {
        if object.slots.isEmpty, case .row(let values)? = object.faultSource,
            case .attribute(let value) = values[index]
        {
            return value
        }
        return ObjectRecord(object).attributeValue(at: index)
    }

    func toOneObjectID(at index: Int) -> ManagedObjectID? {
        ObjectRecord(object).toOneObjectID(at: index)
    }

    func toOneRecord(at index: Int) -> FaultPeekRecord? {
        ObjectRecord(object).toOneRecord(at: index).map { FaultPeekRecord($0.object) }
    }

    func toManyRecords(at index: Int) -> [FaultPeekRecord] {
        ObjectRecord(object).toManyRecords(at: index).map { FaultPeekRecord($0.object) }
    }
}
