import Foundation

/// The target types of `CAST(value, "Type")`, by the names Core Data's format uses (plus
/// short Swift spellings).
enum PredicateCast: String, CaseIterable {
    case date = "NSDate"
    case number = "NSNumber"
    case decimal = "NSDecimalNumber"
    case double = "Double"
    case float = "Float"
    case string = "NSString"
    case uuid = "NSUUID"
    case url = "NSURL"
    case data = "NSData"
    case transformable = "Transformable"
    case objectID = "NSManagedObjectID"

    /// The cast called `name` (`"NSDate"` or `"Date"`, …), ignoring case.
    static func named(_ name: String) -> PredicateCast? {
        let lower = name.lowercased()
        return allCases.first { cast in
            let full = cast.rawValue.lowercased()
            return full == lower || (full.hasPrefix("ns") && full.dropFirst(2) == lower)
        }
    }

    /// `value` converted to this type, or `.null` when it cannot be converted.
    ///
    /// Numbers become dates as seconds since 2001-01-01 (Core Data's reference date), and
    /// dates become numbers the same way; strings become dates when written in ISO 8601;
    /// strings become data as base64.
    func convert(_ value: AttributeValue) -> AttributeValue {
        switch (self, value) {
        case (_, .null), (.objectID, _): return .null
        case (.date, .date): return value
        case (.date, .string(let s)): return Self.isoDate(s).map { .date($0) } ?? .null
        case (.date, _):
            return PredicateNumber(value).map {
                .date(Date(timeIntervalSinceReferenceDate: $0.doubleValue))
            } ?? .null
        case (.number, .string(let s)):
            if let i = Int64(s) { return .integer(i) }
            return Double(s).map { .double($0) } ?? .null
        case (.number, .date(let d)): return .double(d.timeIntervalSinceReferenceDate)
        case (.number, .boolean(let b)): return .integer(b ? 1 : 0)
        case (.number, .integer), (.number, .decimal), (.number, .double), (.number, .float):
            return value
        case (.decimal, .string(let s)):
            if s.lowercased() == "nan" { return .decimal(.nan) }
            return PredicateNumber.decimal(fromLiteral: s).map { .decimal($0) } ?? .null
        case (.decimal, _):
            return PredicateNumber(value).flatMap(\.decimalValue).map { .decimal($0) } ?? .null
        case (.double, .string(let s)): return Double(s).map { .double($0) } ?? .null
        case (.double, .date(let d)): return .double(d.timeIntervalSinceReferenceDate)
        case (.double, _): return PredicateNumber(value).map { .double($0.doubleValue) } ?? .null
        case (.float, .string(let s)): return Float(s).map { .float($0) } ?? .null
        case (.float, _):
            return PredicateNumber(value).map { .float(Float($0.doubleValue)) } ?? .null
        case (.string, _): return Self.text(of: value).map { .string($0) } ?? .null
        case (.uuid, .uuid): return value
        case (.uuid, .string(let s)): return UUID(uuidString: s).map { .uuid($0) } ?? .null
        case (.url, .uri): return value
        case (.url, .string(let s)): return URL(string: s).map { .uri($0) } ?? .null
        case (.data, .data): return value
        case (.data, .string(let s)): return Data(base64Encoded: s).map { .data($0) } ?? .null
        case (.data, .transformable(let d)): return .data(d)
        case (.transformable, .transformable): return value
        case (.transformable, .string(let s)):
            return Data(base64Encoded: s).map { .transformable($0) } ?? .null
        case (.transformable, .data(let d)): return .transformable(d)
        default: return .null
        }
    }

    /// The text of a scalar: numbers in their shortest form, dates in ISO 8601.
    static func text(of value: AttributeValue) -> String? {
        switch value {
        case .null: nil
        case .string(let s): s
        case .integer(let v): String(v)
        case .decimal(let v): v.description
        case .double(let v): v.description
        case .float(let v): v.description
        case .boolean(let v): v ? "1" : "0"
        case .date(let d): d.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        case .uuid(let u): u.uuidString
        case .uri(let u): u.absoluteString
        case .data(let d), .transformable(let d): d.base64EncodedString()
        }
    }

    /// Parses `2024-03-10`, `2024-03-10T08:00:00Z` and `2024-03-10T08:00:00.250+01:00`.
    static func isoDate(_ text: String) -> Date? {
        if let d = try? Date(
            text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        {
            return d
        }
        if let d = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return d }
        return try? Date(text, strategy: Date.ISO8601FormatStyle().year().month().day())
    }
}
