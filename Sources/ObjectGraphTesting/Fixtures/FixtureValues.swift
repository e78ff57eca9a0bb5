import Foundation
import ObjectGraph

/// How attribute values are spelled in a fixture (see docs/fixtures-and-seeding.md).
enum FixtureValues {
    /// The value `json` spells for an attribute of `type`, or `nil` when it is not such a value.
    /// JSON `null` is `.null` for every type.
    static func read(_ json: JSONValue, type: AttributeType) -> AttributeValue? {
        switch (type, json) {
        case (_, .null): return .null
        case (.integer16, .number(let t)), (.integer32, .number(let t)),
            (.integer64, .number(let t)):
            guard let i = Int64(t), type.integerRange?.contains(i) == true else { return nil }
            return .integer(i)
        case (.decimal, .string("NaN")): return .decimal(.nan)
        case (.decimal, .string(let t)), (.decimal, .number(let t)):
            return ExactDecimal(t)?.decimal.map { .decimal($0) }
        case (.double, _): return floating(json, Double.self).map { .double($0) }
        case (.float, _): return floating(json, Float.self).map { .float($0) }
        case (.string, .string(let s)): return .string(s)
        case (.boolean, .bool(let b)): return .boolean(b)
        case (.date, .string(let s)): return FixtureDate.parse(s).map { .date($0) }
        case (.binaryData, .string(let s)): return Data(base64Encoded: s).map { .data($0) }
        case (.transformable, .string(let s)):
            return Data(base64Encoded: s).map { .transformable($0) }
        case (.uuid, .string(let s)): return UUID(uuidString: s).map { .uuid($0) }
        case (.uri, .string(let s)): return URL(string: s).map { .uri($0) }
        default: return nil
        }
    }

    /// The spelling of `value` in a fixture, or `nil` for a date that is not finite.
    static func write(_ value: AttributeValue) -> JSONValue? {
        switch value {
        case .null: return .null
        case .integer(let v): return .number(String(v))
        case .decimal(let v): return .string(v.isNaN ? "NaN" : v.description)
        case .double(let v): return floatingJSON(v)
        case .float(let v): return floatingJSON(v)
        case .string(let v): return .string(v)
        case .boolean(let v): return .bool(v)
        case .date(let v): return FixtureDate.format(v).map(JSONValue.string)
        case .data(let v), .transformable(let v): return .string(v.base64EncodedString())
        case .uuid(let v): return .string(v.uuidString)
        case .uri(let v): return .string(v.absoluteString)
        }
    }

    /// What ``read(_:type:)`` accepts for `type`, for error messages.
    static func expectation(for type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64:
            let r = type.integerRange ?? 0...0
            return "an integer in \(r.lowerBound)...\(r.upperBound)"
        case .decimal:
            return
                "a decimal as a string, e.g. \"12.50\" (or a number; at most 38 significant digits)"
        case .double, .float:
            return "a number, or one of \"NaN\", \"Infinity\", \"-Infinity\", \"-0\""
        case .string: return "a string"
        case .boolean: return "true or false"
        case .date:
            return "an ISO 8601 date string, e.g. \"2024-03-01T12:00:00Z\" or \"2024-03-01\""
        case .binaryData, .transformable: return "base64 bytes as a string"
        case .uuid: return "a UUID string"
        case .uri: return "a URL string"
        case .undefined: return "nothing (undefined attributes are transient)"
        case .objectID: return "nothing (objectID is only an expression result type)"
        }
    }

    private static func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ json: JSONValue, _: F.Type
    ) -> F? {
        switch json {
        case .number(let t): return F(t).flatMap { $0.isFinite ? $0 : nil }
        case .string("NaN"): return .nan
        case .string("Infinity"): return .infinity
        case .string("-Infinity"): return -.infinity
        case .string("-0"): return -0.0
        default: return nil
        }
    }

    private static func floatingJSON<F: BinaryFloatingPoint & LosslessStringConvertible>(_ v: F)
        -> JSONValue
    {
        if v.isNaN { return .string("NaN") }
        if v.isInfinite { return .string(v < 0 ? "-Infinity" : "Infinity") }
        if v == 0 && v.sign == .minus { return .string("-0") }
        return .number(v.description)
    }
}
