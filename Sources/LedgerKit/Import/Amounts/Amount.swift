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
        var m = mantissa
        var s = scale
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
        var bytes: [UInt8] = []
        appendMagnitude(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``magnitudeText``'s UTF-8 bytes to `out`.
    func appendMagnitude(to out: inout [UInt8]) {
        var digits: (UInt64, Int) = (mantissa, 0)
        let start = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(digits.0 % 10))
            digits.0 /= 10
            digits.1 += 1
            if digits.1 == scale { out.append(UInt8(ascii: ".")) }
        } while digits.0 > 0 || digits.1 <= scale
        out[start...].reverse()
    }
}
