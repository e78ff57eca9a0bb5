import Foundation
import ObjectGraph

/// Reading the values a person types: amounts, dates, sort keys.
public enum LedgerValues {
    /// The all-zero UUID, for a record copied from an object that lacks its ID.
    static let nilUUID = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    /// Reads an amount such as `12`, `12.5` or `1234.56`: digits with at most two decimals,
    /// no sign, no grouping.
    ///
    /// - Parameter key: how messages name the value (`"amount"`, `"--amount"`).
    /// - Throws: ``LedgerError`` `.badValue` naming the text and the rule.
    public static func amount(_ text: String, key: String = "amount") throws -> Decimal {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasPrefix("-") {
            throw LedgerErrors.badValue(
                key, text,
                expected: "a positive amount (money out is the default; --income for money in)")
        }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        let digits = { (s: Substring) in !s.isEmpty && s.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        guard parts.count <= 2, digits(parts[0]),
            parts.count == 1 || (digits(parts[1]) && parts[1].count <= 2),
            parts[0].count <= 15,
            let value = Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        else {
            throw LedgerErrors.badValue(
                key, text, expected: "an amount like 12.50 (digits, at most 2 decimals)")
        }
        return value
    }

    /// Reads a calendar date `YYYY-MM-DD` as 00:00 UTC of that day.
    ///
    /// - Parameter key: how messages name the value (`"--date"`, `"--from"`).
    /// - Throws: ``LedgerError`` `.badValue` naming the text: a malformed date
    ///   or one that does not exist (`2026-13-01`, `2026-02-30`).
    public static func date(_ text: String, key: String = "date") throws -> Date {
        guard let date = LedgerDates.parse(text) else {
            let shape = text.split(separator: "-", omittingEmptySubsequences: false)
            let wellFormed =
                shape.count == 3 && shape.map(\.count) == [4, 2, 2]
                && text.utf8.allSatisfy { $0 == 45 || ($0 >= 48 && $0 <= 57) }
            throw LedgerErrors.badValue(
                key, text,
                expected: wellFormed ? "a real calendar date (YYYY-MM-DD)" : "a date YYYY-MM-DD")
        }
        return date
    }

    /// The calendar day of `instant` in the local time zone, as 00:00 UTC of that day.
    public static func calendarDay(of instant: Date, in timeZone: TimeZone = .current) -> Date {
        var local = Calendar(identifier: .gregorian)
        local.timeZone = timeZone
        let c = local.dateComponents([.year, .month, .day], from: instant)
        return LedgerDates.calendar.date(
            from: DateComponents(year: c.year, month: c.month, day: c.day))!
    }
}
