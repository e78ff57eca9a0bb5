import Foundation
import ObjectGraph

extension Ledger {
    /// The categorisation rules, by number.
    ///
    /// - Throws: store errors.
    public func rules() throws -> [RuleRecord] {
        try read { try Self.allRules(in: $0).map(RuleRecord.init) }
    }

    /// Adds a rule after the others: its number is one more than the highest in use.
    ///
    /// - Parameters:
    ///   - pattern: the text (1–200 characters) or, with `isRegex`, the regular expression.
    ///   - category: the category it gives (matched as ``category(named:)`` does).
    ///   - field: where to look.
    ///   - isRegex: whether `pattern` is a regular expression.
    /// - Throws: ``LedgerError`` `.badValue` naming the pattern when it is not a regular
    ///   expression; `.unknownCategory`; the model's validation errors (1660/1670 pattern
    ///   length) as `ObjectGraphError`s.
    public func addRule(
        pattern: String, category: String, field: RuleField = .any, isRegex: Bool = false
    ) throws -> RuleRecord {
        if isRegex { _ = try RuleMatcher.compile(pattern) }
        return try change("rule add") { draft in
            let target = try Self.requireCategory(category, in: draft)
            let rule = CategorizationRule(context: draft)
            rule.pattern = pattern
            rule.field = field.rawValue
            rule.isRegex = isRegex
            rule.order = (try Self.allRules(in: draft).map(\.order).max() ?? 0) + 1
            rule.category = target
            return RuleRecord(rule)
        }
    }

    /// Deletes rule `number`; the others keep their numbers.
    ///
    /// - Throws: ``LedgerError`` `.unknownRule`.
    public func deleteRule(_ number: Int) throws -> RuleRecord {
        try change("rule delete") { draft in
            guard let rule = try Self.allRules(in: draft).first(where: { Int($0.order) == number })
            else { throw LedgerErrors.unknownRule(number) }
            let record = RuleRecord(rule)
            draft.delete(rule)
            return record
        }
    }

    /// Every rule, by ascending order.
    static func allRules(in context: ManagedObjectContext) throws -> [CategorizationRule] {
        let request = FetchRequest<CategorizationRule>(entityName: "CategorizationRule")
        request.sortDescriptors = [FetchSortDescriptor(key: "order", ascending: true)]
        return try context.fetch(request)
    }

    /// A categoriser with the ledger's rules, learning from its categorised transactions.
    ///
    /// - Throws: ``LedgerError`` `.badValue` for a stored rule whose regular expression no
    ///   longer compiles; store errors.
    /// - Complexity: O(transactions + rules).
    func categorizer() throws -> Categorizer {
        try read { context in
            try Categorizer(
                rules: try Self.allRules(in: context).map(RuleRecord.init),
                history: try history(in: context))
        }
    }

    /// Every transaction's payee and category name: from the store's rows when the root
    /// context has no unsaved changes, else from the objects.
    private func history(in context: ManagedObjectContext) throws
        -> [(payee: String?, category: String?)]
    {
        guard let (rows, entity) = try savedRows("Transaction", in: context),
            let payee = entity.propertiesByName["payee"]?.index,
            let link = entity.propertiesByName["category"]?.index,
            let (categories, categoryEntity) = try savedRows("Category", in: context),
            let name = categoryEntity.propertiesByName["name"]?.index
        else {
            return try Self.allTransactions(in: context).map { ($0.payee, $0.category?.name) }
        }
        var names: [ManagedObjectID: String] = [:]
        for row in categories {
            if case .string(let text) = row.values[name].attributeValue {
                names[row.objectID] = text
            }
        }
        return rows.map { row in
            var text: String?
            if case .string(let value) = row.values[payee].attributeValue { text = value }
            var category: String?
            if case .toOne(let id?) = row.values[link] { category = names[id] }
            return (text, category)
        }
    }
}
