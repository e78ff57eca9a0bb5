import Foundation

/// A filter on objects, kept as data: Core Data's predicate, parsed from its format language.
///
/// A predicate is an immutable syntax tree (``Kind``) of comparisons between
/// ``FetchExpression``s joined by `AND`, `OR` and `NOT`. Stores evaluate it while scanning
/// and contexts evaluate the same tree over unsaved objects; both first ``compile(for:)``
/// it against the fetched entity. The language is described in <doc:PredicateLanguage>.
///
/// ```swift
/// let p = try FetchPredicate(format: "amount > %@ AND category.name ==[c] %@", 10, "food")
/// let q = FetchPredicate.and([p, .comparison(.keyPath("note"), .notEqualTo, .constant(nil))])
/// ```
///
/// ``description`` prints a format string that parses back to an equal predicate. Arguments
/// are converted when the predicate is created (see ``init(format:argumentArray:)``), so a
/// predicate is `Sendable` and holds no references to objects.
///
/// - Note: Mirrors `NSPredicate` with `NSCompoundPredicate` and `NSComparisonPredicate`.
public struct FetchPredicate: Sendable, Hashable {
    /// The tree node this predicate is.
    public let kind: Kind

    /// The shape of a predicate node.
    ///
    /// - Note: Mirrors `NSCompoundPredicate.LogicalType` plus `NSComparisonPredicate` and the
    ///   true and false predicates.
    public indirect enum Kind: Sendable, Hashable {
        /// Always true: `TRUEPREDICATE`.
        case truePredicate
        /// Always false: `FALSEPREDICATE`.
        case falsePredicate
        /// True when every subpredicate is true (evaluated left to right, stopping early).
        case and([FetchPredicate])
        /// True when any subpredicate is true (evaluated left to right, stopping early).
        case or([FetchPredicate])
        /// The negation of the subpredicate.
        case not(FetchPredicate)
        /// A comparison of two expressions.
        case comparison(Comparison)
    }

    /// Creates a predicate from its node.
    public init(_ kind: Kind) { self.kind = kind }

    /// The predicate that matches everything: `TRUEPREDICATE`.
    ///
    /// - Note: Mirrors `NSPredicate(value: true)`.
    public static let truePredicate = FetchPredicate(.truePredicate)

    /// The predicate that matches nothing: `FALSEPREDICATE`.
    ///
    /// - Note: Mirrors `NSPredicate(value: false)`.
    public static let falsePredicate = FetchPredicate(.falsePredicate)

    /// A conjunction of `subpredicates`: `TRUEPREDICATE` when empty, the predicate itself
    /// when there is one.
    ///
    /// - Note: Mirrors `NSCompoundPredicate(andPredicateWithSubpredicates:)`.
    public static func and(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        switch subpredicates.count {
        case 0: .truePredicate
        case 1: subpredicates[0]
        default: FetchPredicate(.and(subpredicates))
        }
    }

    /// A disjunction of `subpredicates`: `FALSEPREDICATE` when empty, the predicate itself
    /// when there is one.
    ///
    /// - Note: Mirrors `NSCompoundPredicate(orPredicateWithSubpredicates:)`.
    public static func or(_ subpredicates: [FetchPredicate]) -> FetchPredicate {
        switch subpredicates.count {
        case 0: .falsePredicate
        case 1: subpredicates[0]
        default: FetchPredicate(.or(subpredicates))
        }
    }

    /// The negation of `predicate`.
    ///
    /// - Note: Mirrors `NSCompoundPredicate(notPredicateWithSubpredicate:)`.
    public static func not(_ predicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate(.not(predicate))
    }

