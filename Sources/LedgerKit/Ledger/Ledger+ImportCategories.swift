import Foundation
import ObjectGraph

extension Ledger {
    /// The category decision for each of `rows`, and the category-column names the ledger
    /// lacks (in order of first use).
    ///
    /// A category cell wins, matched to the ledger's categories as ``category(named:)``
    /// does (an exact name, else the one match ignoring case) and given the ledger's
    /// spelling; a row without one goes to the rules, then to learning.
    ///
    /// - Throws: ``LedgerError`` `.badValue` for a stored rule that no longer compiles;
    ///   store errors.
    /// - Complexity: O(rows × rules + transactions).
    func decide(_ rows: [ImportedRow]) throws
        -> (decisions: [CategoryDecision], missing: [String])
    {
        var categorizer = try categorizer()
        let names = try read { try Self.allCategories(in: $0).compactMap(\.name) }
        let exact = Set(names)
        var folded: [String: [String]] = [:]
        for name in names { folded[name.lowercased(), default: []].append(name) }
        var missing: [String] = []
        // A missing name's first spelling, by its lowercase form: `food` after `Food` is
        // the same new category.
        var missingSpelling: [String: String] = [:]
        let decisions = rows.map { row -> CategoryDecision in
            guard let cell = row.category else {
                return categorizer.decide(payee: row.payee, note: row.note)
            }
            if exact.contains(cell) { return CategoryDecision(category: cell, source: .column) }
            if let matches = folded[cell.lowercased()], matches.count == 1 {
                return CategoryDecision(category: matches[0], source: .column)
            }
            if let spelling = missingSpelling[cell.lowercased()] {
                return CategoryDecision(category: spelling, source: .column)
            }
            missingSpelling[cell.lowercased()] = cell
            missing.append(cell)
            return CategoryDecision(category: cell, source: .column)
        }
        return (decisions, missing)
    }
}
