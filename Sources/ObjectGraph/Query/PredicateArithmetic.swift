import Foundation

/// Scalar functions of the predicate language: arithmetic, math, string case, bits.
///
/// Integers stay integers while the result is exact and fits (overflow moves to decimal);
/// decimals stay decimal; a double or float operand makes the result a double. A date plus
/// or minus a number of seconds is a date; a date minus a date is seconds. Anything without
/// a result (division by zero, a non-number, a non-finite double) is `.null`.
enum PredicateArithmetic {
    static func apply(_ function: FetchFunction, _ args: [AttributeValue]) -> AttributeValue {
        if args.count == 2 { return binary(function, args[0], args[1]) }
        guard args.count == 1 else { return .null }
        return unary(function, args[0])
    }

    /// ``apply(_:_:)`` for two arguments, without an array of them.
    static func apply(_ function: FetchFunction, _ a: AttributeValue, _ b: AttributeValue)
        -> AttributeValue
    {
        binary(function, a, b)
    }

    /// ``apply(_:_:)`` for one argument, without an array of it.
    static func apply(_ function: FetchFunction, _ a: AttributeValue) -> AttributeValue {
        unary(function, a)
    }

    private static func binary(_ function: FetchFunction, _ a: AttributeValue, _ b: AttributeValue)
        -> AttributeValue
    {
        switch (function, a, b) {
        case (.add, .date(let d), _):
            return PredicateNumber(b).map { .date(d.addingTimeInterval($0.doubleValue)) } ?? .null
        case (.add, _, .date(let d)):
            return PredicateNumber(a).map { .date(d.addingTimeInterval($0.doubleValue)) } ?? .null
        case (.subtract, .date(let d), .date(let e)):
            return .double(d.timeIntervalSinceReferenceDate - e.timeIntervalSinceReferenceDate)
        case (.subtract, .date(let d), _):
            return PredicateNumber(b).map { .date(d.addingTimeInterval(-$0.doubleValue)) } ?? .null
        case (.round, _, _):
            guard let x = PredicateNumber(a), case .integer(let scale)? = PredicateNumber(b)
            else { return .null }
            return finite(round(x, scale: scale))
        case (.bitwiseAnd, _, _), (.bitwiseOr, _, _), (.bitwiseXor, _, _), (.leftShift, _, _),
            (.rightShift, _, _):
            guard case .integer(let x)? = PredicateNumber(a),
                case .integer(let y)? = PredicateNumber(b)
            else {
                return .null
            }
            switch function {
            case .bitwiseAnd: return .integer(x & y)
            case .bitwiseOr: return .integer(x | y)
            case .bitwiseXor: return .integer(x ^ y)
            case .leftShift: return .integer(x << y)
            default: return .integer(x >> y)
            }
        default:
            guard let x = PredicateNumber(a), let y = PredicateNumber(b) else { return .null }
            return finite(numeric(function, x, y))
        }
    }

    private static func numeric(
        _ function: FetchFunction, _ x: PredicateNumber,
        _ y: PredicateNumber
    ) -> PredicateNumber? {
        switch (x, y) {
        case (.integer(let a), .integer(let b)):
            if let exact = integer(function, a, b) { return exact }
            if function == .power { return .double(Foundation.pow(Double(a), Double(b))) }
            return decimal(function, Decimal(a), Decimal(b))
        case (.double, _), (_, .double):
            return double(function, x.doubleValue, y.doubleValue)
        default:
            guard let a = x.decimalValue, let b = y.decimalValue else { return nil }
            if function == .power {
                if case .integer(let e) = y, e >= 0, e <= 256 {
                    return .decimal(DecimalArithmetic.power(a, Int(e)))
                }
                return .double(Foundation.pow(x.doubleValue, y.doubleValue))
            }
            return decimal(function, a, b)
        }
    }

    /// The exact integer result, or `nil` when it overflows or is not whole.
    private static func integer(_ function: FetchFunction, _ a: Int64, _ b: Int64)
        -> PredicateNumber?
    {
        let (value, overflow): (Int64, Bool)
        switch function {
        case .add: (value, overflow) = a.addingReportingOverflow(b)
        case .subtract: (value, overflow) = a.subtractingReportingOverflow(b)
        case .multiply: (value, overflow) = a.multipliedReportingOverflow(by: b)
        case .divide:
            guard b != 0 else { return nil }
            let (q, o) = a.dividedReportingOverflow(by: b)
            guard !o, q.multipliedReportingOverflow(by: b) == (a, false) else { return nil }
            (value, overflow) = (q, false)
        case .modulus:
            guard b != 0 else { return nil }
            (value, overflow) = (a.remainderReportingOverflow(dividingBy: b).partialValue, false)
        case .power:
            guard b >= 0 else { return nil }
            var result: Int64 = 1
            for _ in 0..<min(b, 64) {
                let (p, o) = result.multipliedReportingOverflow(by: a)
                if o { return nil }
                result = p
            }
            if b > 64 && a != 0 && a != 1 && a != -1 { return nil }
            if b > 64 && a == -1 { result = b % 2 == 0 ? 1 : -1 }
            (value, overflow) = (result, false)
        default: return nil
        }
        return overflow ? nil : .integer(value)
    }

