import Foundation
import Testing

@testable import ObjectGraph

/// `description` prints a format string that parses back to the same tree.
@Suite struct PredicateDescriptionTests {
    /// Whether the predicate holds an object constant, which prints as an object URI.
    private func holdsObjects(_ p: FetchPredicate) -> Bool {
        p.description.contains("NSManagedObjectID")
    }

    @Test(arguments: PredicateCorpus.all)
    func descriptionParsesBackToTheSameTree(_ c: PredicateCase) throws {
        let graph = PredicateTestGraph()
        let predicate = try FetchPredicate(format: c.format, argumentArray: c.arguments(graph))
        let reparsed = try FetchPredicate(format: predicate.description)
        if holdsObjects(predicate) {
            #expect(
                try graph.matches(reparsed, entity: c.entity) == c.expected,
                "\(predicate.description)")
        } else {
            #expect(reparsed == predicate, "\(predicate.description)")
            #expect(reparsed.description == predicate.description)
        }
    }

    @Test func descriptionUsesCanonicalSpelling() throws {
        let cases: [(String, String)] = [
            ("a = 1 && b <> 2 || !(c =< 3)", "(a == 1 AND b != 2) OR NOT c <= 3"),
            ("a => 1", "a >= 1"),
            ("NONE tags.name ==[cd] 'x'", "NOT ANY tags.name ==[cd] \"x\""),
            ("SOME tags.name like[c] 'x*'", "ANY tags.name LIKE[c] \"x*\""),
            ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
            ("(a == 1 OR b == 2) AND c == 3", "(a == 1 OR b == 2) AND c == 3"),
            ("x == 'it''s'".replacingOccurrences(of: "''", with: "\\'"), "x == \"it's\""),
            ("x == \"say \\\"hi\\\"\\n\"", "x == \"say \\\"hi\\\"\\n\""),
            ("x == 1.50", "x == 1.5"),
            ("x == 2.0", "x == 2.0"),
            ("x == 1e3", "x == 1000.0e0"),
            ("x == -0.5e0", "x == -0.5e0"),
            ("x == YES AND y == nil", "x == YES AND y == nil"),
            ("(a + b) * c == a + b * c", "(a + b) * c == a + b * c"),
            ("a - (b - c) == (a - b) - c", "a - (b - c) == a - b - c"),
            ("2 ** 3 ** 2 == (2 ** 3) ** 2", "2 ** 3 ** 2 == (2 ** 3) ** 2"),
            ("-(a) == -5", "-(a) == -5"),
            ("#size == 1 AND #in == 2", "size == 1 AND #in == 2"),
            ("tags[FIRST].name == tags[0].name", "tags[FIRST].name == tags[0].name"),
            (
                "SUBQUERY(tags, $t, $t.name IN {'a', 'b'}).@count > 0",
                "SUBQUERY(tags, $t, $t.name IN {\"a\", \"b\"}).@count > 0"
            ),
            ("TERNARY(a > 1, 'x', 'y') == 'x'", "TERNARY(a > 1, \"x\", \"y\") == \"x\""),
            ("abs(a) == sum({1, 2})", "abs(a) == sum({1, 2})"),
            ("a %% 2 == 0", "a %% 2 == 0"),
            ("date == CAST(731721600, 'NSDate')", "date == CAST(731721600.0e0, \"NSDate\")"),
            ("CAST(a, 'Date') == nil", "CAST(a, \"NSDate\") == nil"),
            ("TRUEPREDICATE AND NOT FALSEPREDICATE", "TRUEPREDICATE AND NOT FALSEPREDICATE"),
        ]
        for (input, expected) in cases {
            let p = try FetchPredicate(format: input)
            #expect(p.description == expected, "\(input)")
            #expect(try FetchPredicate(format: p.description) == p, "\(input)")
        }
    }

    @Test func constantsOfEveryTypeRoundTrip() throws {
        let values: [AttributeValue] = [
            .null, .integer(Int64.min), .integer(Int64.max), .integer(0),
            .decimal(Decimal(string: "-12.345")!),
            .decimal(Decimal(42)), .decimal(Decimal(string: "0.000000000000000000001")!),
            .double(0.1),
            .double(-0.0), .double(1e300), .double(.leastNonzeroMagnitude), .double(.infinity),
            .double(-.infinity),
            .float(0.1), .float(-3.25), .float(.infinity), .string(""),
            .string("a\"b\\c\n\t\r\0\u{1}\u{7F}é👍"),
            .boolean(true), .boolean(false),
            .date(Date(timeIntervalSinceReferenceDate: 731_721_600.123_456)),
            .date(Date(timeIntervalSinceReferenceDate: -1e9)), .uuid(UUID()),
            .uri(URL(string: "https://example.com/a?b=c#d")!), .data(Data([0, 1, 254, 255])),
            .data(Data()),
            .transformable(Data("{\"a\":1}".utf8)),
        ]
        for value in values {
            let p = FetchPredicate.comparison(.keyPath("x"), .equalTo, .constant(value))
            let reparsed = try FetchPredicate(format: p.description)
            #expect(reparsed == p, "\(p.description)")
        }
        let nan = try FetchPredicate(
            format: FetchPredicate.comparison(
                .keyPath("x"), .equalTo,
                .constant(.double(.nan))
            ).description)
        guard case .comparison(let c) = nan.kind, case .constant(.double(let d)) = c.right.kind
        else {
            Issue.record("NaN did not come back as a double constant")
            return
        }
        #expect(d.isNaN)
    }

    @Test func builtPredicatesPrintAsTheirMeaning() throws {
        let a = FetchPredicate.comparison(.keyPath("a"), .equalTo, .constant(1))
        let b = FetchPredicate.comparison(
            .keyPath("b"), .greaterThan, .constant(2), modifier: .all,
            options: [.caseInsensitive, .diacriticInsensitive])
        #expect(FetchPredicate.and([]).description == "TRUEPREDICATE")
        #expect(FetchPredicate.or([]).description == "FALSEPREDICATE")
        #expect(FetchPredicate.and([a]) == a)
        #expect(FetchPredicate(.and([a])).description == "a == 1")
        #expect(
            FetchPredicate.and([a, .or([a, b])]).description
                == "a == 1 AND (a == 1 OR ALL b >[cd] 2)")
        #expect(
            FetchPredicate.and([.and([a, b]), a]).description
                == "(a == 1 AND ALL b >[cd] 2) AND a == 1")
        let nested = FetchPredicate.and([.and([a, b]), a])
        #expect(try FetchPredicate(format: nested.description) == nested)
        #expect(FetchPredicate.not(.and([a, b])).description == "NOT (a == 1 AND ALL b >[cd] 2)")
    }

    @Test func expressionsRoundTrip() throws {
        for text in [
            "amount * 1.2", "(a + b) / 2", "-(x) + 3", "sum({1, 2, 3})", "now()",
            "SUBQUERY(tags, $t, $t.name == \"x\").@count", "CAST(\"2\", \"NSNumber\")",
            "$VAR.name", "SELF", "{}", "x[LAST]", "a.b.c", "TERNARY(a == 1, 2, 3)",
        ] {
            let e = try FetchExpression(format: text)
            #expect(try FetchExpression(format: e.description) == e, "\(text) → \(e.description)")
        }
        #expect(try FetchExpression(format: "CAST(\"2\", \"NSNumber\")") == .constant(2))
        #expect(try FetchExpression(format: "SELF.name") == .keyPath("name"))
    }
}
