import Foundation

/// Money formatting: two decimals, `.` separator, exact (Decimal rounding, bankers' never).
public enum Money {
    /// `12.5` → `"12.50"`, `-149.57` → `"-149.57"`.
    public static func format(_ value: Decimal) -> String {
        var v = value
        var rounded = Decimal()
        NSDecimalRound(&rounded, &v, 2, .plain)
        let negative = rounded < 0
        let magnitude = negative ? -rounded : rounded
        let text = NSDecimalNumber(decimal: magnitude).stringValue
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first.map(String.init) ?? "0"
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.count < 2 { fraction += "0" }
        return (negative ? "-" : "") + whole + "." + fraction.prefix(2)
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
