import Foundation

/// Functions over a collection: `@count`, `@sum`, `@avg`, `@min`, `@max` and the named
/// `count`, `sum`, `average`, `min`, `max`, `median`, `mode`, `stddev`.
///
/// `nil` elements are skipped by everything except `count` (as SQL aggregates skip NULL).
/// The sum of nothing is 0; the average, median, minimum, maximum and deviation of nothing
/// are `nil`. Minimum and maximum work on anything ordered (numbers, strings, dates).
enum PredicateStatistics {
    /// The result of `function` over `values` (`count` is handled by the caller, which
    /// also counts objects). `mode` returns its values through `modes`.
    static func apply(_ function: FetchFunction, _ values: [AttributeValue]) -> AttributeValue {
        let present = values.filter { !$0.isNull }
        switch function {
        case .count: return .integer(Int64(values.count))
        case .sum: return sum(present)
        case .average:
            let numbers = present.filter { PredicateNumber($0) != nil }
            guard !numbers.isEmpty else { return .null }
            return PredicateArithmetic.apply(
                .divide, [sum(numbers), .integer(Int64(numbers.count))])
        case .min: return extreme(present, keep: .ascending)
        case .max: return extreme(present, keep: .descending)
        case .median:
            let numbers = present.compactMap { v in PredicateNumber(v).map { (v, $0) } }
                .sorted { PredicateNumber.compare($0.1, $1.1) == .ascending }
            guard !numbers.isEmpty else { return .null }
            let middle = numbers.count / 2
            if numbers.count % 2 == 1 { return numbers[middle].1.attributeValue }
            let pair = PredicateArithmetic.apply(
                .add,
                [
                    numbers[middle - 1].1.attributeValue,
                    numbers[middle].1.attributeValue,
                ])
            return PredicateArithmetic.apply(.divide, [pair, .integer(2)])
        case .stddev:
            let numbers = present.compactMap { PredicateNumber($0)?.doubleValue }
            guard !numbers.isEmpty else { return .null }
            let mean = numbers.reduce(0, +) / Double(numbers.count)
            let variance =
                numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
            return variance.isFinite ? .double(variance.squareRoot()) : .null
        default: return .null
        }
    }

    /// The most frequent non-nil values, in order of first appearance.
    static func modes(_ values: [AttributeValue]) -> [AttributeValue] {
        var distinct: [(value: AttributeValue, count: Int)] = []
        for v in values where !v.isNull {
            let test = PredicateTest(.equalTo, StringFolding([]), constant: .value(v))
            if let i = distinct.firstIndex(where: { test.test($0.value) }) {
                distinct[i].count += 1
            } else {
                distinct.append((v, 1))
            }
        }
        let top = distinct.map(\.count).max() ?? 0
        return distinct.filter { $0.count == top }.map(\.value)
    }

    private static func sum(_ values: [AttributeValue]) -> AttributeValue {
        var total: AttributeValue = .integer(0)
        for v in values where PredicateNumber(v) != nil {
            total = PredicateArithmetic.apply(.add, [total, v])
        }
        return total
    }

    private static func extreme(_ values: [AttributeValue], keep: PredicateOrder) -> AttributeValue
    {
        var best: AttributeValue?
        for v in values {
            guard let current = best else {
                best = v
                continue
            }
            let test = PredicateTest(.equalTo, StringFolding([]), constant: .value(current))
            if test.order(.value(v), test.operand) == keep { best = v }
        }
        return best ?? .null
    }
}
