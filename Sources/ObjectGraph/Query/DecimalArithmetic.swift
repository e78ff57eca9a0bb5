import Foundation

/// Exact decimal sums, differences, products and roundings computed on `Decimal`'s storage
/// (``DecimalLayout``) when both significands fit in 64 bits: the fast path of batch updates
/// such as `round(amount * 1.2, 2)` over 100k rows, where Foundation's `Decimal` arithmetic
/// and `NSDecimalRound` cost about a microsecond each on Linux.
///
/// Each result is the exact value Foundation computes (Foundation's arithmetic is exact
/// whenever the result fits its 38 digits, as these do); `nil` means "use Foundation":
/// an unknown storage layout, a NaN or a wide significand, or a result outside the
/// exponent range.
enum DecimalArithmetic {
    /// `a + b`, `a - b` or `a * b` exactly, or `nil` (see the type's summary).
    static func exact(_ function: FetchFunction, _ a: Decimal, _ b: Decimal) -> Decimal? {
        guard DecimalLayout.isKnown, let x = DecimalLayout.parts64(a),
            let y = DecimalLayout.parts64(b), let parts = exactParts(function, x, y)
        else { return nil }
        return DecimalLayout.make(parts)
    }

    /// A decimal's sign, 64-bit significand and exponent (``DecimalLayout/parts64(_:)``).
    typealias Parts64 = (isNegative: Bool, mantissa: UInt64, exponent: Int)

    /// `x + y`, `x - y` or `x * y` exactly, not yet normalised (trailing zeros may remain in
    /// the significand); `nil` for another function or when aligning the exponents of a sum
    /// overflows 128 bits.
    @inline(__always)
    static func exactParts(_ function: FetchFunction, _ x: Parts64, _ y: Parts64)
        -> DecimalLayout.Parts?
    {
        switch function {
        case .multiply:
            let product = x.mantissa.multipliedFullWidth(by: y.mantissa)
            return .init(
                isNegative: x.isNegative != y.isNegative,
                mantissa: UInt128(product.high) << 64 | UInt128(product.low),
                exponent: x.exponent + y.exponent)
        case .add: return sum(x, y, negatingSecond: false)
        case .subtract: return sum(x, y, negatingSecond: true)
        default: return nil
        }
    }

    /// `x + y` (or `x - y`), aligned to the smaller exponent; `nil` when aligning overflows.
    private static func sum(_ x: Parts64, _ y: Parts64, negatingSecond: Bool)
        -> DecimalLayout.Parts?
    {
        let yNegative = y.mantissa != 0 && (y.isNegative != negatingSecond)
        let exponent = min(x.exponent, y.exponent)
        guard let a = scaled(x.mantissa, by: x.exponent - exponent),
            let b = scaled(y.mantissa, by: y.exponent - exponent)
        else { return nil }
        if x.isNegative == yNegative {
            let (total, overflow) = a.addingReportingOverflow(b)
            guard !overflow else { return nil }
            return .init(isNegative: x.isNegative, mantissa: total, exponent: exponent)
        }
        // Opposite signs: the larger magnitude's sign, the difference of magnitudes.
        let (magnitude, negative) = a >= b ? (a - b, x.isNegative) : (b - a, yNegative)
        return .init(
            isNegative: negative && magnitude != 0, mantissa: magnitude, exponent: exponent)
    }

    /// `round(x ⊕ y, places)` as the evaluator computes it in two steps (``exact(_:_:_:)``,
    /// then ``roundedHalfAwayFromZero(_:places:)``), in one, without building the
    /// intermediate decimal; `nil` where the two steps would not both take their fast paths
    /// (a result significand wider than 64 bits, an exponent outside −128…127, a function
    /// other than `+ − ×`), so the caller evaluates it in the two steps.
    ///
    /// Rounding half away from zero gives the same value whatever the representation of the
    /// exact result (trailing zeros or not), and ``DecimalLayout/make(_:)`` normalises, so
    /// the bytes are the two steps' bytes. `places` is already clamped to ±400.
    @inline(__always)
    static func roundedExact(_ function: FetchFunction, _ x: Parts64, _ y: Parts64, places: Int)
        -> Decimal?
    {
        guard let exact = exactParts(function, x, y), exact.exponent >= -128,
            exact.exponent <= 127, let m = UInt64(exactly: exact.mantissa)
        else { return nil }
        let drop = -places - exact.exponent  // digits to drop
        guard drop > 0 else { return DecimalLayout.make(exact) }  // already within `places`
        // 10^20 exceeds every 64-bit significand: the value rounds to zero.
        guard drop <= 19 else { return DecimalLayout.make(.init()) }
        var power: UInt64 = 1
        for _ in 0..<drop { power &*= 10 }
        var quotient = m / power
        if m - quotient &* power >= power / 2 { quotient += 1 }
        return DecimalLayout.make(
            .init(
                isNegative: exact.isNegative && quotient != 0, mantissa: UInt128(quotient),
                exponent: -places))
    }

