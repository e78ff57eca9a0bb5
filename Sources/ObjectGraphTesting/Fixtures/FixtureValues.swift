import Foundation
import ObjectGraph

/// How attribute values are spelled in a fixture (see ObjectGraph's FixturesAndSeeding article).
enum FixtureValues {
    /// The value `json` spells for an attribute of `type`, or `nil` when it is not such a value.
    /// JSON `null` is `.null` for every type. Values are spelled as in the JSON model format,
    /// except dates (ISO 8601 strings, ``FixtureDate``) and undefined attributes (none).
    static func read(_ json: JSONValue, type: AttributeType) -> AttributeValue? {
        switch (type, json) {
        case (_, .null): return .null
        case (.date, .string(let s)): return FixtureDate.parse(s).map { .date($0) }
        case (.date, _), (.undefined, _): return nil
        default: return AttributeValue.fromModelJSON(json, type: type)
        }
    }

    /// The spelling of `value` in a fixture, or `nil` for a date that is not finite.
    static func write(_ value: AttributeValue) -> JSONValue? {
        if case .date(let v) = value { return FixtureDate.format(v).map(JSONValue.string) }
        return value.modelJSON(for: value.naturalType ?? .string)
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
}
