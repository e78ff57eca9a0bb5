import Foundation

/// A decimal whose digits fit in 64 bits, read straight from `Decimal`'s storage
/// (``DecimalLayout``): the fast path for comparing, converting and summing decimals
/// (Foundation's own comparison costs hundreds of nanoseconds on Linux, too slow for a scan
/// of 100k rows).
///
/// Where the storage layout is not the known one (another Foundation), ``init(_:)`` always
/// returns `nil` and callers use Foundation's operations.
package struct DecimalParts: Equatable, Sendable {
    /// Whether the value is below zero (never set for zero).
    package let isNegative: Bool
    /// The significand's magnitude.
    package let mantissa: UInt64
    /// The power of ten the mantissa is scaled by.
    package let exponent: Int

    package init(isNegative: Bool, mantissa: UInt64, exponent: Int) {
        self.isNegative = isNegative && mantissa != 0
        self.mantissa = mantissa
        self.exponent = exponent
    }

    /// The parts of `integer`.
    package init(_ integer: Int64) {
        self.init(isNegative: integer < 0, mantissa: integer.magnitude, exponent: 0)
    }

    /// The parts of `decimal`, or `nil` when it is NaN, needs more than 64 bits, or the
    /// storage layout is not the one this code knows.
    package init?(_ decimal: Decimal) {
        guard Self.isReadable, let parts = Self.readKnownLayout(decimal) else { return nil }
        self = parts
    }

    /// The parts of `decimal`, for callers that checked ``isReadable`` (a constant built
    /// with parts proves it); `nil` when it is NaN or needs more than 64 bits.
    @inline(__always)
    static func readKnownLayout(_ decimal: Decimal) -> DecimalParts? {
        DecimalLayout.parts64(decimal).map {
            DecimalParts(isNegative: $0.isNegative, mantissa: $0.mantissa, exponent: $0.exponent)
        }
    }

    /// Whether this Foundation's `Decimal` storage is the layout this code reads.
    package static var isReadable: Bool { DecimalLayout.isKnown }

    /// Whether `a` is less than `b`, exactly: on the storage when both fit 64 bits, else
    /// with Foundation's comparison (which costs hundreds of nanoseconds on Linux).
    package static func isLess(_ a: Decimal, _ b: Decimal) -> Bool {
        if let x = DecimalParts(a), let y = DecimalParts(b) {
            return compare(x, y) == .ascending
        }
        return a < b
    }

    /// Orders two decimals exactly.
    static func compare(_ a: DecimalParts, _ b: DecimalParts) -> PredicateOrder {
        if a.isNegative != b.isNegative { return a.isNegative ? .ascending : .descending }
        let magnitude = compareMagnitudes(a, b)
        return a.isNegative ? magnitude.reversed : magnitude
    }

    private static func compareMagnitudes(_ a: DecimalParts, _ b: DecimalParts) -> PredicateOrder {
        if a.mantissa == 0 || b.mantissa == 0 {
            return a.mantissa == b.mantissa ? .same : a.mantissa == 0 ? .ascending : .descending
        }
        if a.exponent == b.exponent { return order(a.mantissa, b.mantissa) }
        if a.exponent > b.exponent {
            guard let scaled = scale(a.mantissa, by: a.exponent - b.exponent) else {
                return .descending
            }
            return order(scaled, b.mantissa)
        }
        guard let scaled = scale(b.mantissa, by: b.exponent - a.exponent) else { return .ascending }
        return order(a.mantissa, scaled)
    }

    private static func scale(_ m: UInt64, by e: Int) -> UInt64? {
        guard e < 20 else { return nil }
        var r = m
        for _ in 0..<e {
            let (p, overflow) = r.multipliedReportingOverflow(by: 10)
            if overflow { return nil }
            r = p
        }
        return r
    }

    private static func order(_ x: UInt64, _ y: UInt64) -> PredicateOrder {
        x < y ? .ascending : x > y ? .descending : .same
    }

    private static let exactPowers: [Double] = (0...22).map { e in
        var r = 1.0
        for _ in 0..<e { r *= 10 }
        return r
    }

    /// The nearest double, when one IEEE operation computes it exactly rounded.
    var doubleValue: Double? {
        guard mantissa < (1 << 53), exponent >= -22, exponent <= 22 else { return nil }
        let m = Double(mantissa)
        let v = exponent >= 0 ? m * Self.exactPowers[exponent] : m / Self.exactPowers[-exponent]
        return isNegative ? -v : v
    }
}
