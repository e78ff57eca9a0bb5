import Foundation

/// Chooses categories for transactions: the first matching rule, else what the payee's
/// history says.
///
/// Learning: the payee's ``PayeeKey`` groups its categorised transactions in the history
/// (a key the history knows too little of falls back to its longest run of leading words
/// the history knows, so a trailing word of noise such as `CARD` does not hide the
/// payee); the category used most often among them is chosen when it was used at least twice and
/// for more than half of them (`learned from 14 of 15`). Otherwise the transaction stays
/// uncategorised, so learning never picks a category the payee never had.
///
/// ```swift
/// var categorizer = try Categorizer(
///     rules: [], history: [("Market Hall 0231", "Groceries"), ("MARKET HALL #88", "Groceries")])
/// categorizer.decide(payee: "MARKET HALL *4411", note: nil)  // Groceries, learned from 2 of 2
/// ```
struct Categorizer {
    /// How often a payee had each category.
    private struct Tally {
        var counts: [String: Int] = [:]
        var total = 0
    }

    private let rules: [RuleMatcher]
    private var history: [String: Tally] = [:]
    /// Each payee key's learned decision, computed once.
    private var learned: [String: CategoryDecision] = [:]
    /// Keys of raw payee texts already seen (bank exports repeat them).
    private var keys: [String: String?] = [:]

    /// The minimum number of uses before a payee's category is learned.
    static let minimumUses = 2

    /// Compiles `rules` (tried by ascending number) and tallies `history`'s categorised
    /// transactions by payee key.
    ///
    /// - Throws: ``LedgerError`` `.badValue` for a rule whose regular expression does not
    ///   compile.
    /// - Complexity: O(rules + history).
    init(rules: [RuleRecord], history past: some Sequence<(payee: String?, category: String?)>)
        throws
    {
        self.rules = try rules.sorted { $0.number < $1.number }.map(RuleMatcher.init)
        for (payee, category) in past {
            guard let category, let key = key(of: payee) else { continue }
            history[key, default: Tally()].counts[category, default: 0] += 1
            history[key, default: Tally()].total += 1
        }
    }

    /// The decision for a transaction with this payee and note.
    ///
    /// - Complexity: O(rules × text length), plus the payee's key once per distinct payee.
    mutating func decide(payee: String?, note: String?) -> CategoryDecision {
        for rule in rules where rule.matches(payee: payee, note: note) {
            return CategoryDecision(
                category: rule.record.category, source: .rule(rule.record.number))
        }
        // Nothing to learn from (a first import): no payee key to compute.
        guard !history.isEmpty, let key = key(of: payee) else { return .uncategorised }
        if let known = learned[key] { return known }
        let decision = learn(key)
        learned[key] = decision
        return decision
    }

    /// What the history says of the payee `key` names: its own tally, else (while a tally
    /// has too little to go on, under two uses) that of the longest run of its leading words
    /// the history knows, keeping at least one word of three letters or more. So
    /// `noodle bar card` (a trailing word of noise) learns from `noodle bar`, while a payee
    /// whose own history is split stays uncategorised.
    private func learn(_ key: String) -> CategoryDecision {
        var words = key.split(separator: " ")
        while !words.isEmpty {
            if let tally = history[words.joined(separator: " ")] {
                if let (category, count) = tally.counts.max(by: {
                    ($0.value, $1.key) < ($1.value, $0.key)
                }), count >= Self.minimumUses, count * 2 > tally.total {
                    return CategoryDecision(
                        category: category, source: .learned(count: count, total: tally.total))
                }
                if tally.total >= Self.minimumUses { return .uncategorised }
            }
            words.removeLast()
            if words.count == 1, words[0].count < 3 { break }
        }
        return .uncategorised
    }

    private mutating func key(of payee: String?) -> String? {
        guard let payee else { return nil }
        if let known = keys[payee] { return known }
        let key = PayeeKey.of(payee)
        keys[payee] = key
        return key
    }
}
