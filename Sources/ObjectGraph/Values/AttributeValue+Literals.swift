import Foundation

/// Literals make model declarations read naturally (`defaultValue: "#FFFFFF"`, `minValue: 0.01`).
///
/// A float literal becomes `.double`; the model converts it to the attribute's type when it
/// is built (a decimal attribute gets the literal's shortest decimal spelling, so `0.01`
/// stays exactly `0.01`).
extension AttributeValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    /// A `.string` value.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An `.integer` value.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A `.double` value, converted to the attribute's type when a model is built.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A `.boolean` value.
    public init(booleanLiteral value: Bool) { self = .boolean(value) }
    /// `.null`.
    public init(nilLiteral: ()) { self = .null }
}
