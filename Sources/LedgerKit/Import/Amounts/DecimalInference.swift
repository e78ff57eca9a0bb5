import Foundation

/// Infers a file's decimal style from one amount cell, when the cell settles it.
///
/// Settles it: both `.` and `,` (the last one is decimal: `1.234,56`); one of them twice
/// or more (it groups: `1,000,000`); one of them once with other than three digits after
/// it, or none, more than three or a lone `0` before it (`15,00`, `12.5`, `0,500`).
/// Leaves it open: no separator, or one followed by exactly three digits (`1,000`).
enum DecimalInference {
    /// The style `cell` implies, or `nil` if it is ambiguous.
    static func evidence(_ p: UnsafeBufferPointer<UInt8>) -> DecimalStyle? {
        let point = UInt8(ascii: ".")
        let comma = UInt8(ascii: ",")
        var points = 0
        var commas = 0
        var last: UInt8 = 0
        var lastIndex = -1
        for (i, b) in p.enumerated() where b == point || b == comma {
            if b == point { points += 1 } else { commas += 1 }
            last = b
            lastIndex = i
        }
        if points > 0, commas > 0 { return last == point ? .point : .comma }
        if points > 1 { return .comma }
        if commas > 1 { return .point }
        guard lastIndex >= 0 else { return nil }
        var before = 0
        var after = 0
        while lastIndex - before - 1 >= 0, AmountSyntax.isDigit(p[lastIndex - before - 1]) {
            before += 1
        }
        while lastIndex + after + 1 < p.count, AmountSyntax.isDigit(p[lastIndex + after + 1]) {
            after += 1
        }
        let loneZero = before == 1 && p[lastIndex - 1] == 0x30
        let separatorIsDecimal = after != 3 || before == 0 || before > 3 || loneZero
        guard separatorIsDecimal else { return nil }
        return last == point ? .point : .comma
    }
}