    private static func decimal(_ function: FetchFunction, _ a: Decimal, _ b: Decimal)
        -> PredicateNumber?
    {
        if let exact = DecimalArithmetic.exact(function, a, b) { return .decimal(exact) }
        switch function {
        case .add: return .decimal(a + b)
        case .subtract: return .decimal(a - b)
        case .multiply: return .decimal(DecimalArithmetic.product(a, b))
        case .divide: return b.isZero ? nil : .decimal(a / b)
        case .modulus:
            guard !b.isZero else { return nil }
            let q = rounded(a / b, a / b >= 0 ? .down : .up)
            return .decimal(a - q * b)
        default: return nil
        }
    }

    private static func double(_ function: FetchFunction, _ a: Double, _ b: Double)
        -> PredicateNumber?
    {
        switch function {
        case .add: return .double(a + b)
        case .subtract: return .double(a - b)
        case .multiply: return .double(a * b)
        case .divide: return b == 0 ? nil : .double(a / b)
        case .modulus: return b == 0 ? nil : .double(a.truncatingRemainder(dividingBy: b))
        case .power: return .double(Foundation.pow(a, b))
        default: return nil
        }
    }

    private static func finite(_ n: PredicateNumber?) -> AttributeValue {
        switch n {
        case .double(let d)? where !d.isFinite: .null
        case .decimal(let d)? where d.isNaN: .null
        case let n?: n.attributeValue
        case nil: .null
        }
    }

    static func rounded(_ d: Decimal, _ mode: NSDecimalNumber.RoundingMode, scale: Int = 0)
        -> Decimal
    {
        var input = d
        var result = Decimal()
        NSDecimalRound(&result, &input, scale, mode)
        return result
    }

    /// `x` to `scale` decimal places, halves away from zero (`NSDecimalNumber`'s `.plain`).
    /// Integers stay integers (unchanged for a scale of 0 or more); a double rounds its
    /// binary value, so `round(1.005e0, 2)` is `1.0`.
    private static func round(_ x: PredicateNumber, scale: Int64) -> PredicateNumber? {
        // Beyond ±400 places no decimal or double changes (or every one becomes 0).
        let places = Int(Swift.max(-400, Swift.min(400, scale)))
        switch x {
        case .integer(let v):
            guard places < 0 else { return x }
            let r = rounded(Decimal(v), .plain, scale: places)
            // A whole decimal prints as digits; one beyond Int64 stays a decimal.
            return Int64(r.description).map(PredicateNumber.integer) ?? .decimal(r)
        case .decimal(let v):
            return .decimal(
                DecimalArithmetic.roundedHalfAwayFromZero(v, places: places)
                    ?? rounded(v, .plain, scale: places))
        case .double(let v):
            guard v.isFinite, places < 300 else { return x }
            guard places > -300 else { return .double(0) }
            let factor = Foundation.pow(10.0, Double(Swift.abs(places)))
            return places >= 0
                ? .double((v * factor).rounded(.toNearestOrAwayFromZero) / factor)
                : .double((v / factor).rounded(.toNearestOrAwayFromZero) * factor)
        }
    }

    private static func unary(_ function: FetchFunction, _ a: AttributeValue) -> AttributeValue {
        switch (function, a) {
        case (.noIndex, _): return a
        case (.lowercase, .string(let s)): return .string(s.lowercased())
        case (.uppercase, .string(let s)): return .string(s.uppercased())
        case (.onesComplement, _):
            guard case .integer(let x)? = PredicateNumber(a) else { return .null }
            return .integer(~x)
        default:
            guard let x = PredicateNumber(a) else { return .null }
            return finite(numeric(function, x))
        }
    }

    private static func numeric(_ function: FetchFunction, _ x: PredicateNumber) -> PredicateNumber?
    {
        switch (function, x) {
        case (.negate, .integer(let v)):
            return v == .min ? .decimal(-Decimal(v)) : .integer(-v)
        case (.negate, .decimal(let v)): return .decimal(-v)
        case (.negate, .double(let v)): return .double(-v)
        case (.abs, .integer(let v)):
            return v == .min ? .decimal(-Decimal(v)) : .integer(Swift.abs(v))
        case (.abs, .decimal(let v)): return .decimal(v < 0 ? -v : v)
        case (.abs, .double(let v)): return .double(Swift.abs(v))
        case (.floor, .integer), (.ceiling, .integer), (.trunc, .integer): return x
        case (.floor, .decimal(let v)): return .decimal(rounded(v, .down))
        case (.ceiling, .decimal(let v)): return .decimal(rounded(v, .up))
        case (.trunc, .decimal(let v)): return .decimal(rounded(v, v >= 0 ? .down : .up))
        case (.floor, .double(let v)): return .double(v.rounded(.down))
        case (.ceiling, .double(let v)): return .double(v.rounded(.up))
        case (.trunc, .double(let v)): return .double(v.rounded(.towardZero))
        case (.sqrt, _): return x.doubleValue < 0 ? nil : .double(x.doubleValue.squareRoot())
        case (.exp, _): return .double(Foundation.exp(x.doubleValue))
        case (.ln, _): return x.doubleValue <= 0 ? nil : .double(Foundation.log(x.doubleValue))
        case (.log, _): return x.doubleValue <= 0 ? nil : .double(Foundation.log10(x.doubleValue))
        default: return nil
        }
    }
}
