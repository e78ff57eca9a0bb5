import Foundation

/// Inserts rows at once, from dictionaries or from a handler that fills one row per call; a
/// row whose uniqueness-constraint values already exist updates that row instead, changing
/// only the keys given (an upsert).
///
/// ```swift
/// var next = 0
/// let insert = BatchInsertRequest(entityName: "Transaction") { (row: NSMutableDictionary) in
///     guard next < amounts.count else { return true }     // done: this row is not inserted
///     row["id"] = UUID()
///     row["amount"] = amounts[next]
///     row["date"] = Date()
///     next += 1
///     return false
/// }
/// try context.execute(insert)
/// ```
///
/// The rows come from ``objects`` or, when one is set, from ``dictionaryHandler`` or
/// ``managedObjectHandler``: each handler is called until it returns `true`, and the row it
/// was given on that last call is not inserted. Handlers run on the executing context's
/// queue, before anything is written; an error in any row (an unknown key, a value of the
/// wrong type, a relationship) inserts nothing. Missing attributes of new rows get the
/// model's defaults. Relationships cannot be set. No validation runs and contexts do not see
/// the rows until they merge the returned IDs.
///
/// - Note: Mirrors `NSBatchInsertRequest`. Unlike Core Data, an upsert leaves attributes it
///   was not given untouched (scenario B28).
public final class BatchInsertRequest: PersistentStoreRequest {
    /// The rows to insert, as attribute name → value (used when no handler is set).
    public var objects: [[String: Any]]
    /// Fills the dictionary it is given with one row (attribute name → value) and returns
    /// `false`, or returns `true` to stop; called until it returns `true`.
    ///
    /// - Note: Mirrors `dictionaryHandler`.
    public var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// Sets the attributes of the object it is given (a new object of the entity's class,
    /// in no context) and returns `false`, or returns `true` to stop; called until it returns
    /// `true`. Setting a relationship makes the request fail.
    ///
    /// - Note: Mirrors `managedObjectHandler`.
    public var managedObjectHandler: ((ManagedObject) -> Bool)?
    /// What the result holds. Default `.statusOnly`.
    public var resultType: BatchResultType = .statusOnly

    /// A request inserting `objects` into the entity named `entityName`.
    ///
    /// - Note: Mirrors `init(entityName:objects:)`.
    public init(entityName: String, objects: [[String: Any]]) {
        self.objects = objects
        super.init(entityName: entityName)
    }

    /// A request inserting `objects` into `entity`.
    ///
    /// - Note: Mirrors `init(entity:objects:)`.
    public convenience init(entity: EntityDescription, objects: [[String: Any]]) {
        self.init(entityName: entity.name, objects: objects)
    }

    /// A request inserting the rows `handler` fills, one per call, until it returns `true`.
    ///
    /// - Note: Mirrors `init(entityName:dictionaryHandler:)`.
    public convenience init(
        entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool
    ) {
        self.init(entityName: entityName, objects: [])
        dictionaryHandler = handler
    }

    /// A request inserting the rows `handler` fills into `entity`, until it returns `true`.
    ///
    /// - Note: Mirrors `init(entity:dictionaryHandler:)`.
    public convenience init(
        entity: EntityDescription,
        dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool
    ) {
        self.init(entityName: entity.name, dictionaryHandler: handler)
    }

    /// A request inserting one row per object `handler` fills, until it returns `true`.
    ///
    /// - Note: Mirrors `init(entityName:managedObjectHandler:)`.
    public convenience init(
        entityName: String, managedObjectHandler handler: @escaping (ManagedObject) -> Bool
    ) {
        self.init(entityName: entityName, objects: [])
        managedObjectHandler = handler
    }

    /// A request inserting one row per object `handler` fills into `entity`, until it
    /// returns `true`.
    ///
    /// - Note: Mirrors `init(entity:managedObjectHandler:)`.
    public convenience init(
        entity: EntityDescription, managedObjectHandler handler: @escaping (ManagedObject) -> Bool
    ) {
        self.init(entityName: entity.name, managedObjectHandler: handler)
    }

    /// The rows to insert, as attribute slot → value, from whichever source is set.
    ///
    /// - Throws: ``ObjectGraphError`` `.batchInvalidValue` (134060) naming the row and key for an
    ///   unknown key, a relationship or a value of the wrong type.
    func rows(for entity: EntityDescription) throws -> [[Int: AttributeValue]] {
        if let handler = managedObjectHandler {
            var rows: [[Int: AttributeValue]] = []
            while true {
                let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
                if handler(object) { return rows }
                rows.append(try values(of: object, row: rows.count))
            }
        }
        if let handler = dictionaryHandler {
            var rows: [[Int: AttributeValue]] = []
            while true {
                let dictionary = NSMutableDictionary()
                if handler(dictionary) { return rows }
                var row: [String: Any] = [:]
                for (key, value) in dictionary { row["\(key)"] = value }
                rows.append(try values(of: row, row: rows.count, entity: entity))
            }
        }
        return try objects.enumerated().map { i, row in
            try values(of: row, row: i, entity: entity)
        }
    }

    private func values(of dictionary: [String: Any], row i: Int, entity: EntityDescription)
        throws -> [Int: AttributeValue]
    {
        var values: [Int: AttributeValue] = [:]
        for (key, value) in dictionary {
            guard let attribute = entity.attributesByName[key] else {
                throw ObjectGraphError(
                    .batchInvalidValue,
                    "batch insert: objects[\(i)]: \(entity.name) has no attribute '\(key)' "
                        + "(batch inserts cannot set relationships)",
                    entityName: entity.name, key: key)
            }
            guard let v = try? attribute.storedValue(for: value) else {
                throw ObjectGraphError(
                    .batchInvalidValue,
                    "batch insert: objects[\(i)].\(key) is not a \(attribute.type.rawValue)",
                    entityName: entity.name, key: key)
            }
            values[attribute.index] = v
        }
        return values
    }

    /// The attributes the handler set on `object`.
    private func values(of object: ManagedObject, row i: Int) throws -> [Int: AttributeValue] {
        var values: [Int: AttributeValue] = [:]
        for slot in object.changedSlots {
            let property = object.entity.properties[slot]
            guard let attribute = property as? AttributeDescription else {
                throw ObjectGraphError(
                    .batchInvalidValue,
                    "batch insert: object \(i): \(object.entity.name).\(property.name) is a "
                        + "relationship (batch inserts cannot set relationships)",
                    entityName: object.entity.name, key: property.name)
            }
            values[attribute.index] = object.slots[slot].attributeValue
        }
        return values
    }
}
