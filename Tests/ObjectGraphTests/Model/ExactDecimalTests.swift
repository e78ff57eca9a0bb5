import Foundation
import Testing

@testable import ObjectGraph

@Suite struct ExactDecimalTests {
    @Test(arguments: [
        ("0.01", "0.01"), ("1.50", "1.5"), ("-0", "0"), ("1e-05", "0.00001"),
        ("1e+21", "1000000000000000000000"),
        ("+.5", "0.5"), ("-978307200.000", "-978307200"), ("12.5E2", "1250"),
    ])
    func parsesAndSpellsOutExactly(text: String, plain: String) {
        #expect(ExactDecimal(text)?.plainText == plain)
    }

    @Test(arguments: ["", "-", "1.5abc", "1e", "1e999999", ".", "1..2", "0x10", " 1", "NaN"])
    func rejectsWhatIsNotANumber(text: String) {
        #expect(ExactDecimal(text) == nil)
    }

    @Test func sumsExactly() throws {
        let a = try #require(ExactDecimal("0.1"))
        let b = try #require(ExactDecimal("-978307200"))
        #expect((a + b).plainText == "-978307199.9")
        #expect((b + -b).plainText == "0")
        #expect((try #require(ExactDecimal("1e-300")) + ExactDecimal(1)).plainText.count == 302)
    }

    @Test func convertsToDecimalOnlyWhenExact() {
        #expect(ExactDecimal("0.01")?.decimal == Decimal(string: "0.01"))
        #expect(ExactDecimal("1234567890123456789012345678901234567890")?.decimal != nil)
        #expect(ExactDecimal("1234567890123456789012345678901234567891")?.decimal == nil)
        #expect(ExactDecimal("1e-200")?.decimal == nil)
    }
}
