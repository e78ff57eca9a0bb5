import Foundation

extension AttributeValue {
    /// This value converted to `type`, or `nil` when it cannot be converted exactly.
    ///
    /// Used for model literals and loosely typed input (fixtures, CLI arguments):
    /// integers widen to any numeric type (range-checked for narrower integers); a double
    /// becomes a decimal through its shortest spelling (`0.01` stays exactly `0.01`) or an
    /// integer when it is whole; strings parse as UUIDs, URLs, decimals and numbers; a
    /// number becomes a date as seconds since 1970. `.null` converts to anything.
    ///
    /// - Complexity: O(1) except for string parsing, O(length).
    public func coerced(to type: AttributeType) -> AttributeValue? {
        if fits(type) { return self }
        switch (self, type) {
        case (.integer(let v), .decimal): return .decimal(Decimal(v))
        case (.integer(let v), .double): return .double(Double(v))
        case (.integer(let v), .float): return .float(Float(v))
        case (.integer(let v), .boolean) where v == 0 || v == 1: return .boolean(v == 1)
        case (.integer(let v), .date): return .date(Date(timeIntervalSince1970: Double(v)))
        case (.double(let v), .decimal):
            return v.isFinite
                ? Decimal(posixText: "\(v)").map { .decimal($0) } : nil
        case (.double(let v), .float): return .float(Float(v))
        case (.double(let v), .date): return .date(Date(timeIntervalSince1970: v))
        case (.double(let v), _) where type.isInteger:
            guard v.isFinite, v == v.rounded(), let i = Int64(exactly: v) else { return nil }
            return AttributeValue.integer(i).coerced(to: type)
        case (.float(let v), .double): return .double(Double(v))
        // The nearest double (`NSDecimalNumber.doubleValue` gives 0.06999999999999999 for 0.07
        // in swift-corelibs-foundation).
        case (.decimal(let v), .double): return .double(PredicateNumber.double(v))
        case (.decimal(let v), _) where type.isInteger:
            guard let i = Int64(exactly: NSDecimalNumber(decimal: v).doubleValue),
                Decimal(i) == v
            else { return nil }
            return AttributeValue.integer(i).coerced(to: type)
        case (.string(let s), .uuid): return UUID(uuidString: s).map { .uuid($0) }
        case (.string(let s), .uri): return URL(string: s).map { .uri($0) }
        case (.string(let s), .decimal):
            return Decimal(posixText: s).map { .decimal($0) }
        case (.string(let s), .double): return Double(s).map { .double($0) }
        case (.string(let s), .float): return Float(s).map { .float($0) }
        case (.string(let s), _) where type.isInteger:
            return Int64(s).flatMap { AttributeValue.integer($0).coerced(to: type) }
        case (.string(let s), .boolean):
            switch s.lowercased() {
            case "true", "yes", "1": return .boolean(true)
            case "false", "no", "0": return .boolean(false)
            default: return nil
            }
        case (.string(let s), .binaryData): return .data(Data(s.utf8))
        case (.data(let d), .transformable): return .transformable(d)
        case (.boolean(let b), _) where type.isInteger: return .integer(b ? 1 : 0)
        default: return nil
        }
    }
}
