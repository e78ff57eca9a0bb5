import Foundation

/// A rule ready to test transactions: its regular expression compiled once.
struct RuleMatcher {
    let record: RuleRecord
    private let regex: NSRegularExpression?

    /// Compiles `record`'s pattern.
    ///
    /// - Throws: ``LedgerError`` `.badValue` naming the pattern when it is not a regular
    ///   expression (with ``RuleRecord/isRegex``).
    init(_ record: RuleRecord) throws {
        self.record = record
        regex = record.isRegex ? try Self.compile(record.pattern) : nil
    }

    /// `pattern` as a case-insensitive regular expression.
    ///
    /// - Throws: ``LedgerError`` `.badValue` naming the pattern.
    static func compile(_ pattern: String) throws -> NSRegularExpression {
        do {
            return try NSRegularExpression(pattern: pattern, options: [.caseInsensitive])
        } catch {
            throw LedgerErrors.badValue(
                "PATTERN", pattern,
                expected: "a regular expression (ICU syntax), or leave out --regex to match "
                    + "the text as written")
        }
    }

    /// Whether the rule matches a transaction with this payee and note.
    func matches(payee: String?, note: String?) -> Bool {
        switch record.field {
        case .payee: matches(payee)
        case .note: matches(note)
        case .any: matches(payee) || matches(note)
        }
    }

    private func matches(_ text: String?) -> Bool {
        guard let text, !text.isEmpty else { return false }
        if let regex {
            return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        }
        return text.range(of: record.pattern, options: [.caseInsensitive]) != nil
    }
}
