import Foundation
import Testing

@testable import ObjectGraph

/// `AttributeValue`'s equality is by stored identity: the same case holding the same stored
/// value (floating-point values by bit pattern, strings by Unicode scalars), never two different
/// cases, and hashing agrees.
@Suite struct AttributeValueEqualityTests {
    /// One value per case and a second value of the same case, none equal to another.
    static let distinct: [AttributeValue] = [
        .null,
        .integer(0), .integer(1), .integer(2),
        .decimal(Decimal(string: "1.5")!), .decimal(Decimal(string: "2.5")!),
        .double(0.0), .double(-0.0), .double(.nan), .double(1.5),
        .float(0.0), .float(-0.0), .float(.nan), .float(1.5),
        .string(""), .string("a"), .string("caf\u{E9}"), .string("cafe\u{301}"),
        .boolean(false), .boolean(true),
        .date(Date(timeIntervalSinceReferenceDate: 0)),
        .date(Date(timeIntervalSinceReferenceDate: 0.1.nextUp)),
        .data(Data()), .data(Data([1])),
        .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
        .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000002")!),
        .uri(URL(string: "x-og://a")!), .uri(URL(string: "x-og://b")!),
        .transformable(Data()), .transformable(Data([1])),
    ]

    @Test func valuesAreEqualOnlyToTheSameCaseHoldingTheSameStoredValue() {
        // The same payload in two cases is not equal (`.data` and `.transformable` both hold
        // `Data`; 0 as an integer and as a double), and every value equals a copy of itself,
        // NaN included.
        for (i, a) in Self.distinct.enumerated() {
            for (j, b) in Self.distinct.enumerated() {
                #expect((a == b) == (i == j), "\(a) == \(b)")
            }
            let copy = a
            #expect(
                a == copy && a.hashValue == copy.hashValue, "\(a) equals and hashes as its copy")
        }
    }

    @Test func doublesAndDatesCompareByBitPattern() {
        #expect(AttributeValue.double(.nan) == .double(.nan))
        #expect(AttributeValue.double(0.0) != .double(-0.0))
        #expect(AttributeValue.float(.nan) == .float(.nan))
        #expect(AttributeValue.float(0.0) != .float(-0.0))
        let instant = 757_382_400.123_456_7
        #expect(
            AttributeValue.date(Date(timeIntervalSinceReferenceDate: instant))
                == .date(Date(timeIntervalSinceReferenceDate: instant)))
        #expect(
            AttributeValue.date(Date(timeIntervalSinceReferenceDate: instant))
                != .date(Date(timeIntervalSinceReferenceDate: instant.nextUp)))
    }

    @Test func decimalsAreEqualWhenTheirValuesAreEqual() {
        #expect(AttributeValue.decimal(Decimal(string: "1.5")!) == .decimal(Decimal(15) / 10))
        #expect(
            AttributeValue.decimal(Decimal(string: "1.5")!) != .decimal(Decimal(string: "1.50001")!)
        )
        #expect(AttributeValue.decimal(Decimal(string: "-2")!) != .decimal(Decimal(string: "2")!))
    }
}
