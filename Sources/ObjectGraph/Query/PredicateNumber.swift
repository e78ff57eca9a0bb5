import Foundation

/// A number as the predicate evaluator sees it: integers (and Booleans, as 0 and 1) stay
/// exact, decimals stay exact, and floats widen to doubles.
///
/// Two numbers compare exactly when both are integers or decimals; a double on either side
/// makes the comparison happen in double precision (an integer is compared with a double
/// exactly, without rounding the integer).
enum PredicateNumber: Equatable {
    case integer(Int64)
    case decimal(Decimal)
    case double(Double)

    /// The number in `value`, or `nil` for non-numbers. Booleans count as 0 and 1.
    init?(_ value: AttributeValue) {
        switch value {
        case .integer(let v): self = .integer(v)
        case .boolean(let b): self = .integer(b ? 1 : 0)
        case .decimal(let v): self = .decimal(v)
        case .double(let v): self = .double(v)
        case .float(let v): self = .double(Double(v))
        default: return nil
        }
    }

    /// The number as an attribute value.
    var attributeValue: AttributeValue {
        switch self {
        case .integer(let v): .integer(v)
        case .decimal(let v): .decimal(v)
        case .double(let v): .double(v)
        }
    }

    /// The nearest double.
    var doubleValue: Double {
        switch self {
        case .integer(let v): Double(v)
        case .decimal(let v): Self.double(v)
        case .double(let v): v
        }
    }

    /// The exact decimal, or `nil` for a non-finite double.
    var decimalValue: Decimal? {
        switch self {
        case .integer(let v): Decimal(v)
        case .decimal(let v): v
        case .double(let v):
            v.isFinite
                ? Self.decimal(fromLiteral: v.description.replacingOccurrences(of: "e+", with: "e"))
                : nil
        }
    }

    /// The nearest double to a decimal, correctly rounded.
    static func double(_ d: Decimal) -> Double {
        if let fast = DecimalParts(d)?.doubleValue { return fast }
        if d.isNaN { return .nan }
        return NSDecimalNumber(decimal: d).doubleValue
    }

    /// Parses a whole decimal literal (`12`, `-0.5`, `.25`, `1.5e3`); `nil` for anything else.
    static func decimal(fromLiteral text: String) -> Decimal? {
        var scalars = Substring(text).unicodeScalars[...]
        if let first = scalars.first, first == "+" || first == "-" { scalars = scalars.dropFirst() }
        var digits = 0
        while let c = scalars.first, c >= "0" && c <= "9" {
            digits += 1
            scalars = scalars.dropFirst()
        }
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            while let c = scalars.first, c >= "0" && c <= "9" {
                digits += 1
                scalars = scalars.dropFirst()
            }
        }
        guard digits > 0 else { return nil }
        if let e = scalars.first, e == "e" || e == "E" {
            scalars = scalars.dropFirst()
            if let s = scalars.first, s == "+" || s == "-" { scalars = scalars.dropFirst() }
            var exponentDigits = 0
            while let c = scalars.first, c >= "0" && c <= "9" {
                exponentDigits += 1
                scalars = scalars.dropFirst()
            }
            guard exponentDigits > 0, exponentDigits < 5 else { return nil }
        }
        guard scalars.isEmpty else { return nil }
        guard let d = Decimal(posixText: text), !d.isNaN else { return nil }
        return d
    }

    /// Orders two numbers; `.unordered` when either is NaN.
    static func compare(_ a: PredicateNumber, _ b: PredicateNumber) -> PredicateOrder {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): return order(x, y)
        case (.double(let x), .double(let y)): return order(x, y)
        case (.integer(let x), .double(let y)): return compare(x, y)
        case (.double(let x), .integer(let y)): return compare(y, x).reversed
        case (.decimal(let x), .decimal(let y)):
            if let px = DecimalParts(x), let py = DecimalParts(y) {
                return DecimalParts.compare(px, py)
            }
            return x.isNaN || y.isNaN ? .unordered : order(x, y)
        case (.decimal(let x), .integer(let y)):
            if let px = DecimalParts(x) { return DecimalParts.compare(px, DecimalParts(y)) }
            return x.isNaN ? .unordered : order(x, Decimal(y))
        case (.integer(let x), .decimal(let y)):
            if let py = DecimalParts(y) { return DecimalParts.compare(DecimalParts(x), py) }
            return y.isNaN ? .unordered : order(Decimal(x), y)
        case (.decimal(let x), .double(let y)): return order(double(x), y)
        case (.double(let x), .decimal(let y)): return order(x, double(y))
        }
    }

    /// Orders any two comparable values; `.unordered` when unordered (NaN).
    static func order<T: Comparable>(_ x: T, _ y: T) -> PredicateOrder {
        if x < y { return .ascending }
        if y < x { return .descending }
        return x == y ? .same : .unordered
    }

    /// Orders an integer against a double exactly.
    static func compare(_ i: Int64, _ d: Double) -> PredicateOrder {
        if d.isNaN { return .unordered }
        if d >= 9_223_372_036_854_775_808.0 { return .ascending }
        if d < -9_223_372_036_854_775_808.0 { return .descending }
        let whole = d.rounded(.towardZero)
        let w = Int64(whole)
        if i < w { return .ascending }
        if i > w { return .descending }
        let fraction = d - whole
        return fraction > 0 ? .ascending : fraction < 0 ? .descending : .same
    }
}

/// The order of two values. Module-local (not `ComparisonResult?`) so comparisons in the
/// evaluator's inner loop need no runtime type metadata.
enum PredicateOrder: Int8 {
    case ascending = -1
    case same = 0
    case descending = 1
    /// The values have no order (different kinds, NaN, nil).
    case unordered = 2

    /// The opposite order.
    var reversed: PredicateOrder {
        switch self {
        case .ascending: .descending
        case .descending: .ascending
        default: self
        }
    }

    /// As Foundation's result; unordered counts as the same.
    var comparisonResult: ComparisonResult {
        switch self {
        case .ascending: .orderedAscending
        case .descending: .orderedDescending
        default: .orderedSame
        }
    }
}

extension ComparisonResult {
    /// The opposite order.
    var reversed: ComparisonResult {
        switch self {
        case .orderedAscending: .orderedDescending
        case .orderedDescending: .orderedAscending
        case .orderedSame: .orderedSame
        }
    }
}
