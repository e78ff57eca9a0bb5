import Foundation
import ObjectGraph

/// Calendar dates in UTC, so a report never shifts a day.
public enum LedgerDates {
    /// A Gregorian calendar in UTC.
    public static let calendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    /// `YYYY-MM-DD` of `date` in UTC.
    ///
    /// - Complexity: O(1), integer arithmetic only (no calendar object), so listing and
    ///   grouping 100,000 transactions stays cheap.
    public static func day(_ date: Date) -> String {
        let (y, m, d) = civil(date)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2)
    }

    /// `YYYY-MM` of `date` in UTC.
    public static func month(_ date: Date) -> String {
        let (y, m, _) = civil(date)
        return pad(y, 4) + "-" + pad(m, 2)
    }

    /// The proleptic Gregorian year, month and day of `date` in UTC.
    static func civil(_ date: Date) -> (year: Int, month: Int, day: Int) {
        CivilCalendar.civil(days: Int((date.timeIntervalSince1970 / 86_400).rounded(.down)))
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let digits = String(n)
        return digits.count >= width
            ? digits : String(repeating: "0", count: width - digits.count) + digits
    }

    /// The UTC midnight of a `YYYY-MM-DD` string, or `nil` when it is not a real date.
    public static func parse(_ text: String) -> Date? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        else { return nil }
        let components = DateComponents(year: y, month: m, day: d)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components)
        else { return nil }
        return date
    }
}
