import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// A batch update's expressions planned once (`RowExpression`, issue 25): the plan gives the
/// value the general evaluator gives, bit for bit, for the predicate corpus's arithmetic and
/// functions and for every attribute type with hostile operands (nil, integer overflow,
/// decimals, non-finite and signed-zero doubles, values of the wrong type), and so the same
/// stored value or the same `batchInvalidValue` error once coerced to the updated attribute.
@Suite struct RowExpressionTests {
    static let types = ValueRoundTripTests.types

    /// Whether `a` and `b` are the same value down to the bits: doubles, floats and dates by
    /// bit pattern (so `-0.0` is not `0.0` and a NaN is itself), decimals by their spelling.
    static func same(_ a: AttributeValue?, _ b: AttributeValue?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (.double(let x)?, .double(let y)?): x.bitPattern == y.bitPattern
        case (.float(let x)?, .float(let y)?): x.bitPattern == y.bitPattern
        case (.date(let x)?, .date(let y)?):
            x.timeIntervalSinceReferenceDate.bitPattern
                == y.timeIntervalSinceReferenceDate.bitPattern
        case (.decimal(let x)?, .decimal(let y)?):
            x.isNaN == y.isNaN && "\(x)" == "\(y)" && x.exponent == y.exponent
        default: a == b
        }
    }

    /// Compares the plan with the general evaluator for `expression` on every row; returns
    /// whether the plan is a closure tree.
    @discardableResult
    static func check(
        _ expression: FetchExpression, entity: EntityDescription, rows: [StoreRow],
        coercingTo types: [AttributeType]
    ) throws -> Bool {
        let compiled = try expression.compile(for: entity)
        let planned = RowExpression(compiled)
        for row in rows {
            let general = compiled.value(forRow: row).attributeValue
            let fast = planned.value(for: row)
            #expect(
                same(fast, general),
                "\(expression) on \(row.values): planned \(fast), general \(general)")
            for type in types {
                #expect(
                    same(fast.coerced(to: type), general.coerced(to: type)),
                    "\(expression) coerced to \(type)")
            }
        }
        return planned.isSpecialized
    }

    // MARK: The predicate corpus

    @Test func theCorpusArithmeticAndFunctionsGiveTheGeneralEvaluatorsValues() throws {
        let graph = PredicateTestGraph()
        let entity = graph.entity("Transaction")
        let rows = graph.records(of: "Transaction").map { record in
            StoreRow(
                objectID: record.objectID, version: 1,
                values: record.values.map { .attribute($0) })
        }
        var specialized = 0
        var total = 0
        for c in PredicateCorpus.arithmetic + PredicateCorpus.functions
        where c.entity == "Transaction" {
            let predicate = try FetchPredicate(format: c.format, argumentArray: c.arguments(graph))
            for comparison in Self.comparisons(predicate) {
                for side in [comparison.left, comparison.right] {
                    total += 1
                    if try Self.check(
                        side, entity: entity, rows: rows, coercingTo: [.double, .integer64])
                    {
                        specialized += 1
                    }
                }
            }
        }
        // Most sides are constants, key paths and arithmetic: planned, not left to the
        // general evaluator (a plan that always fell back would compare the evaluator with
        // itself).
        #expect(total > 100)
        #expect(specialized * 10 > total * 8, "\(specialized) of \(total) planned")
    }

    private static func comparisons(_ p: FetchPredicate) -> [FetchPredicate.Comparison] {
        switch p.kind {
        case .comparison(let c): [c]
        case .and(let ps), .or(let ps): ps.flatMap(comparisons)
        case .not(let q): comparisons(q)
        case .truePredicate, .falsePredicate: []
        }
    }

    // MARK: Every attribute type

    /// Hostile operands of `type`, `nil` first.
    static func operands(_ type: AttributeType) -> [AttributeValue] {
        var values: [AttributeValue] = [.null]
        switch type {
        case .integer16, .integer32, .integer64:
            let integers: [Int64] = [
                0, 1, -1, 3, 7, 64, 65, -64, .max, .min, .max - 1, .min + 1, 3_037_000_500,
            ]
            values += integers.map { .integer($0) }
        case .decimal:
            // (Magnitudes whose square overflows Decimal are left out: Foundation's
            // `pow(Decimal, Int)` traps on them, in the general evaluator as well.)
            values += ["0", "1.5", "-2.25", "0.1", "1e60", "-1e-60", "12345678901234567890.5"]
                .map { .decimal(Decimal(string: $0)!) }
            values.append(.decimal(.nan))
        case .double:
            var doubles = Array(ValueRoundTripFuzzTests.hostileDoubles(seed: 25).prefix(48))
            var random = SeededRandomNumberGenerator(seed: 2_025)
            for _ in 0..<40 { doubles.append(Double(bitPattern: random.next())) }
            values += doubles.map { .double($0) }
        case .float:
            let floats: [Float] = [
                0, -0.0, 1.5, -3.25, .greatestFiniteMagnitude, .leastNonzeroMagnitude, .nan,
            ]
            values += floats.map { .float($0) }
        case .string: values += ["", "12.5", "abc", "ÄbC"].map { .string($0) }
        case .boolean: values += [.boolean(true), .boolean(false)]
        case .date:
            let seconds: [Double] = [0, -1.5, 1e12, 725_846_400]
            values += seconds.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
        case .binaryData: values += [.data(Data()), .data(Data([1, 2, 3]))]
        case .uuid: values.append(.uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!))
        case .uri: values.append(.uri(URL(string: "https://example.com/a")!))
        case .transformable: values.append(.transformable(Data([7])))
        default: break
        }
        return values
    }

    /// Expressions of one attribute `a` (and `b`, another attribute of the same type).
    static let shapes = [
        "a", "a * 1.2", "1.2 * a", "a * 2", "a + 1", "1 + a", "a - 0.5", "0.5 - a", "a / 3",
        "3 / a", "a / 0", "0 / a", "a * 1e308", "a + 1e-320", "a - b", "a * b", "a / b", "-a",
        "abs(a)", "a %% 3", "a ** 2", "round(a, 2)", "floor(a)", "ceiling(a)", "trunc(a)",
        "sqrt(a)", "exp(a)", "ln(a)", "log(a)", "bitwiseAnd(a, 3)", "leftshift(a, 62)",
        "onesComplement(a)", "a + 9223372036854775807", "a * -9223372036854775808",
        "lowercase(a)", "uppercase(a)", "a + 86400", "a * nil", "(a + 1) * (a - 1) / 2",
        "CAST(a, 'NSNumber')", "CAST(a, 'NSString')", "noindex(a)", "a * 1.2 + a",
    ]

    @Test(arguments: types)
    func everyAttributeTypeGivesTheGeneralEvaluatorsValues(_ type: AttributeType) throws {
        let entity = EntityDescription(
            name: "Sample",
            properties: [
                AttributeDescription(name: "a", type: type),
                AttributeDescription(name: "b", type: type),
            ])
        let model = try ManagedObjectModel(entities: [entity])
        let sample = try #require(model.entitiesByName["Sample"])
        let values = Self.operands(type)
        var rows: [StoreRow] = []
        for (i, a) in values.enumerated() {
            for b in [values[(i + 1) % values.count], values[values.count - 1 - i]] {
                rows.append(
                    StoreRow(
                        objectID: ManagedObjectID(
                            entity: sample, storeIdentifier: "S", primaryKey: Int64(rows.count + 1)),
                        version: 1, values: [.attribute(a), .attribute(b)]))
            }
        }
        for shape in Self.shapes {
            let expression = try FetchExpression(format: shape)
            let planned = try Self.check(
                expression, entity: sample, rows: rows, coercingTo: Self.types)
            #expect(planned, "\(shape) is planned, not left to the general evaluator")
        }
    }

    @Test func shapesThePlanDoesNotCoverFallBackToTheGeneralEvaluator() throws {
        let graph = PredicateTestGraph()
        let entity = graph.entity("Transaction")
        let rows = graph.records(of: "Transaction").map { record in
            StoreRow(
                objectID: record.objectID, version: 1,
                values: record.values.map { .attribute($0) })
        }
        for format in [
            "category.name", "{1, 2, 3}.@sum", "sum({amount, 2})", "TERNARY(amount > 100, 1, 2)",
            "tags.@count",
        ] {
            let planned = try Self.check(
                FetchExpression(format: format), entity: entity, rows: rows,
                coercingTo: [.double, .string])
            #expect(!planned, "\(format) runs through the general evaluator")
        }
    }
}
