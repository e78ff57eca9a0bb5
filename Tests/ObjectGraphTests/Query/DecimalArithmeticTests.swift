import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The fast decimal arithmetic of expressions (`amount * 1.2`, `round(x, 2)`) gives exactly
/// what Foundation's `Decimal` operators and `NSDecimalRound(.plain)` give, value and bytes.
@Suite struct DecimalArithmeticTests {
    /// A seeded decimal: up to 12 digits, exponent −6…3, either sign, sometimes zero.
    private func decimal(_ random: inout SeededRandomNumberGenerator) -> Decimal {
        let r = random.next()
        let mantissa = r % 7 == 0 ? 0 : (r >> 8) % 1_000_000_000_000
        let exponent = Int(r % 10) - 6
        return Decimal(
            sign: r & 0x10 == 0 ? .plus : .minus, exponent: exponent,
            significand: Decimal(mantissa))
    }

    private func bytes(_ d: Decimal) -> [UInt8] { withUnsafeBytes(of: d) { Array($0) } }

    @Test func sumsDifferencesAndProductsAreFoundationsExactly() {
        var random = SeededRandomNumberGenerator(seed: 22)
        for _ in 0..<3_000 {
            let (a, b) = (decimal(&random), decimal(&random))
            for (function, expected) in [
                (FetchFunction.multiply, a * b), (.add, a + b), (.subtract, a - b),
            ] {
                guard let fast = DecimalArithmetic.exact(function, a, b) else {
                    Issue.record("\(a) \(function) \(b) took the slow path")
                    continue
                }
                #expect(fast == expected, "\(a) \(function) \(b)")
                #expect(fast.description == expected.description, "\(a) \(function) \(b)")
            }
        }
    }

    @Test func roundingHalvesAwayFromZeroIsFoundationsPlainRounding() {
        var random = SeededRandomNumberGenerator(seed: 23)
        var values: [Decimal] = ["2.345", "-2.345", "0.005", "-0.005", "0.0049", "12.5", "0"]
            .map { Decimal(string: $0)! }
        for _ in 0..<3_000 { values.append(decimal(&random)) }
        for value in values {
            for places in [-3, -1, 0, 1, 2, 3, 8] {
                var input = value
                var expected = Decimal()
                NSDecimalRound(&expected, &input, places, .plain)
                let fast = DecimalArithmetic.roundedHalfAwayFromZero(value, places: places)
                #expect(fast == expected, "round(\(value), \(places))")
                #expect(fast?.description == expected.description, "round(\(value), \(places))")
            }
        }
        #expect(
            DecimalArithmetic.roundedHalfAwayFromZero(Decimal(string: "2.345")!, places: 2)
                == Decimal(string: "2.35"))
        #expect(
            DecimalArithmetic.roundedHalfAwayFromZero(Decimal(string: "-2.345")!, places: 2)
                == Decimal(string: "-2.35"))
    }

    @Test func whatTheFastPathCannotDoIsLeftToFoundation() {
        let wide = Decimal(string: "123456789012345678901234567")!
        #expect(DecimalArithmetic.exact(.multiply, wide, 2) == nil)
        #expect(DecimalArithmetic.exact(.divide, 4, 2) == nil)
        #expect(DecimalArithmetic.roundedHalfAwayFromZero(.nan, places: 2) == nil)
        // Through the evaluator's arithmetic, the slow path still answers.
        #expect(
            PredicateArithmetic.apply(.multiply, [.decimal(wide), .decimal(2)])
                == .decimal(wide * 2))
        #expect(
            PredicateArithmetic.apply(.round, [.decimal(Decimal(string: "10.005")!), .integer(2)])
                == .decimal(Decimal(string: "10.01")!))
    }
}
