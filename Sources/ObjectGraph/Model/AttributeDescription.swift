import Foundation

/// An attribute of an entity: its type, optionality, default and validation limits.
///
/// ```swift
/// AttributeDescription(name: "amount", type: .decimal, isOptional: false, minValue: 0.01)
/// AttributeDescription(name: "colorHex", type: .string, isOptional: false,
///                      defaultValue: "#FFFFFF", pattern: "^#[0-9A-Fa-f]{6}$")
/// ```
///
/// Limits are checked at save and by `validateValue(_:forKey:)`: `minValue`/`maxValue` for
/// numbers and dates (inclusive), `minLength`/`maxLength` for strings (in characters),
/// `pattern` a regular expression the whole string must match, and any
/// ``validationPredicates`` with their ``validationWarnings``. Literal limits and defaults
/// are converted to ``type`` when the model is built; one that cannot be converted makes
/// building the model throw.
///
/// - Note: Mirrors `NSAttributeDescription` (and `NSDerivedAttributeDescription` through
///   ``derivationExpression``).
public final class AttributeDescription: PropertyDescription, @unchecked Sendable {
    /// The attribute's storable type.
    public let type: AttributeType
    /// The value a newly inserted object starts with (default `.null`).
    @exclusivity(unchecked) public internal(set) var defaultValue: AttributeValue
    /// The smallest allowed number or earliest allowed date, inclusive.
    @exclusivity(unchecked) public internal(set) var minValue: AttributeValue?
    /// The largest allowed number or latest allowed date, inclusive.
    @exclusivity(unchecked) public internal(set) var maxValue: AttributeValue?
    /// The fewest characters a string may have.
    public let minLength: Int?
    /// The most characters a string may have.
    public let maxLength: Int?
    /// A regular expression (ICU syntax) that a string value must match in full.
    public let pattern: String?
    /// Predicates every value that is not nil must satisfy, `SELF` being the value
    /// (`"length >= 2"`, `"SELF > 0"`); see ``validationWarnings``.
    ///
    /// A value failing one fails validation with 1550 (`NSManagedObjectValidationError`), the
    /// predicate under `NSValidationPredicateErrorKey` and the predicate's warning as the
    /// error's `localizedDescription`. Besides `SELF`, a predicate may use the keys
    /// key-value coding gives Foundation's values: `length` (a string's UTF-16 length, as
    /// `NSString.length`, or a byte count), `intValue`, `integerValue`, `longLongValue`,
    /// `doubleValue`, `floatValue`, `boolValue`, `timeIntervalSinceReferenceDate`,
    /// `timeIntervalSince1970`; building the model refuses any other key path.
    ///
    /// - Note: Mirrors `NSPropertyDescription.validationPredicates` (for attributes).
    @exclusivity(unchecked) public private(set) var validationPredicates: [FetchPredicate]
    /// The message of each of ``validationPredicates``, in the same order.
    ///
    /// - Note: Mirrors `NSPropertyDescription.validationWarnings`.
    @exclusivity(unchecked) public private(set) var validationWarnings: [String]
    /// The predicates rewritten for values; set when the model is built.
    @exclusivity(unchecked) var testablePredicates: [ValidationPredicate] = []
    /// Xcode's value transformer name for transformable attributes, kept for reference.
    public let valueTransformerName: String?
    /// The class name Xcode records for transformable values, kept for reference.
    public let attributeValueClassName: String?
    /// Whether large binary values may live outside the row (a hint; default `false`).
    public let allowsExternalBinaryDataStorage: Bool
    /// For a derived attribute, the expression it is computed from at save (default `nil`).
    public let derivationExpression: String?
    /// Whether the attribute is indexed in the store (a hint; default `false`).
    public let isIndexed: Bool
    /// Whether persistent history keeps this value when the object is deleted (a tombstone
    /// value; default `false`).
    public let preservesValueInHistoryOnDeletion: Bool

    /// Creates an attribute.
    ///
    /// - Parameters:
    ///   - name: The key, unique in the entity.
    ///   - type: The storable type.
    ///   - isOptional: Whether `nil` is allowed at save; Core Data's default, `true`.
    ///   - isTransient: Whether the value is kept in memory only; default `false`.
    ///   - defaultValue: The initial value of inserted objects; default `.null`.
    ///   - minValue: The inclusive lower limit for numbers and dates.
    ///   - maxValue: The inclusive upper limit for numbers and dates.
    ///   - minLength: The fewest characters a string may have.
    ///   - maxLength: The most characters a string may have.
    ///   - pattern: A regular expression a string must match in full.
    ///   - validationPredicates: Predicates every value that is not nil must satisfy.
    ///   - validationWarnings: The message of each validation predicate, in order (one each).
    ///   - valueTransformerName: For transformable attributes, the transformer's name (kept).
    ///   - attributeValueClassName: For transformable attributes, the value's class name.
    ///   - allowsExternalBinaryDataStorage: Core Data's external storage hint (kept).
    ///   - derivationExpression: For a derived attribute, the expression computed at save.
    ///   - isIndexed: Whether the store indexes the attribute (a hint).
    ///   - userInfo: Extra information kept with the model; default empty.
    ///   - versionHashModifier: A string mixed into the version hash; default `nil`.
    ///   - renamingIdentifier: The name in an earlier model version, for migration.
    ///   - preservesValueInHistoryOnDeletion: Keep the value in history tombstones.
    public init(
        name: String, type: AttributeType, isOptional: Bool = true, isTransient: Bool = false,
        defaultValue: AttributeValue = .null, minValue: AttributeValue? = nil,
        maxValue: AttributeValue? = nil, minLength: Int? = nil, maxLength: Int? = nil,
        pattern: String? = nil, validationPredicates: [FetchPredicate] = [],
        validationWarnings: [String] = [], valueTransformerName: String? = nil,
        attributeValueClassName: String? = nil, allowsExternalBinaryDataStorage: Bool = false,
        derivationExpression: String? = nil, isIndexed: Bool = false,
        userInfo: [String: String] = [:], versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil, preservesValueInHistoryOnDeletion: Bool = false
    ) {
        self.type = type
        self.defaultValue = defaultValue
        self.minValue = minValue
        self.maxValue = maxValue
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.validationPredicates = validationPredicates
        self.validationWarnings = validationWarnings
        self.valueTransformerName = valueTransformerName
        self.attributeValueClassName = attributeValueClassName
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.derivationExpression = derivationExpression
        self.isIndexed = isIndexed
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        super.init(
            name: name, isOptional: isOptional, isTransient: isTransient,
            userInfo: userInfo, versionHashModifier: versionHashModifier,
            renamingIdentifier: renamingIdentifier)
    }

    /// Whether the attribute is computed at save from ``derivationExpression``.
    public var isDerived: Bool { derivationExpression != nil }

    /// Sets ``validationPredicates`` and their ``validationWarnings``, before the model is
    /// built (building checks that the counts match and that each predicate applies to a
    /// value).
    ///
    /// ```swift
    /// name.setValidationPredicates([try FetchPredicate(format: "length >= 2")],
    ///                              withValidationWarnings: ["Name is too short."])
    /// ```
    ///
    /// - Precondition: The attribute's model is not built yet (models are immutable).
    /// - Note: Mirrors `setValidationPredicates(_:withValidationWarnings:)`.
    public func setValidationPredicates(
        _ predicates: [FetchPredicate]?, withValidationWarnings warnings: [String]?
    ) {
        precondition(
            entity == nil,
            "AttributeDescription \(self): cannot change validation predicates once its model is built"
        )
        validationPredicates = predicates ?? []
        validationWarnings = warnings ?? []
    }
}
