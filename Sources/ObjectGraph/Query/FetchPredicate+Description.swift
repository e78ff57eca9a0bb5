import Foundation

extension FetchPredicate: CustomStringConvertible {
    /// The predicate in the format language; parsing it gives back an equal predicate.
    ///
    /// Strings are double-quoted, values without a literal form are written as `CAST`s
    /// (dates as seconds since 2001-01-01), nested `AND`/`OR` are parenthesised, and `NONE`
    /// is written `NOT ANY`. An `AND` or `OR` with fewer than two subpredicates, which only
    /// code can build, prints as its meaning.
    ///
    /// - Note: Mirrors `NSPredicate.predicateFormat`.
    public var description: String {
        switch kind {
        case .truePredicate: return "TRUEPREDICATE"
        case .falsePredicate: return "FALSEPREDICATE"
        case .and(let items): return compound(items, joiner: " AND ", empty: "TRUEPREDICATE")
        case .or(let items): return compound(items, joiner: " OR ", empty: "FALSEPREDICATE")
        case .not(let inner): return "NOT " + inner.operandText
        case .comparison(let c): return c.description
        }
    }

    private func compound(_ items: [FetchPredicate], joiner: String, empty: String) -> String {
        if items.isEmpty { return empty }
        if items.count == 1 { return items[0].description }
        return items.map(\.operandText).joined(separator: joiner)
    }

    /// The predicate as an operand of AND, OR or NOT: compounds in parentheses.
    private var operandText: String {
        switch kind {
        case .and(let items) where items.count > 1: "(\(description))"
        case .or(let items) where items.count > 1: "(\(description))"
        default: description
        }
    }
}

extension FetchPredicate.Comparison: CustomStringConvertible {
    /// The comparison in the format language, e.g. `ANY tags.name ==[c] "home"`.
    public var description: String {
        var text = ""
        switch modifier {
        case .direct: break
        case .any: text = "ANY "
        case .all: text = "ALL "
        }
        var letters = ""
        if options.contains(.caseInsensitive) { letters += "c" }
        if options.contains(.diacriticInsensitive) { letters += "d" }
        if options.contains(.normalized) { letters += "n" }
        let op = operatorType.rawValue + (letters.isEmpty ? "" : "[\(letters)]")
        return text + left.description + " " + op + " " + right.description
    }
}