    /// A comparison of two expressions.
    ///
    /// ```swift
    /// FetchPredicate.comparison(.keyPath("name"), .beginsWith, .constant("Gro"),
    ///                           options: .caseInsensitive)
    /// ```
    ///
    /// - Parameters:
    ///   - left: The expression on the left, usually a key path.
    ///   - operatorType: How the two sides compare.
    ///   - right: The expression on the right, usually a constant.
    ///   - modifier: `.any` or `.all` quantify over a collection on the left; default `.direct`.
    ///   - options: Case and diacritic folding for string comparisons; default none.
    /// - Note: Mirrors `NSComparisonPredicate(leftExpression:rightExpression:modifier:type:options:)`.
    public static func comparison(
        _ left: FetchExpression, _ operatorType: Operator, _ right: FetchExpression,
        modifier: Modifier = .direct, options: Options = []
    ) -> FetchPredicate {
        FetchPredicate(
            .comparison(Comparison(left, operatorType, right, modifier: modifier, options: options))
        )
    }
}

extension FetchPredicate {
    /// A comparison node: two expressions, an operator, a quantifier and string options.
    ///
    /// - Note: Mirrors `NSComparisonPredicate`.
    public struct Comparison: Sendable, Hashable {
        /// The left operand (Core Data's `leftExpression`).
        public let left: FetchExpression
        /// The right operand (Core Data's `rightExpression`).
        public let right: FetchExpression
        /// What is compared.
        public let operatorType: Operator
        /// Whether the left operand is quantified (`ANY`, `ALL`); `NONE` is `NOT ANY`.
        public let modifier: Modifier
        /// Case and diacritic folding for string operands.
        public let options: Options

        /// Creates a comparison node.
        public init(
            _ left: FetchExpression, _ operatorType: Operator, _ right: FetchExpression,
            modifier: Modifier = .direct, options: Options = []
        ) {
            self.left = left
            self.right = right
            self.operatorType = operatorType
            self.modifier = modifier
            self.options = options
        }
    }

    /// A comparison operator.
    ///
    /// - Note: Mirrors `NSComparisonPredicate.Operator` (without `customSelector`).
    public enum Operator: String, Sendable, Hashable, CaseIterable {
        /// `<`
        case lessThan = "<"
        /// `<=` (also written `=<`)
        case lessThanOrEqualTo = "<="
        /// `>`
        case greaterThan = ">"
        /// `>=` (also written `=>`)
        case greaterThanOrEqualTo = ">="
        /// `==` (also written `=`)
        case equalTo = "=="
        /// `!=` (also written `<>`)
        case notEqualTo = "!="
        /// `MATCHES`: the left string matches the right regular expression in full.
        case matches = "MATCHES"
        /// `LIKE`: the left string matches the right pattern (`*` any run, `?` one character).
        case like = "LIKE"
        /// `BEGINSWITH`
        case beginsWith = "BEGINSWITH"
        /// `ENDSWITH`
        case endsWith = "ENDSWITH"
        /// `IN`: the left value is an element of the right collection, or a substring of the
        /// right string.
        case `in` = "IN"
        /// `CONTAINS`: the left string contains the right one, or the left collection contains
        /// the right value.
        case contains = "CONTAINS"
        /// `BETWEEN`: the left value lies within `{lower, upper}`, both ends included.
        case between = "BETWEEN"
    }

    /// How the left operand of a comparison is quantified.
    ///
    /// - Note: Mirrors `NSComparisonPredicate.Modifier`.
    public enum Modifier: String, Sendable, Hashable, CaseIterable {
        /// Compare the left value itself (a to-many key path still means `ANY`).
        case direct = ""
        /// `ALL`: every element of the left collection satisfies the comparison.
        case all = "ALL"
        /// `ANY` (or `SOME`): at least one element satisfies the comparison.
        case any = "ANY"
    }

    /// String comparison options, written `[c]`, `[d]`, `[cd]`, `[n]` after the operator.
    ///
    /// - Note: Mirrors `NSComparisonPredicate.Options`.
    public struct Options: OptionSet, Sendable, Hashable {
        /// The bits.
        public let rawValue: Int
        /// Wraps bits.
        public init(rawValue: Int) { self.rawValue = rawValue }
        /// `[c]`: ignore case.
        public static let caseInsensitive = Options(rawValue: 1)
        /// `[d]`: ignore diacritics.
        public static let diacriticInsensitive = Options(rawValue: 2)
        /// `[n]`: operands are already normalised; compared exactly, as without options.
        public static let normalized = Options(rawValue: 4)
    }
}
