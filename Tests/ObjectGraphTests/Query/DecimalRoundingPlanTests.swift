import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `round(attribute ⊕ decimal, places)` planned as one step on `Decimal`'s storage
/// (`RowExpression`, `DecimalArithmetic.roundedExact`): the value and the bytes of the two
/// steps the general evaluator takes, and of Foundation's arithmetic and `NSDecimalRound`
/// (`.plain`, halves away from zero: the only rounding mode the predicate language's
/// `round` uses), on seeded values of either sign, halfway cases, and significands too wide
/// for the one step, which fall back.
@Suite struct DecimalRoundingPlanTests {
    private static let posix = Locale(identifier: "en_US_POSIX")
    private static func d(_ text: String) -> Decimal { Decimal(string: text, locale: posix)! }

    private static let constants = [
        "1.01", "1.2", "1.15", "-1.15", "0.005", "5", "-5.00", "0.5", "0", "1",
        "18446744073709551615", "1e-120", "1e100", "123456789012345678901234567",
    ].map(d)
    private static let places: [Int64] = [2, 0, -2, 5, 19, 400, -400]
    private static let shapes = [
        "round(a * %@, %@)", "round(%@ * a, %@)", "round(a + %@, %@)", "round(a - %@, %@)",
        "round(%@ - a, %@)",
    ]

    private func bytes(_ d: Decimal) -> [UInt8] { withUnsafeBytes(of: d) { Array($0) } }

    /// A seeded amount: mostly cents of either sign, some with a half at the last place
    /// `round` keeps (`x.xx5`), some with full 64-bit significands or extreme exponents.
    private func amount(_ random: inout SeededRandomNumberGenerator) -> Decimal {
        let r = random.next()
        let sign: FloatingPointSign = r & 1 == 0 ? .plus : .minus
        switch (r >> 1) % 6 {
        case 0, 1:
            return Decimal(
                sign: sign, exponent: -2, significand: Decimal(random.next() % 200_000_000))
        case 2:
            // A half at the third place: round(…, 2) of it is a halfway case.
            return Decimal(
                sign: sign, exponent: -3, significand: Decimal((random.next() % 100_000) * 10 + 5))
        case 3:
            return Decimal(
                sign: sign, exponent: -Int((r >> 8) % 20), significand: Decimal(random.next()))
        case 4:
            return Decimal(
                sign: sign, exponent: Int((r >> 8) % 200) - 110,
                significand: Decimal(random.next() % 1_000_000))
        default:
            return Decimal(
                sign: sign, exponent: Int((r >> 8) % 12) - 6,
                significand: Decimal(random.next() % 1_000_000_000_000))
        }
    }

    /// Foundation's `round(a ⊕ b, places)`, halves away from zero, or `nil` where the
    /// operation is one Foundation may refuse (a product below its smallest exponent).
    private func foundation(_ function: FetchFunction, _ a: Decimal, _ b: Decimal, _ places: Int)
        -> Decimal?
    {
        var exact: Decimal
        switch function {
        case .multiply:
            guard a.isZero || b.isZero || a.exponent + b.exponent >= -128 else { return nil }
            exact = a * b
        case .add: exact = a + b
        default: exact = a - b
        }
        var result = Decimal()
        NSDecimalRound(&result, &exact, places, .plain)
        return result
    }

    /// Whether `a ⊕ b` lies exactly halfway between two multiples of 10^-places.
    private func isHalfway(_ function: FetchFunction, _ a: Decimal, _ b: Decimal, _ places: Int)
        -> Bool
    {
        var exact = function == .multiply ? a * b : function == .add ? a + b : a - b
        var down = Decimal()
        NSDecimalRound(&down, &exact, places, .down)
        let rest = exact - down
        let half = Decimal(sign: .plus, exponent: -(places + 1), significand: 5)
        return rest == half || rest == -half
    }

