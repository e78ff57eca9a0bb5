import Foundation
import Testing

@testable import ObjectGraphTesting

@Suite struct FixtureDateTests {
    @Test(arguments: [
        ("2024-03-01", 1_709_251_200.0),
        ("2024-03-01T00:00:00Z", 1_709_251_200),
        ("2024-03-01T12:30:15Z", 1_709_296_215),
        ("2024-03-01T12:30:15+02:00", 1_709_289_015),
        ("2024-03-01T12:30:15-00:30", 1_709_298_015),
        ("2024-03-01T12:30:15.5Z", 1_709_296_215.5),
        ("1969-12-31T23:59:54.75Z", -5.25),
        ("1970-01-01T00:00:00Z", 0),
        ("2000-02-29", 951_782_400),
        ("0001-01-01T00:00:00Z", -62_135_596_800),
    ])
    func parsesTheAcceptedForms(_ text: String, _ seconds: Double) {
        #expect(FixtureDate.parse(text) == Date(timeIntervalSince1970: seconds))
    }

    @Test(arguments: [
        "", "2024-3-01", "2024-13-01", "2023-02-29", "2024-04-31", "2024-03-01T24:00:00Z",
        "2024-03-01T12:60:00Z",
        "2024-03-01T12:00:60Z", "2024-03-01T12:00:00", "2024-03-01t12:00:00Z",
        "2024-03-01T12:00:00z",
        "2024-03-01T12:00:00.Z", "2024-03-01T12:00:00+0200", "2024-03-01T12:00Z",
        "2024-03-01 12:00:00Z",
        "2024-03-01T12:00:00Zjunk", "yesterday", "+123-01-01",
    ])
    func rejectsAnythingElse(_ text: String) {
        #expect(FixtureDate.parse(text) == nil)
    }

    @Test func keepsEveryFractionDigitExactly() {
        let date = Date(timeIntervalSinceReferenceDate: 0.1)
        #expect(FixtureDate.format(date) == "2001-01-01T00:00:00.1Z")
        #expect(FixtureDate.parse("2001-01-01T00:00:00.1Z") == date)
        let fine = Date(timeIntervalSinceReferenceDate: 731_000_000.123456789)
        #expect(FixtureDate.format(fine).flatMap(FixtureDate.parse) == fine)
    }

    @Test func formatsAndReadsBackDatesBeforeAndAfterTheEpoch() {
        var random = SeededRandomNumberGenerator(seed: 3)
        for _ in 0..<500 {
            let seconds = Double(random.int64(in: -62_000_000_000...250_000_000_000)) / 1000
            let date = Date(timeIntervalSince1970: seconds)
            let text = FixtureDate.format(date)
            #expect(text.flatMap(FixtureDate.parse) == date, "\(seconds) → \(text ?? "nil")")
        }
        #expect(FixtureDate.format(Date(timeIntervalSince1970: -5.25)) == "1969-12-31T23:59:54.75Z")
        #expect(
            FixtureDate.format(Date(timeIntervalSince1970: 1_709_296_215)) == "2024-03-01T12:30:15Z"
        )
    }

    @Test func expandedYearsRoundTrip() {
        let far = Date(timeIntervalSince1970: 400_000_000_000)
        let text = FixtureDate.format(far)
        #expect(text == "+14645-06-30T15:06:40Z")
        #expect(text.flatMap(FixtureDate.parse) == far)
        #expect(FixtureDate.format(Date(timeIntervalSinceReferenceDate: .nan)) == nil)
    }
}
