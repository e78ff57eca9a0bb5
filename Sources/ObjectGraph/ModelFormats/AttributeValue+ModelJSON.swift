import Foundation

/// How defaults and limits are written in the JSON model format; see <doc:ModelFormat>.
extension AttributeValue {
    /// The value as JSON: integers and finite doubles/floats as numbers (shortest spelling that
    /// reads back to the same bits), decimals as strings with every digit, dates as the exact
    /// seconds since 1970, bytes as base64, UUIDs uppercase, URLs by their absolute string;
    /// `NaN`, `Infinity`, `-Infinity` and `-0` as strings. For `.undefined` attributes the
    /// value is wrapped as `{"type": …, "value": …}`.
    package func modelJSON(for type: AttributeType) -> JSONValue {
        if type == .undefined, !isNull {
            let inner = naturalType ?? .integer64
            return .object(["type": .string(inner.rawValue), "value": modelJSON(for: inner)])
        }
        switch self {
        case .null: return .null
        case .integer(let v): return .number(String(v))
        case .decimal(let v): return .string(v.isNaN ? "NaN" : v.description)
        case .double(let v): return Self.floatingJSON(v, isZero: v == 0, sign: v.sign)
        case .float(let v): return Self.floatingJSON(v, isZero: v == 0, sign: v.sign)
        case .string(let v): return .string(v)
        case .boolean(let v): return .bool(v)
        case .date(let v):
            if let seconds = ExactDecimal(secondsSince1970Of: v) {
                return .number(seconds.plainText)
            }
            return Self.floatingJSON(v.timeIntervalSinceReferenceDate, isZero: false, sign: .plus)
        case .data(let v), .transformable(let v): return .string(v.base64EncodedString())
        case .uuid(let v): return .string(v.uuidString)
        case .uri(let v): return .string(v.absoluteString)
        }
    }

    private static func floatingJSON<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ v: F, isZero: Bool, sign: FloatingPointSign
    ) -> JSONValue {
        if v.isNaN { return .string("NaN") }
        if v.isInfinite { return .string(sign == .minus ? "-Infinity" : "Infinity") }
        if isZero && sign == .minus { return .string("-0") }
        return .number(v.description)
    }

    /// Reads a value of `type` written by ``modelJSON(for:)`` (also accepting a decimal as a
    /// JSON number and lowercase UUIDs); `nil` means the JSON does not hold such a value.
    package static func fromModelJSON(_ json: JSONValue, type: AttributeType) -> AttributeValue? {
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
        case (.date, .number(let t)):
            return ExactDecimal(t)?.dateFromSecondsSince1970.map { .date($0) }
        case (.date, .string):
            return floating(json, Double.self).map {
                .date(Date(timeIntervalSinceReferenceDate: $0))
            }
        case (.binaryData, .string(let s)): return Data(base64Encoded: s).map { .data($0) }
        case (.transformable, .string(let s)):
            return Data(base64Encoded: s).map { .transformable($0) }
        case (.uuid, .string(let s)): return UUID(uuidString: s).map { .uuid($0) }
        case (.uri, .string(let s)): return URL(string: s).map { .uri($0) }
        case (.undefined, .object(let members)):
            guard members.count == 2, case .string(let name)? = members["type"],
                let inner = AttributeType(rawValue: name), inner != .undefined,
                let wrapped = members["value"], wrapped != .null
            else { return nil }
            return fromModelJSON(wrapped, type: inner)
        default: return nil
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

    /// What ``fromModelJSON(_:type:)`` accepts for `type`, for error messages.
    static func modelJSONExpectation(for type: AttributeType) -> String {
        switch type {
        case .integer16, .integer32, .integer64:
            let r = type.integerRange ?? 0...0
            return "an integer in \(r.lowerBound)...\(r.upperBound)"
        case .decimal:
            return "a decimal number as a string, e.g. \"0.01\" (at most 38 significant digits)"
        case .double, .float:
            return "a number, or one of \"NaN\", \"Infinity\", \"-Infinity\", \"-0\""
        case .string: return "a string"
        case .boolean: return "true or false"
        case .date: return "seconds since 1970 as a number"
        case .binaryData, .transformable: return "base64 bytes as a string"
        case .uuid: return "a UUID string"
        case .uri: return "a URL string"
        case .undefined: return "an object {\"type\": <attribute type>, \"value\": <value>}"
        case .objectID: return "nothing (objectID is only an expression result type)"
        }
    }
}
