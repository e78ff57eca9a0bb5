import Foundation

/// A parsed JSON document, kept exactly: numbers stay as their source text so that integers
/// and doubles convert without loss, and objects reject duplicate keys.
///
/// ``serialized(pretty:)`` writes canonical JSON: object keys sorted by their UTF-8 bytes,
/// no insignificant whitespace in the compact form, strings escaped minimally (only `"`,
/// `\` and control characters), so the same value always gives the same bytes.
package enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON source text (e.g. `"-12"`, `"0.01"`, `"1e-05"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are unique.
    case object([String: JSONValue])

    /// A short name of the value's kind for error messages ("a string", "an object", …).
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool(let b): b ? "true" : "false"
        case .number(let n): "the number \(EchoedText.capped(n))"
        case .string(let s): "the string \(JSONValue.quoted(EchoedText.capped(s)))"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The canonical text: compact on one line, or indented by two spaces when `pretty`.
    package func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// `s` as a JSON string literal, quotes included.
    package static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): out += JSONValue.quoted(s)
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (i, member) in sorted.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                out += JSONValue.quoted(member.key) + (pretty ? ": " : ":")
                member.value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "}"
        }
    }

    private func newline(_ out: inout String, _ indent: Int) {
        out += "\n" + String(repeating: "  ", count: indent)
    }
}
