import Foundation

/// An exact amount read from a cell: a sign and a decimal magnitude `mantissa × 10^-scale`,
/// normalized so that the mantissa has no trailing zero in its fraction.
struct Amount: Hashable {
    /// Whether the cell said money out (`-`, `−`, a trailing `-`, or parentheses).
    var negative: Bool
    /// The digits, without leading zeros or trailing fraction zeros.
    var mantissa: UInt64
    /// How many of ``mantissa``'s digits are fraction digits.
    var scale: Int

    init(negative: Bool, mantissa: UInt64, scale: Int) {
        var m = mantissa, s = scale
        while s > 0, m % 10 == 0 {
            m /= 10
            s -= 1
        }
        self.negative = negative
        self.mantissa = m
        self.scale = m == 0 ? 0 : s
    }

    /// The magnitude as an exact `Decimal` (never through `Double`).
    var magnitude: Decimal {
        Decimal(sign: .plus, exponent: -scale, significand: Decimal(mantissa))
    }

    /// Zero, or a magnitude below 0.01 (a transaction needs at least 0.01).
    var isBelowMinimum: Bool {
        if mantissa == 0 { return true }
        guard scale > 2 else { return false }
        var limit: UInt64 = 1
        for _ in 0..<(scale - 2) {
            let (next, overflow) = limit.multipliedReportingOverflow(by: 10)
            if overflow { return true }
            limit = next
        }
        return mantissa < limit
    }

    /// The magnitude in plain decimal notation, e.g. `18`, `0.23`, `1234.5`.
    var magnitudeText: String {
        let digits = String(mantissa)
        guard scale > 0 else { return digits }
        let padded = String(repeating: "0", count: max(0, scale + 1 - digits.count)) + digits
        let cut = padded.index(padded.endIndex, offsetBy: -scale)
        return "\(padded[..<cut]).\(padded[cut...])"
    }
}
