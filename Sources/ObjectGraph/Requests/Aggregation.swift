import Foundation

/// The aggregate functions of dictionary fetches (`sum:`, `count:`, `min:`, `max:`,
/// `average:`) over a group's values, with SQL's rules: nils are ignored, `count` counts the
/// values that are not nil (related objects included), the sum of nothing is 0.
///
/// An argument that reaches a collection (a to-many key path such as `employees` or
/// `employees.salary`) contributes each element, so two employees earning the same count
/// twice, as the SQL join does: FreeCoreData's Apple-run `testAggregatesAcrossARelationship`.
enum Aggregation {
    /// Appends `value`'s elements (the value itself when it is not a collection).
    static func flatten(_ value: ExpressionValue, into values: inout [ExpressionValue]) {
        if case .collection(let items) = value {
            for item in items { flatten(item, into: &values) }
        } else {
            values.append(value)
        }
    }

    static func apply(_ function: FetchFunction, to elements: [ExpressionValue]) -> AttributeValue {
        if function == .count {
            return .integer(
                Int64(
                    elements.count { element in
                        if case .value(let v) = element { !v.isNull } else { true }
                    }))
        }
        let present = elements.compactMap { element -> AttributeValue? in
            if case .value(let v) = element, !v.isNull { v } else { nil }
        }
        switch function {
        case .min:
            return present.min {
                ($0.numericOrder(to: $1) ?? .orderedSame) == .orderedAscending
            } ?? .null
        case .max:
            return present.max {
                ($0.numericOrder(to: $1) ?? .orderedSame) == .orderedAscending
            } ?? .null
        case .sum, .average:
            return sumOrAverage(function, present)
        default: return .null
        }
    }

    private static func sumOrAverage(_ function: FetchFunction, _ present: [AttributeValue])
        -> AttributeValue
    {
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
                if allIntegers, let i = Int64(exactly: NSDecimalNumber(decimal: total).doubleValue)
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
    }
}
