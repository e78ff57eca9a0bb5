import Foundation

/// A JSON value: what the model format, fixtures and every `--json` output read and write.
///
/// Numbers stay as their text, so integers and doubles convert without loss; objects keep
/// their members in order (``JSONObject``) and reject duplicate keys when parsed.
/// ``serialized(pretty:sortingKeys:)`` writes members in that order (or sorted by key), with no insignificant whitespace in
/// the compact form and strings escaped by ``JSONEscaping``, so the same value always gives
/// the same bytes. (The store's lines use a faster writer and reader of their own with the
/// same escaping: `JSONByteWriter`, `JSONScanner`.)
///
/// ```swift
/// JSONValue.object(["file": .string(path), "rows": .integer(12)]).serialized()
/// // {"file":"…","rows":12}
/// ```
package enum JSONValue: Sendable, Equatable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number, as its JSON text (e.g. `"-12"`, `"0.01"`, `"1e-05"`).
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object(JSONObject)

    /// An object of `members`, in the order given.
    package static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members))
    }

    /// An integer.
    package static func integer(_ value: some BinaryInteger) -> JSONValue {
        .number(String(value))
    }

    /// A double in its shortest round-trip spelling; `null` when it is not finite.
    package static func double(_ value: Double) -> JSONValue {
        value.isFinite ? .number(value.description) : .null
    }

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

    /// The JSON text: compact on one line, or indented by two spaces when `pretty`; object
    /// members in their order, or with `sortingKeys` by their keys' UTF-8 bytes (the
    /// canonical form of model files and fixtures).
    package func serialized(pretty: Bool = false, sortingKeys: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, sorted: sortingKeys, indent: 0)
        return out
    }

    /// `s` as a JSON string literal, quotes included (escaped by ``JSONEscaping``).
    package static func quoted(_ s: String) -> String { JSONEscaping.quoted(s) }

    private func write(to out: inout String, pretty: Bool, sorted: Bool, indent: Int) {
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
                item.write(to: &out, pretty: pretty, sorted: sorted, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            out += "{"
            let ordered =
                sorted
                ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                : Array(members)
            for (i, member) in ordered.enumerated() {
                if i > 0 { out += "," }
                if pretty { newline(&out, indent + 1) }
                out += JSONValue.quoted(member.key) + (pretty ? ": " : ":")
                member.value.write(to: &out, pretty: pretty, sorted: sorted, indent: indent + 1)
            }
            if pretty { newline(&out, indent) }
            out += "}"
        }
    }

    private func newline(_ out: inout String, _ indent: Int) {
        out += "\n" + String(repeating: "  ", count: indent)
    }
}

extension JSONValue {
    /// A value from Foundation's JSON object graph (`[String: Any]`, `[Any]`, strings,
    /// numbers, booleans, `NSNull`), objects' keys sorted as `JSONSerialization`'s
    /// `.sortedKeys` sorts them.
    ///
    /// - Throws: `EncodingError.invalidValue` for anything else (a `Date`, a non-finite
    ///   number, a custom type).
    package init(jsonObject: Any) throws {
        switch jsonObject {
        case is NSNull: self = .null
        case let b as Bool: self = .bool(b)
        case let s as String: self = .string(s)
        case let i as Int: self = .integer(i)
        case let i as Int64: self = .integer(i)
        case let u as UInt64: self = .integer(u)
        case let d as Double where d.isFinite: self = .double(d)
        case let items as [Any]: self = .array(try items.map { try JSONValue(jsonObject: $0) })
        case let members as [String: Any]:
            self = .object(JSONObject(try members.mapValues { try JSONValue(jsonObject: $0) }))
        default:
            throw EncodingError.invalidValue(
                jsonObject,
                EncodingError.Context(
                    codingPath: [], debugDescription: "\(type(of: jsonObject)) is not JSON"))
        }
    }
}
