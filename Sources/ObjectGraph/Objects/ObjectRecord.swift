import Foundation

/// A managed object seen by the predicate evaluator and sort comparator.
struct ObjectRecord: PredicateRecord {
    let object: ManagedObject
    init(_ object: ManagedObject) { self.object = object }

    var recordEntity: EntityDescription { object.entity }
    var recordObjectID: ManagedObjectID { object.objectID }

    func attributeValue(at index: Int) -> AttributeValue {
        object.read(index, "predicate evaluation").attributeValue
    }

    func toOneObjectID(at index: Int) -> ManagedObjectID? {
        if case .toOne(let o) = object.read(index, "predicate evaluation") { return o?.objectID }
        return nil
    }

    func toOneRecord(at index: Int) -> ObjectRecord? {
        if case .toOne(let o?) = object.read(index, "predicate evaluation") {
            return ObjectRecord(o)
        }
        return nil
    }

    func toManyRecords(at index: Int) -> [ObjectRecord] {
        if case .toMany(let m?) = object.read(index, "predicate evaluation") {
            return m.objects.filter { !$0.isDeleted }.map(ObjectRecord.init)
        }
        return []
    }
}
