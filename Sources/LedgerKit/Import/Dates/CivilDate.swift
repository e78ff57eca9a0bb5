import Foundation
import ObjectGraph

/// A proleptic Gregorian calendar date, checked, with its day number since 1970-01-01.
///
/// Pure arithmetic (no `Calendar`, no time zone): the same on every platform and fast.
struct CivilDate: Hashable {
    let year: Int
    let month: Int
    let day: Int

    /// A valid date, or the reason it is not one.
    static func make(year: Int, month: Int, day: Int) throws(ImportProblem) -> CivilDate {
        guard (1...9999).contains(year) else { throw .dateOutOfRange("year \(year) is not 1–9999") }
        guard (1...12).contains(month) else { throw .dateOutOfRange("month \(month) is not 1–12") }
        let days = CivilCalendar.daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            throw .dateOutOfRange("day \(day) is not 1–\(days) in \(monthNames[month - 1]) \(year)")
        }
        return CivilDate(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 (negative before).
    var daysSinceEpoch: Int { CivilCalendar.days(year: year, month: month, day: day) }

    /// 00:00 UTC on this date.
    var date: Date { Date(timeIntervalSince1970: Double(daysSinceEpoch) * 86_400) }

    /// `YYYY-MM-DD`, the form import keys hash.
    var iso: String {
        var bytes: [UInt8] = []
        appendISO(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``iso``'s UTF-8 bytes to `out`.
    func appendISO(to out: inout [UInt8]) {
        func digits(_ value: Int, _ count: Int) {
            var divisor = 1
            for _ in 1..<count { divisor *= 10 }
            while divisor > 0 {
                out.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
                divisor /= 10
            }
        }
        digits(year, 4)
        out.append(UInt8(ascii: "-"))
        digits(month, 2)
        out.append(UInt8(ascii: "-"))
        digits(day, 2)
    }

    /// English month names, January first.
    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September",
        "October", "November", "December",
    ]
}