    /// `m × 10^e` in 128 bits, or `nil` when it overflows.
    private static func scaled(_ m: UInt64, by e: Int) -> UInt128? {
        var r = UInt128(m)
        guard e > 0 else { return r }
        guard e <= 38 else { return m == 0 ? 0 : nil }
        for _ in 0..<e {
            let (p, overflow) = r.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            r = p
        }
        return r
    }

    /// `value` rounded to `places` decimal places, halves away from zero (Foundation's
    /// `NSDecimalRound` with `.plain`), or `nil` (see the type's summary).
    static func roundedHalfAwayFromZero(_ value: Decimal, places: Int) -> Decimal? {
        guard DecimalLayout.isKnown, let x = DecimalLayout.parts64(value) else { return nil }
        let drop = -places - x.exponent  // digits to drop
        guard drop > 0 else { return value }  // already within `places`
        guard drop <= 19 else {
            // 10^20 exceeds every 64-bit significand: the value rounds to zero.
            return DecimalLayout.make(.init())
        }
        var power: UInt64 = 1
        for _ in 0..<drop { power *= 10 }
        var quotient = x.mantissa / power
        if x.mantissa % power >= power / 2 { quotient += 1 }
        return DecimalLayout.make(
            .init(
                isNegative: x.isNegative && quotient != 0, mantissa: UInt128(quotient),
                exponent: -places))
    }

    /// `a × b` as Foundation computes it, or NaN where Foundation's product would fall
    /// below the smallest exponent (−128).
    ///
    /// Foundation's `Decimal` multiplication on Linux stops the process (an illegal
    /// instruction in `Decimal._multiply(by:roundingMode:)`) when the product's exponent,
    /// after its significand is reduced to 128 bits, is below −128: `1e-64 * 1e-65` does.
    /// Division reports the same underflow as NaN, so this does too. Where the exponents'
    /// sum is below −128, `a` is scaled up by the difference first (exact: only its exponent
    /// changes), Foundation multiplies, and the product is scaled back; when that would take
    /// its exponent below −128 the result is NaN. Elsewhere it is Foundation's `a * b`.
    static func product(_ a: Decimal, _ b: Decimal) -> Decimal {
        if a.isNaN || b.isNaN { return .nan }
        if a.isZero || b.isZero { return a * b }
        let sum = a.exponent + b.exponent
        guard sum < Self.minimumExponent else { return a * b }
        let lift = Self.minimumExponent - sum
        let scaled = Decimal(sign: a.sign, exponent: a.exponent + lift, significand: a.significand)
        let product = scaled * b
        guard !product.isNaN, product.exponent - lift >= Self.minimumExponent else { return .nan }
        return Decimal(
            sign: product.sign, exponent: product.exponent - lift,
            significand: product.significand)
    }

    /// `a` raised to the whole power `n` (0 or more), or NaN where the result or a step
    /// towards it overflows or falls below the smallest exponent (see ``product(_:_:)``).
    ///
    /// Foundation's `pow(_:_:)` is used where no step can fall below the smallest exponent
    /// (a base of magnitude 1 or more, zero, or a result of 10⁻⁸⁵ or more: each step's value
    /// is then at least the result's, and a significand of 39 digits at most keeps its
    /// exponent at −124 or above); elsewhere the same square-and-multiply runs on
    /// ``product(_:_:)``.
    static func power(_ a: Decimal, _ n: Int) -> Decimal {
        precondition(n >= 0, "power(_:_:) takes a whole exponent of 0 or more")
        if a.isNaN { return .nan }
        if n <= 1 || a.isZero { return Foundation.pow(a, n) }
        let magnitude = Swift.abs(NSDecimalNumber(decimal: a).doubleValue)
        if magnitude >= 1 || Foundation.log10(magnitude) * Double(n) >= -85 {
            return Foundation.pow(a, n)
        }
        var result = Decimal(1)
        var base = a
        var remaining = n
        while remaining > 0 {
            if remaining & 1 == 1 { result = product(result, base) }
            remaining >>= 1
            if remaining > 0 { base = product(base, base) }
            if result.isNaN || base.isNaN { return .nan }
        }
        return result
    }

    /// The smallest exponent Foundation's `Decimal` arithmetic produces.
    private static let minimumExponent = -128
}
