import Foundation
import ObjectGraph

/// ISO 8601 dates as fixtures write them, converted exactly (no formatter, no rounding
/// beyond the one conversion to `Date`'s `Double`).
///
/// Accepted: `YYYY-MM-DD` (midnight UTC) and `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, with
/// any number of fraction digits; years may be expanded (`+10000`, `-0044`).
enum FixtureDate {
    /// The date `text` names, or `nil` when it is not in the accepted form or out of range.
    static func parse(_ text: String) -> Date? {
        var scanner = Scanner(Array(text.utf8))
        guard let year = scanner.year(), scanner.take("-"), let month = scanner.digits(2),
            scanner.take("-"),
            let day = scanner.digits(2), (1...12).contains(month),
            (1...CivilCalendar.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = ExactDecimal(
            Int64(CivilCalendar.days(year: year, month: month, day: day)) * 86_400)
        if scanner.atEnd { return seconds.dateFromSecondsSince1970 }
        guard scanner.take("T"), let hour = scanner.digits(2), scanner.take(":"),
            let minute = scanner.digits(2),
            scanner.take(":"), let second = scanner.digits(2), hour < 24, minute < 60, second < 60
        else { return nil }
        var clock = "\(hour * 3600 + minute * 60 + second)"
        if scanner.take(".") {
            guard let fraction = scanner.digitRun(), !fraction.isEmpty else { return nil }
            clock += "." + fraction
        }
        guard let clockSeconds = ExactDecimal(clock) else { return nil }
        seconds = seconds + clockSeconds
        if scanner.take("Z") {
            // UTC
        } else if let sign = scanner.sign(), let h = scanner.digits(2), scanner.take(":"),
            let m = scanner.digits(2),
            h < 24, m < 60
        {
            let offset = ExactDecimal(Int64(h * 3600 + m * 60))
            seconds = seconds + (sign < 0 ? offset : -offset)
        } else {
            return nil
        }
        guard scanner.atEnd else { return nil }
        return seconds.dateFromSecondsSince1970
    }

    /// `date` as UTC ISO 8601 with as many fraction digits as its exact value needs, or `nil`
    /// for a non-finite date.
    static func format(_ date: Date) -> String? {
        guard let exact = ExactDecimal(secondsSince1970Of: date) else { return nil }
        let text = exact.plainText
        let negative = text.hasPrefix("-")
        let body = negative ? String(text.dropFirst()) : text
        let parts = body.split(separator: ".", maxSplits: 1)
        guard let whole = Int64(parts[0]) else { return nil }
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        var total = negative ? -whole : whole
        if negative && !fraction.isEmpty {
            // Floor for instants before 1970: -5.25 is 6 seconds back, then 0.75 forward.
            total -= 1
            guard let part = ExactDecimal("0." + fraction) else { return nil }
            let complement = (ExactDecimal(1) + -part).plainText
            fraction = complement.hasPrefix("0.") ? String(complement.dropFirst(2)) : ""
        }
        let days = floorDivide(total, 86_400)
        let secondOfDay = Int(total - days * 86_400)
        let (year, month, day) = CivilCalendar.civil(days: Int(days))
        let yearText: String
        if (0...9999).contains(year) {
            yearText = pad(year, 4)
        } else {
            yearText = (year < 0 ? "-" : "+") + pad(abs(year), 4)
        }
        var out =
            "\(yearText)-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2))"
        if !fraction.isEmpty { out += "." + fraction }
        return out + "Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(n)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// A cursor over ASCII bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { position == bytes.count }

        mutating func take(_ c: Character) -> Bool {
            guard position < bytes.count, bytes[position] == c.asciiValue else { return false }
            position += 1
            return true
        }

        mutating func sign() -> Int? {
            if take("+") { return 1 }
            if take("-") { return -1 }
            return nil
        }

        mutating func digitRun() -> String? {
            let start = position
            while position < bytes.count, (48...57).contains(bytes[position]) { position += 1 }
            return String(decoding: bytes[start..<position], as: UTF8.self)
        }

        mutating func digits(_ count: Int) -> Int? {
            guard position + count <= bytes.count,
                bytes[position..<position + count].allSatisfy({ (48...57).contains($0) })
            else { return nil }
            defer { position += count }
            return Int(String(decoding: bytes[position..<position + count], as: UTF8.self))
        }

        /// `YYYY`, or an expanded year: a sign and at least four digits (at most nine).
        mutating func year() -> Int? {
            if let s = sign() {
                guard let run = digitRun(), (4...9).contains(run.count), let y = Int(run) else {
                    return nil
                }
                return s * y
            }
            return digits(4)
        }
    }
}
