import Foundation
import ObjectGraph

/// An exact running sum of decimals that is fast for money.
///
/// Amounts with at most two decimals and fewer than 13 significant digits before scaling
/// (every ledger amount in practice) add as integer cents; any other amount, and the cents
/// whenever they would overflow, add as `Decimal`. The result is exactly the `Decimal` sum;
/// amounts are read from `Decimal`'s storage (ObjectGraph's `DecimalParts`) where its layout is known,
/// so an amount costs a few integer operations.
struct ExactSum {
    private var cents: Int64 = 0
    private var rest = Decimal(0)

    /// Adds `value`.
    mutating func add(_ value: Decimal) {
        if let parts = DecimalParts(value), parts.exponent >= -2, parts.exponent <= 2,
            parts.mantissa < 10_000_000_000_000
        {
            var scaled = Int64(parts.mantissa)
            for _ in 0..<(parts.exponent + 2) { scaled *= 10 }
            let (sum, overflow) = cents.addingReportingOverflow(parts.isNegative ? -scaled : scaled)
            if !overflow {
                cents = sum
                return
            }
            flush()
            rest += value
            return
        }
        let exponent = value.exponent
        if !value.isNaN, exponent >= -2, exponent <= 2 {
            let significand = NSDecimalNumber(decimal: value.significand)
            if significand.doubleValue < 1e13 {
                var scaled = significand.int64Value
                for _ in 0..<(exponent + 2) { scaled *= 10 }
                let (sum, overflow) = cents.addingReportingOverflow(
                    value.sign == .minus ? -scaled : scaled)
                if !overflow {
                    cents = sum
                    return
                }
                flush()
            }
        }
        rest += value
    }

    /// The sum so far.
    var value: Decimal { rest + Decimal(cents) / 100 }

    private mutating func flush() {
        rest += Decimal(cents) / 100
        cents = 0
    }
}
