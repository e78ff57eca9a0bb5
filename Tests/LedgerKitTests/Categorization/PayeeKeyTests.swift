import Testing

@testable import LedgerKit

/// Payee keys: what stays the same from one statement line of a payee to the next.
@Suite struct PayeeKeyTests {
    @Test(arguments: [
        ("MARKET HALL 0231 *4411 12/03", "market hall"),
        ("Market Hall #889", "market hall"),
        ("market hall", "market hall"),
        ("AMZN Mktp US*2K4RT5", "amzn mktp us"),
        ("SQ *BLUE BOTTLE COFFEE", "sq blue bottle coffee"),
        ("7-ELEVEN 2026-11-03", "eleven"),
        ("CARD xxxx1234 CITY METRO", "card city metro"),
        ("Café Noir, Paris", "café noir paris"),
    ])
    func noiseIsIgnored(_ payee: String, _ key: String) {
        #expect(PayeeKey.of(payee) == key)
    }

    @Test func aPayeeOfNoiseOnlyHasNoKey() {
        #expect(PayeeKey.of("*4411 12/03/2026") == nil)
        #expect(PayeeKey.of("") == nil)
        #expect(PayeeKey.of(nil) == nil)
    }
}

/// Rules first, then the payee's history; never a category the payee never had.
@Suite struct CategorizerTests {
    static func rule(
        _ number: Int, _ pattern: String, _ category: String,
        field: RuleField = .any, regex: Bool = false
    ) -> RuleRecord {
        RuleRecord(
            number: number, pattern: pattern, field: field, isRegex: regex, category: category)
    }

    @Test func theFirstMatchingRuleByNumberWins() throws {
        var categorizer = try Categorizer(
            rules: [Self.rule(5, "metro", "Travel"), Self.rule(2, "city", "Transport")],
            history: [(payee: String?, category: String?)]())
        let decision = categorizer.decide(payee: "CITY METRO", note: nil)
        #expect(decision == CategoryDecision(category: "Transport", source: .rule(2)))
        #expect(decision.description == "rule 2")
    }

    @Test func aRuleLooksOnlyAtItsField() throws {
        var categorizer = try Categorizer(
            rules: [Self.rule(1, "refund", "Refunds", field: .note)],
            history: [(payee: String?, category: String?)]())
        #expect(categorizer.decide(payee: "Refund desk", note: nil).category == nil)
        #expect(categorizer.decide(payee: "Shop", note: "REFUND 12").category == "Refunds")
    }

    @Test func aRegexRuleIgnoresCaseAndABadOneIsRefusedNamingIt() throws {
        var categorizer = try Categorizer(
            rules: [Self.rule(1, "^uber( eats)?$", "Taxi", regex: true)],
            history: [(payee: String?, category: String?)]())
        #expect(categorizer.decide(payee: "UBER", note: nil).category == "Taxi")
        #expect(categorizer.decide(payee: "Uber Eats", note: nil).category == "Taxi")
        #expect(categorizer.decide(payee: "Cuber", note: nil).category == nil)
        let error = #expect(throws: LedgerError.self) {
            _ = try Categorizer(
                rules: [Self.rule(1, "(unclosed", "Taxi", regex: true)],
                history: [(payee: String?, category: String?)]())
        }
        #expect(error?.reason == .badValue)
        #expect(
            error?.message.hasPrefix("bad PATTERN \"(unclosed\": expected a regular expression")
                == true)
    }

    @Test func learningNeedsTwoUsesAndAMajority() throws {
        let history: [(payee: String?, category: String?)] = [
            ("MARKET HALL *1", "Groceries"), ("Market Hall #2", "Groceries"),
            ("market hall 12/03", "Household"), ("Bookshop 1", "Books"),
            ("Pharmacy", "Health"), ("PHARMACY 22", "Household"),
            ("Market Hall", nil),
        ]
        var categorizer = try Categorizer(rules: [], history: history)
        #expect(
            categorizer.decide(payee: "MARKET HALL 0231 *4411", note: nil)
                == CategoryDecision(category: "Groceries", source: .learned(count: 2, total: 3)))
        #expect(
            categorizer.decide(payee: "MARKET HALL", note: nil).description == "learned from 2 of 3"
        )
        // One use is not enough; a tie is not a majority; an unknown payee learns nothing.
        #expect(categorizer.decide(payee: "BOOKSHOP 9", note: nil) == .uncategorised)
        #expect(categorizer.decide(payee: "Pharmacy", note: nil) == .uncategorised)
        #expect(categorizer.decide(payee: "Unknown", note: nil).description == "none")
    }

    @Test func aTrailingNoiseWordFallsBackToTheLeadingWordsTheHistoryKnows() throws {
        let history: [(payee: String?, category: String?)] = [
            ("NOODLE BAR 12/03", "Eating out"), ("Noodle Bar *1234", "Eating out"),
            ("Noodle Bar 4411 CARD xxxx1234", "Eating out"),
            ("AMZN 1", "Books"), ("AMZN 2", "Books"), ("AMZN CARD 1", "Books"),
            ("AMZN CARD 2", "Household"),
        ]
        var categorizer = try Categorizer(rules: [], history: history)
        // `noodle bar card` was seen once: too little, so `noodle bar` decides.
        #expect(
            categorizer.decide(payee: "Noodle Bar 9 CARD xxxx9999", note: nil)
                == CategoryDecision(category: "Eating out", source: .learned(count: 2, total: 2)))
        // `amzn card` was seen twice, split: its own history decides, and says none.
        #expect(categorizer.decide(payee: "AMZN CARD 3", note: nil) == .uncategorised)
    }
}
