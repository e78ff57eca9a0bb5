import Foundation

/// Byte-level recognizers shared by the amount reader and the decimal-style inference:
/// spaces (ASCII and Unicode), signs, apostrophes and currency symbols in UTF-8.
enum AmountSyntax {
    /// Currency symbols recognized before or after the number.
    static let currencySymbols: [[UInt8]] = [
        "$", "€", "£", "¥", "₹", "₽", "₩", "₺", "₪", "₫", "฿", "₱", "₴", "₦",
    ]
    .map { Array($0.utf8) }

    /// The byte length of a space at `i` (space, TAB, no-break, narrow no-break, thin), or 0.
    static func spaceLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        let b = p[i]
        if b == 0x20 || b == 0x09 { return 1 }
        if b == 0xC2, i + 1 < end, p[i + 1] == 0xA0 { return 2 }
        if b == 0xE2, i + 2 < end, p[i + 1] == 0x80, p[i + 2] == 0xAF || p[i + 2] == 0x89 {
            return 3
        }
        return 0
    }

    /// The byte length of an apostrophe at `i` (`'` or `’`), or 0.
    static func apostropheLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        if p[i] == 0x27 { return 1 }
        if p[i] == 0xE2, i + 2 < end, p[i + 1] == 0x80, p[i + 2] == 0x99 { return 3 }
        return 0
    }

    /// The byte length of a minus sign at `i` (`-` or `−`), or 0.
    static func minusLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        if p[i] == UInt8(ascii: "-") { return 1 }
        if p[i] == 0xE2, i + 2 < end, p[i + 1] == 0x88, p[i + 2] == 0x92 { return 3 }
        return 0
    }

    /// The byte length of a currency at `i`: a symbol, three ASCII letters (`EUR`, `chf`),
    /// or one or two letters before `$` (`US$`, `A$`); 0 if none.
    static func currencyLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int {
        for symbol in currencySymbols where i + symbol.count <= end {
            var k = 0
            while k < symbol.count, p[i + k] == symbol[k] { k += 1 }
            if k == symbol.count { return k }
        }
        var letters = 0
        while i + letters < end, isLetter(p[i + letters]) { letters += 1 }
        if letters == 3 { return 3 }
        if (1...2).contains(letters), i + letters < end, p[i + letters] == UInt8(ascii: "$") {
            return letters + 1
        }
        return 0
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

    /// The text of the character at `i` (for "unexpected" messages).
    static func character(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> String {
        var j = i + 1
        while j < end, p[j] & 0xC0 == 0x80 { j += 1 }
        if isLetter(p[i]) { while j < end, isLetter(p[j]) { j += 1 } }
        return String(decoding: UnsafeBufferPointer(rebasing: p[i..<j]), as: UTF8.self)
    }
}
