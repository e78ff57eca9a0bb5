import Foundation

/// A built-in function of the predicate language: arithmetic, math, statistics over a
/// collection, string case, bitwise operations, indexing and casts.
///
/// Operators are functions too: `a + b` is `.add` with two arguments. In a format string a
/// function is called by its ``name`` (`abs(x)`, `sum({1, 2})`, `now()`); `rawValue` is
/// Core Data's selector name. Numbers follow the coercion rules of comparisons: integers
/// stay integers while exact, decimals stay decimals, and any double makes the result a
/// double. Results that do not exist (division by zero, `sqrt` of a negative, an index out
/// of range, an argument of the wrong type) are `nil`.
///
/// - Note: Mirrors the functions of `NSExpression(forFunction:arguments:)`.
public enum FetchFunction: String, Sendable, Hashable, CaseIterable {
    /// `a + b`; a date plus seconds is a date.
    case add = "add:to:"
    /// `a - b`; a date minus seconds is a date, a date minus a date is seconds.
    case subtract = "from:subtract:"
    /// `a * b`.
    case multiply = "multiply:by:"
    /// `a / b`; integers divide exactly into a decimal when the quotient is not whole.
    case divide = "divide:by:"
    /// `a %% b` or `modulus(a, b)`: the remainder, with the sign of `a`.
    case modulus = "modulus:by:"
    /// `a ** b` or `raise(a, b)`.
    case power = "raise:toPower:"
    /// `-a`.
    case negate = "negate:"
    /// `abs(x)`.
    case abs = "abs:"
    /// `sqrt(x)`, a double.
    case sqrt = "sqrt:"
    /// `floor(x)`.
    case floor = "floor:"
    /// `ceiling(x)`.
    case ceiling = "ceiling:"
    /// `trunc(x)`: rounds toward zero.
    case trunc = "trunc:"
    /// `round(x, scale)`: `x` rounded to `scale` decimal places (a whole number; negative
    /// rounds to tens, hundreds, …), halves away from zero: `round(2.345, 2)` is `2.35`,
    /// `round(-2.345, 2)` is `-2.35`. Decimals round exactly; doubles round their binary
    /// value. Core Data's `NSExpression` has no rounding function: this one is named in its
    /// selector style, after `NSDecimalNumberHandler`'s `scale` and its `.plain` mode.
    case round = "round:toScale:"
    /// `exp(x)`: e to the x, a double.
    case exp = "exp:"
    /// `ln(x)`: the natural logarithm, a double.
    case ln = "ln:"
    /// `log(x)`: the base-10 logarithm, a double.
    case log = "log:"
    /// `sum(c)`: the sum of a collection's non-nil numbers (0 when there are none).
    case sum = "sum:"
    /// `count(c)`: the number of elements of a collection.
    case count = "count:"
    /// `min(c)`: the smallest non-nil element, or nil.
    case min = "min:"
    /// `max(c)`: the largest non-nil element, or nil.
    case max = "max:"
    /// `average(c)`: the mean of the non-nil numbers, or nil.
    case average = "average:"
    /// `median(c)`: the middle non-nil number (mean of the two middle ones), or nil.
    case median = "median:"
    /// `mode(c)`: the most frequent non-nil values, as a collection.
    case mode = "mode:"
    /// `stddev(c)`: the population standard deviation of the non-nil numbers, or nil.
    case stddev = "stddev:"
    /// `lowercase(s)`.
    case lowercase = "lowercase:"
    /// `uppercase(s)`.
    case uppercase = "uppercase:"
    /// `bitwiseAnd(a, b)` on integers.
    case bitwiseAnd = "bitwiseAnd:with:"
    /// `bitwiseOr(a, b)` on integers.
    case bitwiseOr = "bitwiseOr:with:"
    /// `bitwiseXor(a, b)` on integers.
    case bitwiseXor = "bitwiseXor:with:"
    /// `leftshift(a, n)` on integers.
    case leftShift = "leftshift:by:"
    /// `rightshift(a, n)` on integers.
    case rightShift = "rightshift:by:"
    /// `onesComplement(a)` on integers.
    case onesComplement = "onesComplement:"
    /// `now()`: the current date, read once when the predicate is compiled.
    case now = "now"
    /// `noindex(x)`: `x` itself (a hint for SQL stores; no effect here).
    case noIndex = "noindex:"
    /// `CAST(x, "Type")`: converts `x` to `NSNumber`, `NSDecimalNumber`, `NSString`,
    /// `NSDate`, `NSUUID`, `NSURL`, `NSData`, `Double` or `Float` (see the language guide).
    case cast = "castObject:toType:"
    /// `c[i]`: the element at a zero-based index of an ordered collection.
    case index = "objectFrom:withIndex:"
    /// `c[FIRST]`: the first element.
    case first = "first:"
    /// `c[LAST]`: the last element.
    case last = "last:"
    /// `c[SIZE]`: the number of elements.
    case size = "size:"

    /// The name used to call the function in a format string (`abs`, `sum`, `now`, …),
    /// or `nil` for operators and indexing, which have their own syntax.
    public var name: String? {
        switch self {
        case .add, .subtract, .multiply, .divide, .negate, .index, .first, .last, .size, .cast: nil
        case .power: "raise"
        case .leftShift: "leftshift"
        case .rightShift: "rightshift"
        case .noIndex: "noindex"
        default: String(rawValue.prefix { $0 != ":" })
        }
    }

    /// How many arguments the function takes.
    public var arity: Int {
        switch self {
        case .now: 0
        case .add, .subtract, .multiply, .divide, .modulus, .power, .round, .bitwiseAnd,
            .bitwiseOr, .bitwiseXor, .leftShift, .rightShift, .cast, .index:
            2
        default: 1
        }
    }

    /// The function called `name` in a format string, ignoring case.
    static func named(_ name: String) -> FetchFunction? {
        let lower = name.lowercased()
        return allCases.first { $0.name?.lowercased() == lower }
    }
}

extension FetchFunction {
    /// Whether the function reduces a collection to one value (`sum`, `count`, `min`, `max`,
    /// `average`, `median`, `stddev`).
    public var isAggregate: Bool {
        switch self {
        case .sum, .count, .min, .max, .average, .median, .stddev: true
        default: false
        }
    }

    /// The function applied to a collection of values, with the semantics of `@sum`,
    /// `@avg`, … in predicates: nil values are skipped (except by `count`), the sum of
    /// nothing is 0, and the other aggregates of nothing are `.null`.
    ///
    /// ```swift
    /// FetchFunction.sum.aggregate([.decimal(12.5), .null, .integer(3)])   // .decimal(15.5)
    /// ```
    ///
    /// Use it to compute `propertiesToFetch` expressions over groups of rows.
    ///
    /// - Returns: The result, or `nil` when the function is not an aggregate (``isAggregate``).
    /// - Complexity: O(n), O(n log n) for `median`.
    public func aggregate(_ values: [AttributeValue]) -> AttributeValue? {
        guard isAggregate else { return nil }
        return PredicateStatistics.apply(self, values)
    }
}
