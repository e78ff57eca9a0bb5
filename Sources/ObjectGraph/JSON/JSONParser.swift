import Foundation

/// A strict JSON parser (RFC 8259) that reports errors by line and column and keeps numbers
/// as text. Duplicate object keys, unescaped control characters, invalid UTF-8 and nesting
/// deeper than ``maximumDepth`` are errors; a leading UTF-8 byte-order mark is skipped.
package struct JSONParser {
    /// How deeply arrays and objects may nest.
    package static let maximumDepth = 256

    private let bytes: [UInt8]
    private let file: String?
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private var depth = 0

    /// Parses `data` as one JSON value.
    ///
    /// - Parameter file: The file name errors should name, if any.
    /// - Throws: ``ObjectGraphError`` 134060 naming line, column and what was expected.
    package static func parse(_ data: Data, file: String? = nil) throws -> JSONValue {
        var parser = JSONParser(bytes: Array(data), file: file)
        if parser.bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            parser.position = 3
            parser.lineStart = 3
        }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.position == parser.bytes.count else {
            throw parser.error("the end of the document")
        }
        return value
    }

    private init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func parseValue() throws -> JSONValue {
        guard let c = current else {
            throw error("a JSON value (object, array, string, number, true, false or null)")
        }
        switch c {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return .number(try parseNumber())
        default: throw error("a JSON value (object, array, string, number, true, false or null)")
        }
    }

    private mutating func parseObject() throws -> JSONValue {
        try enter()
        position += 1
        var members = JSONObject()
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("a string key in double quotes")
            }
            let (keyLine, keyStart, keyLineStart) = (line, position, lineStart)
            let key = try parseString()
            guard members[key] == nil else {
                throw JSONErrors.syntax(
                    file: file, line: keyLine,
                    column: column(of: keyStart, lineStart: keyLineStart),
                    expected: "a key not already in this object (\(JSONValue.quoted(key)) repeats)")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw error("':' after an object key") }
            position += 1
            skipWhitespace()
            members[key] = try parseValue()
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard current == UInt8(ascii: "}") else { throw error("',' or '}' in an object") }
            position += 1
            depth -= 1
            return .object(members)
        }
    }

    private mutating func parseArray() throws -> JSONValue {
        try enter()
        position += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return .array(items)
        }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard current == UInt8(ascii: "]") else { throw error("',' or ']' in an array") }
            position += 1
            depth -= 1
            return .array(items)
        }
    }

    private mutating func enter() throws {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw error("at most \(Self.maximumDepth) nested arrays and objects")
        }
    }

    private mutating func parseString() throws -> String {
        position += 1
        var utf8: [UInt8] = []
        while true {
            guard let byte = current else { throw error("a closing '\"'") }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                guard let s = String(validating: utf8, as: UTF8.self) else {
                    throw error("valid UTF-8 in a string")
                }
                return s
            case UInt8(ascii: "\\"):
                position += 1
                try parseEscape(into: &utf8)
            case 0..<0x20:
                throw error("an escape (\\n, \\t, \\u00XX) instead of a raw control character")
            default:
                utf8.append(byte)
                position += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws {
        let simple: [UInt8: UInt8] = [
            UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F,
            UInt8(ascii: "b"): 0x08,
            UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D,
            UInt8(ascii: "t"): 0x09,
        ]
        guard let c = current else { throw error("an escape character after '\\'") }
        if let byte = simple[c] {
            utf8.append(byte)
            position += 1
            return
        }
        guard c == UInt8(ascii: "u") else {
            throw error("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
        position += 1
        var scalar = try parseHex4()
        if (0xD800..<0xDC00).contains(scalar) {
            guard current == UInt8(ascii: "\\"), position + 1 < bytes.count,
                bytes[position + 1] == UInt8(ascii: "u")
            else {
                throw error("a low surrogate \\uDC00-\\uDFFF after a high surrogate")
            }
            position += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else {
                throw error("a low surrogate \\uDC00-\\uDFFF")
            }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if (0xDC00..<0xE000).contains(scalar) {
            throw error("a high surrogate before a low surrogate")
        }
        guard let unicode = Unicode.Scalar(scalar) else { throw error("a valid Unicode scalar") }
        utf8.append(contentsOf: Array(String(Character(unicode)).utf8))
    }

    private mutating func parseHex4() throws -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let c = current, let digit = hexDigit(c) else {
                throw error("four hexadecimal digits after \\u")
            }
            value = value << 4 | digit
            position += 1
        }
        return value
    }

    private func hexDigit(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private mutating func parseNumber() throws -> String {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
        } else {
            guard digits() > 0 else { throw error("a digit") }
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw error("a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw error("a digit in the exponent") }
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    private mutating func digits() -> Int {
        let start = position
        while let c = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c) { position += 1 }
        return position - start
    }

    private mutating func expectWord(_ word: String) throws {
        let start = position
        for expected in word.utf8 {
            guard current == expected else {
                position = start
                throw error("'\(word)'")
            }
            position += 1
        }
    }

    private mutating func skipWhitespace() {
        while let c = current {
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): position += 1
            case UInt8(ascii: "\n"):
                position += 1
                line += 1
                lineStart = position
            default: return
            }
        }
    }

    /// The 1-based column of `offset` on the line starting at `lineStart`, counting Unicode
    /// scalars (computed only for errors: it is linear in the line's length).
    private func column(of offset: Int, lineStart: Int) -> Int {
        1 + bytes[lineStart..<min(offset, bytes.count)].filter { $0 & 0xC0 != 0x80 }.count
    }

    private func error(_ expected: String) -> ObjectGraphError {
        let found =
            current.map { c in
                c >= 0x20 && c < 0x7F
                    ? "'\(Character(Unicode.Scalar(c)))'" : "byte 0x\(String(c, radix: 16))"
            } ?? "the end of the data"
        return JSONErrors.syntax(
            file: file, line: line, column: column(of: position, lineStart: lineStart),
            expected: "\(expected), found \(found)")
    }
}
