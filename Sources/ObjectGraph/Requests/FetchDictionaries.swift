import Foundation

/// Builds dictionary results (`.dictionaryResultType`): chosen properties and expressions,
/// optionally grouped, filtered by a having-predicate, and made distinct.
enum FetchDictionaries {
    /// One column of the result.
    enum Column {
        case property(String, PropertyDescription)
        case keyPath(String, CompiledExpression)
        case expression(ExpressionDescription, Aggregate?)
    }

    /// An aggregate function over one argument.
    struct Aggregate {
        let function: FetchFunction
        let argument: CompiledExpression
    }

    static func results<R>(
        _ objects: [ManagedObject], request: FetchRequest<R>, entity: EntityDescription
    ) throws
        -> [[String: Any]]
    {
        let requested: [Any] =
            request.propertiesToFetch ?? entity.properties.filter { !isToMany($0) }.map(\.name)
        let columns = try requested.map { try column($0, entity) }
        let groupKeys = try (request.propertiesToGroupBy ?? []).map { try column($0, entity) }
        var rows: [[String: Any]]
        if groupKeys.isEmpty && !columns.contains(where: isAggregate) {
            rows = objects.map { object in row(columns, [object]) }
        } else {
            var groups: [[AttributeValue]: [ManagedObject]] = [:]
            var order: [[AttributeValue]] = []
            for object in objects {
                let key = groupKeys.map { value(of: $0, for: object) }
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(object)
            }
            if groupKeys.isEmpty && order.isEmpty {
                order = [[]]
                groups[[]] = []
            }
            rows = order.map { row(columns, groups[$0]!) }
        }
        if let having = request.havingPredicate {
            rows = try ResultRows.filter(rows, by: having)
        }
        if request.returnsDistinctResults {
            var seen = Set<String>()
            rows = rows.filter { seen.insert(fingerprint($0)).inserted }
        }
        return rows
    }

    private static func isToMany(_ p: PropertyDescription) -> Bool {
        (p as? RelationshipDescription)?.isToMany ?? false
    }

    private static func isAggregate(_ c: Column) -> Bool {
        if case .expression(_, let a) = c { return a != nil }
        return false
    }

    private static func column(_ item: Any, _ entity: EntityDescription) throws -> Column {
        switch item {
        case let d as ExpressionDescription:
            if case .function(let f, let args) = d.expression.kind, args.count == 1,
                [.sum, .count, .min, .max, .average].contains(f)
            {
                return .expression(
                    d, Aggregate(function: f, argument: try args[0].compile(for: entity)))
            }
            _ = try d.expression.compile(for: entity)
            return .expression(d, nil)
        case let p as PropertyDescription:
            return try column(p.name, entity)
        case let name as String:
            if let p = entity.propertiesByName[name] {
                guard !isToMany(p) else {
                    throw FetchErrors.invalid(
                        "\(entity.name).\(name) is a to-many relationship; "
                            + "dictionary results take attributes, to-ones and expressions",
                        entity: entity.name, key: name)
                }
                return .property(name, p)
            }
            return .keyPath(name, try FetchExpression.keyPath(name).compile(for: entity))
        default:
            throw FetchErrors.invalid(
                "propertiesToFetch holds a \(type(of: item)); use property names, "
                    + "PropertyDescriptions or ExpressionDescriptions", entity: entity.name)
        }
    }

    private static func value(of column: Column, for object: ManagedObject) -> AttributeValue {
        switch column {
        case .property(_, let p):
            switch object.read(p.index, "fetch") {
            case .attribute(let v): return v
            case .toOne(let o): return o.map { .string($0.objectID.description) } ?? .null
            case .toMany: return .null
            }
        case .keyPath(_, let e): return e.value(for: ObjectRecord(object)).attributeValue
        case .expression(let d, _):
            return
                (try? d.expression.compile(for: object.entity).value(for: ObjectRecord(object))
                .attributeValue) ?? .null
        }
    }

    private static func row(_ columns: [Column], _ group: [ManagedObject]) -> [String: Any] {
        var row: [String: Any] = [:]
        for column in columns {
            switch column {
            case .property(let name, let p):
                guard let first = group.first else { continue }
                switch first.read(p.index, "fetch") {
                case .attribute(let v):
                    if let s = v.swiftValue(for: (p as! AttributeDescription).type) {
                        row[name] = s
                    }
                case .toOne(let o): if let o { row[name] = o.objectID }
                case .toMany: continue
                }
            case .keyPath(let name, let e):
                guard let first = group.first else { continue }
                if let s = e.value(for: ObjectRecord(first)).attributeValue.swiftValue(
                    for: .undefined)
                {
                    row[name] = s
                }
            case .expression(let d, let aggregate?):
                let values = group.map {
                    aggregate.argument.value(for: ObjectRecord($0)).attributeValue
                }
                let result = Aggregation.apply(aggregate.function, to: values)
                let typed =
                    d.resultType == .undefined
                    ? result : (result.coerced(to: d.resultType) ?? result)
                if let s = typed.swiftValue(for: d.resultType) { row[d.name] = s }
            case .expression(let d, nil):
                guard let first = group.first,
                    let e = try? d.expression.compile(for: first.entity)
                else { continue }
                let v = e.value(for: ObjectRecord(first)).attributeValue
                let typed = d.resultType == .undefined ? v : (v.coerced(to: d.resultType) ?? v)
                if let s = typed.swiftValue(for: d.resultType) { row[d.name] = s }
            }
        }
        return row
    }

    private static func fingerprint(_ row: [String: Any]) -> String {
        row.keys.sorted().map { "\($0)=\(row[$0].map { "\($0)" } ?? "nil")" }.joined(
            separator: "\u{1}")
    }
}

/// Aggregate functions over a group's values (nils are ignored, as in SQL).
enum Aggregation {
    static func apply(_ function: FetchFunction, to values: [AttributeValue]) -> AttributeValue {
        let present = values.filter { !$0.isNull }
        switch function {
        case .count: return .integer(Int64(present.count))
        case .min:
            return present.min {
                ($0.numericOrder(to: $1) ?? .orderedSame) == .orderedAscending
            } ?? .null
        case .max:
            return present.max {
                ($0.numericOrder(to: $1) ?? .orderedSame) == .orderedAscending
            } ?? .null
        case .sum, .average:
            guard !present.isEmpty else { return function == .sum ? .integer(0) : .null }
            let exact = present.allSatisfy {
                if case .integer = $0 { true } else if case .decimal = $0 { true } else { false }
            }
            if exact {
                let total = present.reduce(Decimal(0)) { sum, v in
                    if case .decimal(let d) = v { return sum + d }
                    if case .integer(let i) = v { return sum + Decimal(i) }
                    return sum
                }
                if function == .sum {
                    let allIntegers = present.allSatisfy {
                        if case .integer = $0 { true } else { false }
                    }
                    if allIntegers,
                        let i = Int64(exactly: NSDecimalNumber(decimal: total).doubleValue)
                    {
                        return .integer(i)
                    }
                    return .decimal(total)
                }
                return .decimal(total / Decimal(present.count))
            }
            let total = present.reduce(0.0) { sum, v in
                switch v {
                case .double(let d): sum + d
                case .float(let f): sum + Double(f)
                case .integer(let i): sum + Double(i)
                case .decimal(let d): sum + NSDecimalNumber(decimal: d).doubleValue
                default: sum
                }
            }
            return .double(function == .sum ? total : total / Double(present.count))
        default: return .null
        }
    }
}