    @Test func theOneStepIsFoundationsArithmeticAndRounding() {
        var random = SeededRandomNumberGenerator(seed: 77)
        var oneStep = 0
        var halfway = 0
        for i in 0..<100_000 {
            let a = amount(&random)
            let b = Self.constants[i % Self.constants.count]
            let function = [FetchFunction.multiply, .add, .subtract][(i / 3) % 3]
            let places = Int(Self.places[(i / 7) % Self.places.count])
            guard let x = DecimalLayout.parts64(a), let y = DecimalLayout.parts64(b),
                let fast = DecimalArithmetic.roundedExact(function, x, y, places: places)
            else { continue }
            oneStep += 1
            guard let expected = foundation(function, a, b, places) else { continue }
            #expect(fast == expected, "round(\(a) \(function) \(b), \(places))")
            #expect(
                fast.description == expected.description, "round(\(a) \(function) \(b), \(places))")
            // And the two fast steps' bytes, exactly.
            let twoSteps = DecimalArithmetic.exact(function, a, b).flatMap {
                DecimalArithmetic.roundedHalfAwayFromZero($0, places: places)
            }
            if let twoSteps {
                #expect(bytes(fast) == bytes(twoSteps), "round(\(a) \(function) \(b), \(places))")
            }
            if isHalfway(function, a, b, places) { halfway += 1 }
        }
        #expect(oneStep > 60_000)
        #expect(halfway > 300)
    }

    @Test func halvesRoundAwayFromZeroInTheOneStep() {
        for (a, function, b, places, expected) in [
            ("0.10", FetchFunction.multiply, "1.15", 2, "0.12"),
            ("-0.10", .multiply, "1.15", 2, "-0.12"), ("0.10", .multiply, "-1.15", 2, "-0.12"),
            ("2.345", .add, "0", 2, "2.35"), ("-2.345", .add, "0", 2, "-2.35"),
            ("2.344999", .add, "0", 2, "2.34"), ("0.005", .subtract, "0.01", 2, "-0.01"),
            ("0.0049", .add, "0", 2, "0"), ("-0.0049", .add, "0", 2, "0"),
            ("150", .multiply, "1", -2, "200"), ("-250", .add, "0", -2, "-300"),
            ("12.5", .multiply, "1", 0, "13"), ("-12.5", .multiply, "1", 0, "-13"),
        ] {
            let (x, y) = (DecimalLayout.parts64(Self.d(a))!, DecimalLayout.parts64(Self.d(b))!)
            let fast = DecimalArithmetic.roundedExact(function, x, y, places: places)
            #expect(fast == Self.d(expected), "round(\(a) \(function) \(b), \(places))")
            #expect(fast.map(bytes) == bytes(Self.d(expected)), "round(\(a) \(function) \(b))")
        }
    }

    @Test func wideResultsAndExponentsOutOfRangeAreLeftToTheTwoSteps() {
        let max = DecimalLayout.parts64(Self.d("18446744073709551615"))!
        #expect(DecimalArithmetic.roundedExact(.multiply, max, max, places: 2) == nil)
        #expect(DecimalArithmetic.roundedExact(.add, max, max, places: 2) == nil)
        let tiny = DecimalLayout.parts64(Self.d("1e-100"))!
        #expect(DecimalArithmetic.roundedExact(.multiply, tiny, tiny, places: 2) == nil)
        #expect(DecimalArithmetic.roundedExact(.divide, max, max, places: 2) == nil)
    }

    @Test func thePlanGivesTheGeneralEvaluatorsBytesOnEveryShape() throws {
        let entity = EntityDescription(
            name: "Sample", properties: [AttributeDescription(name: "a", type: .decimal)])
        let model = try ManagedObjectModel(entities: [entity])
        let sample = try #require(model.entitiesByName["Sample"])
        var random = SeededRandomNumberGenerator(seed: 78)
        var rows: [StoreRow] = []
        for i in 0..<600 {
            let value: AttributeValue =
                switch i % 50 {
                case 0: .null
                case 1: .integer(Int64(i))
                case 2: .double(Double(i) / 3)
                case 3: .decimal(.nan)
                case 4: .decimal(Self.d("123456789012345678901234567.891"))
                default: .decimal(amount(&random))
                }
            rows.append(
                StoreRow(
                    objectID: ManagedObjectID(
                        entity: sample, storeIdentifier: "S", primaryKey: Int64(i + 1)),
                    version: 1, values: [.attribute(value)]))
        }
        var planned = 0
        for shape in Self.shapes {
            for constant in Self.constants {
                for places in Self.places {
                    let expression = try FetchExpression(
                        format: shape.replacingOccurrences(of: ", %@)", with: ", \(places))"),
                        argumentArray: [constant])
                    let compiled = try expression.compile(for: sample)
                    let plan = RowExpression(compiled)
                    let oneStep = RowExpression.roundsDecimalsInOneStep(compiled.root)
                    #expect(oneStep == (DecimalLayout.parts64(constant) != nil), "\(expression)")
                    if oneStep { planned += 1 }
                    for row in rows {
                        let general = compiled.value(forRow: row).attributeValue
                        let fast = plan.value(for: row)
                        #expect(
                            RowExpressionTests.same(fast, general),
                            "\(expression) on \(row.values[0]): \(fast) against \(general)")
                        if case .decimal(let f) = fast, case .decimal(let g) = general {
                            #expect(bytes(f) == bytes(g), "\(expression) on \(row.values[0])")
                        }
                    }
                }
            }
        }
        #expect(planned == Self.shapes.count * 13 * Self.places.count)
    }
}
