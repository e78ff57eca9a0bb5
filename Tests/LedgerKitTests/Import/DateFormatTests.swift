import Foundation
import Testing

@testable import LedgerKit

@Suite struct DateFormatTests {
    private func parse(_ text: String, _ pattern: String?) throws -> String {
        let format =
            try pattern.map { p throws(ImportProblem) in try DateFormat(pattern: p) } ?? .iso8601
        return try Array(text.utf8).withUnsafeBufferPointer { p throws(ImportProblem) in
            try format.parse(p)
        }.iso
    }

    @Test(arguments: [
        ("22.01.2014", "%d.%m.%Y", "2014-01-22"), ("6/12/15", "%m/%d/%y", "2015-06-12"),
        ("12/27/2019", "%m/%d/%Y", "2019-12-27"), ("2011/12/24", "%Y/%m/%d", "2011-12-24"),
        ("20160102", "%Y%m%d", "2016-01-02"), ("1/2/68", "%m/%d/%y", "2068-01-02"),
        ("1/2/69", "%m/%d/%y", "1969-01-02"),
        ("01/01/00", "%m/%d/%y", "2000-01-01"), ("12/31/99", "%m/%d/%y", "1999-12-31"),
        ("3 Mar 2026", "%d %b %Y", "2026-03-03"), ("3 march 2026", "%d %B %Y", "2026-03-03"),
        ("3   SEPT 2026", "%d %b %Y", "2026-09-03"), ("Dec-05-26", "%b-%d-%y", "2026-12-05"),
        ("29.02.2028", "%d.%m.%Y", "2028-02-29"),
        ("2026-03-01 23:59:59", "%Y-%m-%d %H:%M:%S", "2026-03-01"),
        ("100%2026-03-01", "100%%%Y-%m-%d", "2026-03-01"),
        ("  5.3.2026 ", "%d.%m.%Y", "2026-03-05"),
    ])
    func readsStrftimePatterns(_ text: String, _ pattern: String, _ expected: String) throws {
        #expect(try parse(text, pattern) == expected)
    }

    @Test(arguments: [
        ("2026-03-01", "2026-03-01"), ("20260301", "2026-03-01"),
        ("2026-03-01T23:59:59-08:00", "2026-03-01"),
        ("2026-03-01 00:00:01Z", "2026-03-01"), ("2026-03-04T12:30:00.250+05:30", "2026-03-04"),
        ("2026-03-04T12:30+0530", "2026-03-04"), ("2026-03-04T12:30", "2026-03-04"),
        ("2000-02-29", "2000-02-29"),
    ])
    func readsISO8601DatesAsTheCalendarDateWritten(_ text: String, _ expected: String) throws {
        #expect(try parse(text, nil) == expected)
    }

    @Test(
        arguments: [
            ("2026-13-01", nil, ImportProblem.dateOutOfRange("month 13 is not 1–12")),
            ("2026-02-30", nil, .dateOutOfRange("day 30 is not 1–28 in February 2026")),
            ("1900-02-29", nil, .dateOutOfRange("day 29 is not 1–28 in February 1900")),
            ("2026-04-31", nil, .dateOutOfRange("day 31 is not 1–30 in April 2026")),
            ("0000-01-01", nil, .dateOutOfRange("year 0 is not 1–9999")),
            ("2026-3-01", nil, .dateExpected("a 2-digit month", position: 6)),
            ("2026-03-01X", nil, .dateTrailing(position: 11)),
            ("2026-03-01T25:00", nil, .dateOutOfRange("a 2-digit hour 25 is not 0–23")),
            ("", nil, .dateEmpty),
            ("30.02.2026", "%d.%m.%Y", .dateOutOfRange("day 30 is not 1–28 in February 2026")),
            ("1.13.2026", "%d.%m.%Y", .dateOutOfRange("month 13 is not 1–12")),
            ("22/01/2014", "%d.%m.%Y", .dateExpected("\".\"", position: 3)),
            ("22.01.14", "%d.%m.%Y", .dateExpected("a 4-digit year (%Y)", position: 7)),
            ("3 Mär 2026", "%d %b %Y", .dateUnknownMonth(position: 3)),
            ("3 Mar 2026 x", "%d %b %Y", .dateTrailing(position: 11)),
            ("1 Mar2026", "%d %b %Y", .dateExpected("a space", position: 6)),
            ("1.1.2026 24:00", "%d.%m.%Y %H:%M", .dateOutOfRange("an hour (%H) 24 is not 0–23")),
        ] as [(String, String?, ImportProblem)])
    func rejectsInvalidDatesWithTheirReason(
        _ text: String, _ pattern: String?, _ problem: ImportProblem
    ) {
        #expect(throws: problem) { try parse(text, pattern) }
    }

    @Test(arguments: [
        ("%d.%m.%Q", "--date-format \"%d.%m.%Q\": %Q is not one of %Y %y %m %d %b %B %H %M %S %%"),
        ("%d.%m.%Y%", "--date-format \"%d.%m.%Y%\" ends in a lone %"),
        (
            "%d.%m",
            "--date-format \"%d.%m\" needs a year (%Y or %y), a month (%m, %b or %B) and a day (%d)"
        ),
    ])
    func rejectsPatternsItCannotRead(_ pattern: String, _ reason: String) {
        #expect(throws: ImportProblem.dateFormat(reason)) { try DateFormat(pattern: pattern) }
    }

    @Test func datesAreMidnightUTCOnTheirCalendarDay() throws {
        let date = try CivilDate.make(year: 2026, month: 3, day: 1)
        #expect(date.date == Date(timeIntervalSince1970: 1_772_323_200))
        #expect(try CivilDate.make(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(try CivilDate.make(year: 1969, month: 12, day: 31).daysSinceEpoch == -1)
        #expect(try CivilDate.make(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
    }

    @Test func dayNumbersAgreeWithFoundationsGregorianCalendarForEveryDayOfFourHundredYears() throws
    {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = try CivilDate.make(year: 1900, month: 1, day: 1).daysSinceEpoch
        var date = calendar.date(from: DateComponents(year: 1900, month: 1, day: 1))!
        for _ in 0..<(146_097) {
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = try CivilDate.make(year: c.year!, month: c.month!, day: c.day!)
            #expect(civil.daysSinceEpoch == day)
            #expect(civil.date == date)
            if civil.daysSinceEpoch != day { break }
            day += 1
            date = date.addingTimeInterval(86_400)
        }
    }
}
