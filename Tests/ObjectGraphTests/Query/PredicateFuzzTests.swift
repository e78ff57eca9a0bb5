import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Seeded random and mutated strings never crash the parser, and whatever parses prints,
/// re-parses, compiles or fails cleanly, and evaluates.
@Suite struct PredicateFuzzTests {
    private static let vocabulary: [String] = [
        "amount", "title", "category", ".", "name", "tags", "@count", "@sum", "@avg", "@max",
        "@foo", "$t", "$",
        "SELF", "==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "AND", "&&", "OR", "||",
        "NOT", "!",
        "IN", "LIKE", "MATCHES", "CONTAINS", "BEGINSWITH", "ENDSWITH", "BETWEEN", "ANY", "ALL",
        "NONE", "SOME",
        "[c]", "[cd]", "[", "]", "(", ")", "{", "}", ",", "+", "-", "*", "/", "**", "%%", "%@",
        "%K", "%d",
        "%f", "%", "'x'", "\"y\"", "'", "\"", "\\", "1", "0x1F", "0b", "1.5", "2e3", "-3", "nil",
        "YES",
        "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY(", "CAST(", "TERNARY(", "FUNCTION(", "abs(",
        "now()",
        "[FIRST]", "[LAST]", "[SIZE]", "#size", "#", "é", "\u{301}", "👍", "\n", "\t", " ", "  ",
        "UTI-EQUALS", "'%@'", "99999999999999999999", "1e999", "'\\u{41}'", "'\\q'",
    ]

    private static let seeds: [String] =
        PredicateCorpus.all.map(\.format) + PredicateCorpus.parseErrors.map(\.format)

    private static func randomString(_ rng: inout SeededRandomNumberGenerator) -> String {
        switch rng.next() % 4 {
        case 0:
            let count = Int(rng.next() % 12) + 1
            return (0..<count).map { _ in vocabulary[Int(rng.next() % UInt64(vocabulary.count))] }
                .joined(separator: rng.next() % 3 == 0 ? "" : " ")
        case 1, 2:
            var scalars = Array(seeds[Int(rng.next() % UInt64(seeds.count))].unicodeScalars)
            for _ in 0..<(Int(rng.next() % 4) + 1) {
                let position = scalars.isEmpty ? 0 : Int(rng.next() % UInt64(scalars.count + 1))
                switch rng.next() % 4 {
                case 0 where position < scalars.count: scalars.remove(at: position)
                case 1:
                    scalars.insert(
                        contentsOf: vocabulary[Int(rng.next() % UInt64(vocabulary.count))]
                            .unicodeScalars,
                        at: position)
                case 2: scalars = Array(scalars.prefix(position))
                default:
                    let scalar = Unicode.Scalar(UInt32(rng.next() % 0x7F)) ?? "?"
                    scalars.insert(scalar, at: position)
                }
            }
            return String(String.UnicodeScalarView(scalars))
        default:
            let count = Int(rng.next() % 20)
            return String(
                String.UnicodeScalarView(
                    (0..<count).compactMap { _ in
                        Unicode.Scalar(UInt32(rng.next() % (rng.next() % 5 == 0 ? 0x1_0000 : 0x80)))
                    }))
        }
    }

    @Test func hundredThousandSeededStringsNeverCrashTheParser() throws {
        var rng = SeededRandomNumberGenerator(seed: 0x5EED_0001)
        let graph = PredicateTestGraph()
        let entity = graph.entity("Transaction")
        let records = graph.records(of: "Transaction")
        let arguments: [Any] = [
            "amount", 5, "x", [1, 2], Date(timeIntervalSinceReferenceDate: 0), "name", 2.5,
        ]
        var parsed = 0
        var failed = 0
        var compiled = 0
        var problems: [String] = []
        for _ in 0..<100_000 {
            let format = Self.randomString(&rng)
            do {
                let predicate = try FetchPredicate(format: format, argumentArray: arguments)
                parsed += 1
                let text = predicate.description
                let reparsed = try FetchPredicate(format: text)
                if reparsed != predicate && !text.contains("NSManagedObjectID") {
                    problems.append("round trip: \(format.debugDescription) → \(text)")
                }
                if let c = try? predicate.compile(for: entity) {
                    compiled += 1
                    for r in records { _ = c.evaluate(r) }
                }
            } catch let error as ObjectGraphError {
                failed += 1
                if ![.predicateSyntax, .predicateArgument].contains(error.reason)
                    || !(1...(format.count + 1)).contains(error.column ?? 0)
                {
                    problems.append("error: \(format.debugDescription): \(error)")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(20))")
        #expect(parsed + failed == 100_000)
        #expect(parsed > 1_000)
        #expect(compiled > 500)
    }

    @Test func nestingIsCappedWithAnErrorNotACrash() throws {
        let deep =
            String(repeating: "(", count: 10_000) + "a == 1" + String(repeating: ")", count: 10_000)
        let error = #expect(throws: ObjectGraphError.self) { try FetchPredicate(format: deep) }
        #expect(error?.column == PredicateParser.maxDepth + 2)
        for prefix in ["NOT ", "!", "-", "{", "abs(", "a ** "] {
            let text = String(repeating: prefix, count: 5_000) + "1"
            #expect(throws: ObjectGraphError.self, "\(prefix)") {
                try FetchPredicate(format: text + " == 1")
            }
        }
        let limit = PredicateParser.maxDepth
        let ok =
            String(repeating: "(", count: limit) + "amount > 500"
            + String(repeating: ")", count: limit)
        let graph = PredicateTestGraph()
        #expect(
            try graph.matches(FetchPredicate(format: ok), entity: "Transaction") == [
                "t2", "t3", "t4",
            ])
        let nots = String(repeating: "NOT ", count: limit) + "amount > 500"
        #expect(
            try graph.matches(FetchPredicate(format: nots), entity: "Transaction") == [
                "t2", "t3", "t4",
            ])
    }

    @Test func compilingAnOverlyDeepBuiltPredicateThrows() {
        var p = FetchPredicate.comparison(.keyPath("amount"), .greaterThan, .constant(1))
        for _ in 0..<1_000 { p = .not(p) }
        let graph = PredicateTestGraph()
        #expect(throws: ObjectGraphError.self) { try p.compile(for: graph.entity("Transaction")) }
    }
}
