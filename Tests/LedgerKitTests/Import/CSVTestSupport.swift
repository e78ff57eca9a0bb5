import Foundation

@testable import LedgerKit

/// Small helpers shared by the import tests.
enum CSVTestSupport {
    /// `YYYY-MM-DD` of a date in UTC.
    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        precondition(c.hour == 0 && c.minute == 0 && c.second == 0, "not midnight UTC: \(date)")
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    /// Parses `text` (UTF-8) with `options`.
    static func parse(_ text: String, _ options: ImportOptions) throws -> ImportResult {
        try CSVImporter.parse(data: Data(text.utf8), options: options, sourceName: "test.csv")
    }

    /// Runs `body` over the UTF-8 bytes of `text`.
    static func withBytes<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R)
        rethrows -> R
    {
        try Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// A decimal from its exact text.
    static func dec(_ text: String) -> Decimal { Decimal(string: text)! }
}
