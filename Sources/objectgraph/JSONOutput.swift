/// A JSON value for `--json` output, written deterministically (members in the order given).
///
/// ```swift
/// JSONOutput.object([("file", .string(path)), ("rows", .int(12))]).serialized()
/// // {"file":"…","rows":12}
/// ```
indirect enum JSONOutput: Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A finite number (non-finite ones are written as `null`).
    case double(Double)
    /// A string.
    case string(String)
    /// JSON text already encoded (e.g. a canonical attribute value), inserted verbatim.
    case raw(String)
    /// An array.
    case array([JSONOutput])
    /// An object; members keep their order.
    case object([(String, JSONOutput)])

    /// The value as JSON text: compact on one line, or indented by two spaces.
    func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        let newline = pretty ? "\n" + String(repeating: "  ", count: indent + 1) : ""
        let close = pretty ? "\n" + String(repeating: "  ", count: indent) : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += d.isFinite ? d.description : "null"
        case .string(let s): out += Self.quoted(s)
        case .raw(let text): out += text
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "["
            for (i, item) in items.enumerated() {
                out += (i > 0 ? "," : "") + newline
                item.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            out += close + "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            for (i, (key, value)) in members.enumerated() {
                out += (i > 0 ? "," : "") + newline + Self.quoted(key) + (pretty ? ": " : ":")
                value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            out += close + "}"
        }
    }

    /// A JSON string literal: quotes, backslashes, control characters and U+2028/U+2029 escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{2028}": out += "\\u2028"
            case "\u{2029}": out += "\\u2029"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
