import Foundation

/// A managed object seen by the sort comparator without firing it: a fault answers attribute
/// and to-one reads from the row it was fetched with (the row handed over by the fetch, or
/// the one the fault keeps), so the controller can record sort keys and sections of a large
/// fetch and leave its objects as faults (as `fetchBatchSize` and `returnsObjectsAsFaults`
/// ask). A loaded object, or a fault without a row, is read as it is.
struct FaultPeekRecord: PredicateRecord {
    let object: ManagedObject
    /// The values of the row `object` was fetched with, when the fetch handed them over.
    let row: [StoreValue]?
    /// Whether `row` is read even once `object` is no longer a fault (a placement recorded
    /// after the fetch, by the values the object was fetched with).
    let readsRowAlways: Bool

    init(_ object: ManagedObject, row: [StoreValue]? = nil, readsRowAlways: Bool = false) {
        self.object = object
        self.row = row
        self.readsRowAlways = readsRowAlways
    }

    var recordEntity: EntityDescription { object.entity }
    var recordObjectID: ManagedObjectID { object.objectID }

    /// The row's values while `object` is an unfired fault.
    private var faultValues: [StoreValue]? {
        if readsRowAlways, let row { return row }
        guard !object.hasValues else { return nil }
        if let row { return row }
        if case .row(let values)? = object.faultSource { return values }
        return nil
    }

    func attributeValue(at index: Int) -> AttributeValue {
        if let values = faultValues, case .attribute(let value) = values[index] { return value }
        return ObjectRecord(object).attributeValue(at: index)
    }

    func toOneObjectID(at index: Int) -> ManagedObjectID? {
        if let values = faultValues, case .toOne(let id) = values[index] { return id }
        return ObjectRecord(object).toOneObjectID(at: index)
    }

    func toOneRecord(at index: Int) -> FaultPeekRecord? {
        if let values = faultValues, case .toOne(let id) = values[index],
            let context = object.managedObjectContext
        {
            return id.map { FaultPeekRecord(context.registeredOrFault($0)) }
        }
        return ObjectRecord(object).toOneRecord(at: index).map { FaultPeekRecord($0.object) }
    }

    func toManyRecords(at index: Int) -> [FaultPeekRecord] {
        ObjectRecord(object).toManyRecords(at: index).map { FaultPeekRecord($0.object) }
    }
}
