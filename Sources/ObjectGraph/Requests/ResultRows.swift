import Foundation

/// Evaluates a predicate over dictionary results (for `havingPredicate`): the dictionaries'
/// keys become the attributes of a synthetic entity, so the one evaluator serves here too.
enum ResultRows {
    static func filter(_ rows: [[String: Any]], by predicate: FetchPredicate) throws -> [[String:
        Any]]
    {
        var types: [String: AttributeType] = [:]
        var converted: [[String: AttributeValue]] = []
        for row in rows {
            var values: [String: AttributeValue] = [:]
            for (key, value) in row {
                let type = types[key] ?? inferType(value)
                types[key] = type
                values[key] =
                    AttributeValue(any: value is ManagedObjectID ? "\(value)" : value, for: type)
                    ?? .null
            }
            converted.append(values)
        }
        // Keys that are key paths ("category.name") cannot be attribute names; the having
        // predicate refers to expression names and plain properties.
        let keys = types.keys.filter { !$0.contains(".") && !$0.isEmpty }.sorted()
        let entity = EntityDescription(
            name: "Result",
            properties: keys.map {
                AttributeDescription(name: $0, type: types[$0] == .undefined ? .string : types[$0]!)
            })
        let model = try ManagedObjectModel(entities: [entity])
        let compiled = try predicate.compile(for: model.entitiesByName["Result"]!)
        var result: [[String: Any]] = []
        for (i, values) in converted.enumerated() {
            let record = DictionaryRecord(
                entity: model.entitiesByName["Result"]!, values: keys.map { values[$0] ?? .null })
            if compiled.evaluate(record) { result.append(rows[i]) }
        }
        return result
    }

    private static func inferType(_ value: Any) -> AttributeType {
        switch value {
        case is Bool: .boolean
        case is Int, is Int16, is Int32, is Int64: .integer64
        case is Decimal: .decimal
        case is Double: .double
        case is Float: .float
        case is Date: .date
        case is UUID: .uuid
        case is Data: .binaryData
        case is URL: .uri
        default: .string
        }
    }
}

/// A result dictionary seen by the predicate evaluator.
struct DictionaryRecord: PredicateRecord {
    let entity: EntityDescription
    let values: [AttributeValue]

    var recordEntity: EntityDescription { entity }
    var recordObjectID: ManagedObjectID {
        ManagedObjectID(entity: entity, storeIdentifier: "result", primaryKey: 0)
    }
    func attributeValue(at index: Int) -> AttributeValue { values[index] }
    func toOneRecord(at index: Int) -> DictionaryRecord? { nil }
    func toManyRecords(at index: Int) -> [DictionaryRecord] { [] }
}
