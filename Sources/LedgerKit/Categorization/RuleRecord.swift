import Foundation

/// Which text of a transaction a categorisation rule looks at.
public enum RuleField: String, Sendable, Hashable, CaseIterable {
    /// The payee.
    case payee
    /// The note.
    case note
    /// The payee or the note (the default).
    case any
}

/// A categorisation rule's values, copied out of its context.
///
/// A rule matches a transaction when its ``pattern`` occurs in the ``field`` looked at,
/// ignoring case: as plain text, or as a regular expression (`NSRegularExpression` syntax)
/// when ``isRegex``. Rules are tried by ascending ``number``; the first match gives its
/// ``category``.
public struct RuleRecord: Sendable, Hashable {
    /// The rule's number: its place among the rules (`rule 3`), stable when others are
    /// deleted.
    public var number: Int
    /// The text or regular expression looked for.
    public var pattern: String
    /// Where it is looked for.
    public var field: RuleField
    /// Whether ``pattern`` is a regular expression.
    public var isRegex: Bool
    /// The name of the category the rule gives.
    public var category: String

    /// Creates a record (tests and previews; the ledger copies its rules into these).
    public init(number: Int, pattern: String, field: RuleField, isRegex: Bool, category: String) {
        self.number = number
        self.pattern = pattern
        self.field = field
        self.isRegex = isRegex
        self.category = category
    }

    /// Copies the values of `rule` (on its context's queue).
    init(_ rule: CategorizationRule) {
        self.init(
            number: Int(rule.order), pattern: rule.pattern ?? "",
            field: RuleField(rawValue: rule.field ?? "any") ?? .any, isRegex: rule.isRegex,
            category: rule.category?.name ?? "")
    }

    /// The object `rule list --json` prints: `{"number", "pattern", "field", "regex",
    /// "category"}`.
    public var jsonObject: [String: Any] {
        [
            "number": number, "pattern": pattern, "field": field.rawValue, "regex": isRegex,
            "category": category,
        ]
    }
}
