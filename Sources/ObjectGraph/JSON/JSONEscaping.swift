/// How every JSON writer here escapes a string's characters: one rule for store lines,
/// model files, fixtures and `--json` output.
///
/// `"` and `\` are escaped; the control characters U+0000–U+001F become `\b`, `\f`, `\n`,
/// `\r`, `\t` or `\u00XX` (lowercase hex); U+2028 and U+2029 become `\u2028` and `\u2029`
/// (JSON allows them raw, but JavaScript and some line readers take them for line breaks);
/// everything else, DEL and `/` included, is written as it is. So JSON text never holds a
/// raw control character or line break, and one string is always written the same way.
package enum JSONEscaping {
    /// The escape of each ASCII byte, `nil` for a byte written as it is.
    package static let ascii: [[UInt8]?] = (0..<128).map { byte -> [UInt8]? in
        switch byte {
        case 0x22: Array(#"\""#.utf8)
        case 0x5C: Array(#"\\"#.utf8)
        case 0x08: Array(#"\b"#.utf8)
        case 0x0C: Array(#"\f"#.utf8)
        case 0x0A: Array(#"\n"#.utf8)
        case 0x0D: Array(#"\r"#.utf8)
        case 0x09: Array(#"\t"#.utf8)
        case 0..<0x20: Array(#"\u00"#.utf8) + [hexDigit(byte >> 4), hexDigit(byte & 0xF)]
        default: nil
        }
    }

    /// The escape of U+2028 (line separator).
    package static let lineSeparator = Array(#"\u2028"#.utf8)
    /// The escape of U+2029 (paragraph separator).
    package static let paragraphSeparator = Array(#"\u2029"#.utf8)

    /// `text` as a JSON string literal, quotes included.
    package static func quoted(_ text: String) -> String {
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0xE2 }
        if plain { return "\"" + text + "\"" }
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count + 2)
        out.append(0x22)
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80, let escape = ascii[Int(scalar.value)] {
                out += escape
            } else if scalar == "\u{2028}" {
                out += lineSeparator
            } else if scalar == "\u{2029}" {
                out += paragraphSeparator
            } else {
                out += String(scalar).utf8
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }

    private static func hexDigit(_ nibble: Int) -> UInt8 {
        Array("0123456789abcdef".utf8)[nibble]
    }
}
