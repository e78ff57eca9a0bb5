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

    // Foundation's `Decimal` multiplication on Linux stops the process (an illegal
    // instruction in `Decimal._multiply(by:roundingMode:)`) when a product's exponent falls
    // below −128: a helper's bad-input trial hit it with `raise:toPower:` on a decimal
    // (`1e-64 * 1e-65` is enough). Division reports the same underflow as NaN; the product
    // and power now do too, and the evaluator turns NaN into nil.

    @Test func aProductBelowTheSmallestExponentIsNaNInsteadOfATrap() {
        let d = { (s: String) in Decimal(string: s)! }
        #expect(DecimalArithmetic.product(d("1e-64"), d("1e-65")).isNaN)
        #expect(DecimalArithmetic.product(d("123456e-70"), d("1e-60")).isNaN)
        #expect(DecimalArithmetic.product(d("-1e-100"), d("1e-100")).isNaN)
        // At the floor itself, and with zero, Foundation's answer.
        #expect(DecimalArithmetic.product(d("1e-64"), d("1e-64")) == d("1e-64") * d("1e-64"))
        #expect(DecimalArithmetic.product(d("5e-100"), d("2e-28")) == d("1e-127"))
        #expect(DecimalArithmetic.product(0, d("1e-100")) == 0)
        // Exponents summing below −128 whose product's wide significand lifts it back
        // within range: Foundation answers these, and so does the scaled product, equally.
        for (a, b) in [
            ("12345678901234567890123e-80", "12345678901234567890123e-50"),
            (
                "99999999999999999999999999999999999999e-100",
                "99999999999999999999999999999999999999e-40"
            ),
            (
                "10000000000000000000000000000000000001e-100",
                "-30000000000000000000000000000000000003e-30"
            ),
        ] {
            let product = DecimalArithmetic.product(d(a), d(b))
            #expect(!product.isNaN, "\(a) * \(b)")
            #expect(product == d(a) * d(b), "\(a) * \(b)")
            #expect(product.description == (d(a) * d(b)).description, "\(a) * \(b)")
        }
    }

    @Test func productsWithinRangeAreFoundationsAndBelowItAreNaN() {
        var random = SeededRandomNumberGenerator(seed: 31)
        for _ in 0..<3_000 {
            let r = random.next()
            let a = Decimal(
                sign: r & 1 == 0 ? .plus : .minus, exponent: -Int((r >> 1) % 100),
                significand: Decimal((r >> 8) % 1_000_000_000_000_000 + 1))
            let s = random.next()
            let b = Decimal(
                sign: .plus, exponent: -Int(s % 100), significand: Decimal((s >> 8) % 1_000_000 + 1)
            )
            let product = DecimalArithmetic.product(a, b)
            if a.exponent + b.exponent >= -128 {
                #expect(product == a * b, "\(a) * \(b)")
            } else if !product.isNaN {
                // Only a product wider than 38 digits comes back within range.
                #expect(product.exponent >= -128, "\(a) * \(b)")
                let double = { (x: Decimal) in NSDecimalNumber(decimal: x).doubleValue }
                let relative = (double(product) - double(a) * double(b)) / double(product)
                #expect(Swift.abs(relative) < 1e-12, "\(a) * \(b)")
            }
        }
    }

    @Test func aDecimalPowerBelowTheSmallestExponentIsNaNInsteadOfATrap() {
        let d = { (s: String) in Decimal(string: s)! }
        #expect(DecimalArithmetic.power(d("1e-10"), 13).isNaN)
        #expect(DecimalArithmetic.power(d("1e-100"), 2).isNaN)
        #expect(DecimalArithmetic.power(d("0.01"), 256).isNaN)
        // Small results still representable: exact, as Foundation's would be.
        #expect(DecimalArithmetic.power(d("0.001"), 40) == d("1e-120"))
        #expect(DecimalArithmetic.power(d("-0.5"), 3) == d("-0.125"))
        #expect(DecimalArithmetic.power(d("0.2"), 100) == Foundation.pow(d("0.2"), 100))
        #expect(DecimalArithmetic.power(d("0.9"), 256) == Foundation.pow(d("0.9"), 256))
        #expect(DecimalArithmetic.power(d("1.5"), 20) == Foundation.pow(d("1.5"), 20))
        #expect(DecimalArithmetic.power(0, 5) == 0)
        #expect(DecimalArithmetic.power(d("1e-100"), 0) == 1)
        #expect(DecimalArithmetic.power(d("1e100"), 2).isNaN)
    }

    @Test func theEvaluatorAnswersNilForAnUnderflowingDecimal() throws {
        let tiny = Decimal(string: "1e-64")!
        #expect(PredicateArithmetic.apply(.multiply, .decimal(tiny), .decimal(tiny / 10)) == .null)
        #expect(PredicateArithmetic.apply(.power, .decimal(tiny), .integer(3)) == .null)
        #expect(
            PredicateArithmetic.apply(.power, .decimal(Decimal(string: "0.5")!), .integer(2))
                == .decimal(Decimal(string: "0.25")!))
        // Through a predicate, as a user writes it: nil compares as nil, no crash.
        let graph = PredicateTestGraph()
        for format in ["%@ * %@ == nil", "%@ ** 3 == nil"] {
            let compiled = try FetchPredicate(
                format: format, argumentArray: format.contains("**") ? [tiny] : [tiny, tiny / 10]
            ).compile(for: graph.entity("Transaction"))
            #expect(compiled.evaluate(graph["t1"]), "\(format)")
        }
    }
}
