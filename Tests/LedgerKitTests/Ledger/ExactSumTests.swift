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
