import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `DecimalLayout` and `DecimalParts`: the one reader of `Decimal`'s storage agrees with
/// Foundation on every value it reads, and builds values byte-identical to Foundation's.
@Suite struct DecimalLayoutTests {
    @Test func theLayoutIsReadableHereAndEveryReadAgreesWithFoundation() {
        #expect(DecimalLayout.isKnown && DecimalParts.isReadable)
        var random = SeededRandomNumberGenerator(seed: 7)
        for i in 0..<2_000 {
            let r = random.next()
            let text: String
            switch i % 4 {
            case 0: text = "-\(r % 1_000_000).\(String(format: "%02d", r % 100))"
            case 1: text = "\(r % 100_000_000_000_000_000)"
            case 2: text = "\(r % 1000)e\(Int(r % 9) - 4)"
            default: text = "0.000\(r % 10_000)"
            }
            let value = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))!
            guard let parts = DecimalParts(value) else {
                Issue.record("\(text) was not readable")
                continue
            }
            var rebuilt = Decimal(parts.mantissa) * pow(Decimal(10), abs(parts.exponent))
            if parts.exponent < 0 {
                rebuilt = Decimal(parts.mantissa) / pow(Decimal(10), -parts.exponent)
            }
            if parts.isNegative { rebuilt = -rebuilt }
            #expect(rebuilt == value, "\(text): \(parts)")
        }
        #expect(DecimalParts(Decimal.nan) == nil)
        #expect(DecimalParts(Decimal(string: "1234567890123456789012345")!) == nil)
        #expect(
            DecimalParts(Decimal(0)) == DecimalParts(isNegative: false, mantissa: 0, exponent: 0))
    }

    @Test func fullWidthReadsAndBuildsAgreeWithFoundation() {
        let posix = Locale(identifier: "en_US_POSIX")
        var random = SeededRandomNumberGenerator(seed: 11)
        for i in 0..<2_000 {
            let digits = String(random.next()) + String(random.next()) + String(random.next())
            let text =
                (i % 2 == 0 ? "-" : "") + String(digits.prefix(1 + i % 38)) + "e\(i % 60 - 30)"
            let value = Decimal(string: text, locale: posix)!
            let built = DecimalLayout.make(DecimalLayout.parts(value))
            #expect(
                built.map { b in withUnsafeBytes(of: b) { Array($0) } }
                    == withUnsafeBytes(of: value) { Array($0) }, "\(text)")
            #expect(DecimalText.text(value) == value.description, "\(text)")
        }
        #expect(DecimalLayout.parts(.nan).isNaN)
        #expect(DecimalLayout.make(DecimalLayout.Parts(isNaN: true))!.isNaN)
    }
}
