import Foundation

/// A decimal number of any size kept as its digits, for exact conversions between text,
/// `Decimal`, `Double` and dates (no rounding happens until a final conversion).
///
/// The value is `digits × 10^exponent`, negated when `isNegative`; zero has no digits.
package struct ExactDecimal: Sendable, Equatable {
    /// Most significant first, no leading or trailing zeros.
    package private(set) var digits: [UInt8]
    /// The power of ten of the last digit.
    package private(set) var exponent: Int
    /// Whether the value is below zero (never true for zero).
    package private(set) var isNegative: Bool

    /// The longest spelled-out number accepted, to keep `1e999999999` from filling memory.
    private static let maximumSpan = 2_000

    /// Parses a JSON-style number: `-`? digits (`.` digits)? (`e`|`E` (`+`|`-`)? digits)?,
    /// also accepting a leading `+` and a missing integer part (`.5`); `nil` for anything else.
    package init?(_ text: some StringProtocol) {
        var chars = Array(text.utf8)[...]
        var negative = false
        if let sign = chars.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            chars = chars.dropFirst()
        }
        var mantissa: [UInt8] = []
        var fractionDigits = 0
        var seenPoint = false
        var sawDigit = false
        while let c = chars.first, c != UInt8(ascii: "e"), c != UInt8(ascii: "E") {
            chars = chars.dropFirst()
            if c == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
                continue
            }
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) else { return nil }
            sawDigit = true
            mantissa.append(c - UInt8(ascii: "0"))
            if seenPoint { fractionDigits += 1 }
        }
        guard sawDigit else { return nil }
        var exponent = 0
        if !chars.isEmpty {
            chars = chars.dropFirst()
            guard let e = Int(String(decoding: chars, as: UTF8.self)), abs(e) <= Self.maximumSpan
            else { return nil }
            exponent = e
        }
        self.init(negative: negative, digits: mantissa, exponent: exponent - fractionDigits)
        guard abs(self.exponent) + self.digits.count <= 2 * Self.maximumSpan else { return nil }
    }

    /// The exact value of an integer.
    package init(_ value: Int64) {
        self.init(
            negative: value < 0,
            digits: String(value.magnitude).utf8.map { $0 - UInt8(ascii: "0") }, exponent: 0)
    }

    private init(negative: Bool, digits: [UInt8], exponent: Int) {
        var d = digits[...]
        while d.first == 0 { d = d.dropFirst() }
        var e = exponent
        while d.last == 0 {
            d = d.dropLast()
            e += 1
        }
        self.digits = Array(d)
        self.exponent = d.isEmpty ? 0 : e
        self.isNegative = d.isEmpty ? false : negative
    }

    /// The number spelled out without an exponent (`"0.01"`, `"-978307200.5"`, `"0"`).
    package var plainText: String {
        guard !digits.isEmpty else { return "0" }
        let text = String(decoding: digits.map { $0 + UInt8(ascii: "0") }, as: UTF8.self)
        let body: String
        if exponent >= 0 {
            body = text + String(repeating: "0", count: exponent)
        } else if digits.count + exponent > 0 {
            let split = text.index(text.startIndex, offsetBy: digits.count + exponent)
            body = text[..<split] + "." + text[split...]
        } else {
            body = "0." + String(repeating: "0", count: -(digits.count + exponent)) + text
        }
        return (isNegative ? "-" : "") + body
    }

    /// The exact sum.
    package static func + (a: ExactDecimal, b: ExactDecimal) -> ExactDecimal {
        let e = min(a.exponent, b.exponent)
        let x = a.digits + [UInt8](repeating: 0, count: a.digits.isEmpty ? 0 : a.exponent - e)
        let y = b.digits + [UInt8](repeating: 0, count: b.digits.isEmpty ? 0 : b.exponent - e)
        if a.isNegative == b.isNegative {
            return ExactDecimal(negative: a.isNegative, digits: add(x, y), exponent: e)
        }
        if compare(x, y) >= 0 {
            return ExactDecimal(negative: a.isNegative, digits: subtract(x, y), exponent: e)
        }
        return ExactDecimal(negative: b.isNegative, digits: subtract(y, x), exponent: e)
    }

    /// The value negated.
    package static prefix func - (a: ExactDecimal) -> ExactDecimal {
        ExactDecimal(negative: !a.isNegative, digits: a.digits, exponent: a.exponent)
    }

    private static func add(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var carry: UInt8 = 0
        var i = x.count - 1
        var j = y.count - 1
        while i >= 0 || j >= 0 || carry > 0 {
            let sum = (i >= 0 ? x[i] : 0) + (j >= 0 ? y[j] : 0) + carry
            result.append(sum % 10)
            carry = sum / 10
            i -= 1
            j -= 1
        }
        return result.reversed()
    }

    /// `x - y` for `x >= y`.
    private static func subtract(_ x: [UInt8], _ y: [UInt8]) -> [UInt8] {
        var result: [UInt8] = []
        var borrow: Int = 0
        var j = y.count - 1
        for i in stride(from: x.count - 1, through: 0, by: -1) {
            var difference = Int(x[i]) - borrow - (j >= 0 ? Int(y[j]) : 0)
            borrow = difference < 0 ? 1 : 0
            if difference < 0 { difference += 10 }
            result.append(UInt8(difference))
            j -= 1
        }
        return result.reversed()
    }

    private static func compare(_ x: [UInt8], _ y: [UInt8]) -> Int {
        let x = x.drop { $0 == 0 }
        let y = y.drop { $0 == 0 }
        if x.count != y.count { return x.count < y.count ? -1 : 1 }
        for (a, b) in zip(x, y) where a != b { return a < b ? -1 : 1 }
        return 0
    }
}

extension ExactDecimal {
    /// The `Decimal` with exactly this value, or `nil` when `Decimal` cannot hold it (more than
    /// 38 significant digits, or an exponent outside -128...127).
    package var decimal: Decimal? {
        guard let d = Decimal(posixText: plainText),
            ExactDecimal(d.description) == self
        else { return nil }
        return d
    }

    /// Seconds since 1970 in `Date`'s own reference frame: dates keep their exact
    /// `timeIntervalSinceReferenceDate`, written as that number plus 978307200 in full.
    private static let referenceDateOffset = ExactDecimal(978_307_200)

    /// The exact seconds since 1970 of a date whose interval is finite.
    package init?(secondsSince1970Of date: Date) {
        let interval = date.timeIntervalSinceReferenceDate
        guard interval.isFinite, let shortest = ExactDecimal("\(interval)") else { return nil }
        self = shortest + Self.referenceDateOffset
    }

    /// The date these seconds since 1970 name, rounded once to the nearest representable
    /// `Date`; `nil` when outside `Date`'s range.
    package var dateFromSecondsSince1970: Date? {
        guard let interval = Double((self + -Self.referenceDateOffset).plainText), interval.isFinite
        else { return nil }
        return Date(timeIntervalSinceReferenceDate: interval)
    }
}
