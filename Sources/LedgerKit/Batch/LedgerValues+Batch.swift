import Foundation

extension LedgerValues {
    /// Reads a factor such as `1.2` or `0.95`: digits with at most 10 decimals, above 0.
    ///
    /// - Parameter key: how messages name the value (`"--multiply"`).
    /// - Throws: ``LedgerError`` `.badValue` naming the text and the rule.
    public static func factor(_ text: String, key: String) throws -> Decimal {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let digits = { (s: Substring) in !s.isEmpty && s.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard parts.count <= 2, digits(parts[0]), parts[0].count <= 9,
            parts.count == 1 || (digits(parts[1]) && parts[1].count <= 10),
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
            value > 0
        else {
            throw LedgerErrors.badValue(
                key, text, expected: "a factor above 0 like 1.2 (digits, at most 10 decimals)")
        }
        return value
    }

    /// Reads an amount with an optional sign, such as `5`, `+5.00` or `-12.50`: not zero, at
    /// most two decimals.
    ///
    /// - Parameter key: how messages name the value (`"--add"`).
    /// - Throws: ``LedgerError`` `.badValue` naming the text and the rule.
    public static func signedAmount(_ text: String, key: String) throws -> Decimal {
        let negative = text.hasPrefix("-")
        let magnitude = negative || text.hasPrefix("+") ? String(text.dropFirst()) : text
        let value: Decimal
        do { value = try amount(magnitude, key: key) } catch {
            throw LedgerErrors.badValue(
                key, text, expected: "an amount like 5.00 or -5.00 (at most 2 decimals)")
        }
        guard value != 0 else {
            throw LedgerErrors.badValue(key, text, expected: "an amount other than 0")
        }
        return negative ? -value : value
    }
}
