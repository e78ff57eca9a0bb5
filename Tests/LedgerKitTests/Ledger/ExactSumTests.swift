import Foundation
import ObjectGraphTesting
import Testing

@testable import LedgerKit

@Suite struct ExactSumTests {
    @Test func theSumIsExactlyTheDecimalSum() {
        var random = SeededRandomNumberGenerator(seed: 42)
        var exact = ExactSum()
        var reference = Decimal(0)
        for i in 0..<5_000 {
            let r = random.next()
            let text: String
            switch i % 5 {
            case 0: text = "\(r % 100_000).\(String(format: "%02d", r % 100))"
            case 1: text = "\(r % 1_000)"
            // three decimals: the Decimal path
            case 2: text = "0.\(String(format: "%03d", r % 1_000))"
            case 3: text = "\(r % 10_000_000_000_000_000)"  // too many digits: the Decimal path
            default: text = "-\(r % 500).5"
            }
            let value = Decimal(string: text)!
            exact.add(value)
            reference += value
        }
        #expect(exact.value == reference)
    }

    @Test func centsThatWouldOverflowMoveToTheDecimalSum() {
        var exact = ExactSum()
        // 9.9e15 cents each: 2,000 of them overflow Int64
        let big = Decimal(string: "99999999999900")!
        for _ in 0..<2_000 { exact.add(big) }
        #expect(exact.value == big * 2_000)
        var large = ExactSum()
        large.add(Decimal(string: "92233720368547758")!)
        large.add(Decimal(string: "92233720368547758")!)
        #expect(large.value == Decimal(string: "184467440737095516")!)
        #expect(ExactSum().value == 0)
    }
}

@Suite struct DecimalStorageTests {
    @Test func theLayoutIsReadableHereAndEveryReadAgreesWithFoundation() {
        #expect(DecimalStorage.isReadable)
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
            guard let parts = DecimalStorage.parts(value) else {
                Issue.record("\(text) was not readable")
                continue
            }
            var rebuilt = Decimal(parts.significand) * pow(Decimal(10), abs(parts.exponent))
            if parts.exponent < 0 {
                rebuilt = Decimal(parts.significand) / pow(Decimal(10), -parts.exponent)
            }
            if parts.negative { rebuilt = -rebuilt }
            #expect(rebuilt == value, "\(text): \(parts)")
        }
        #expect(DecimalStorage.parts(Decimal.nan) == nil)
        #expect(DecimalStorage.parts(Decimal(string: "1234567890123456789012345")!) == nil)
    }
}
