import Foundation

/// One token of a predicate format string, with its position (in Unicode scalars).
struct PredicateToken {
    enum Kind: Equatable {
        /// A bare name; `escaped` when written `#name` (never a keyword).
        case identifier(String, escaped: Bool)
        /// A function named by Core Data's selector, colons included (`sum:`, `add:to:`), as
        /// in `sum:(amount)`.
        case selector(String)
        case keyword(PredicateKeyword)
        /// `@count`, `@sum`, … (the name without `@`).
        case collectionOperator(String)
        /// `$name` (the name without `$`).
        case variable(String)
        /// A number literal's text, sign excluded.
        case number(String)
        /// A quoted string, escapes resolved.
        case string(String)
        /// `%@`, `%K`, `%d`, `%f`, …
        case argument(PredicateArgumentKind)
        case symbol(PredicateSymbol)
        case end
    }

    let kind: Kind
    /// Offset of the first scalar.
    let start: Int
    /// Offset one past the last scalar.
    let end: Int
}

/// Punctuation and operators.
enum PredicateSymbol: String {
    case leftParen = "("
    case rightParen = ")"
    case leftBrace = "{"
    case rightBrace = "}"
    case leftBracket = "["
    case rightBracket = "]"
    case comma = ","
    case dot = "."
    case plus = "+"
    case minus = "-"
    case star = "*"
    case slash = "/"
    case power = "**"
    case percent = "%%"
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessEqual = "<="
    case greater = ">"
    case greaterEqual = ">="
    case and = "&&"
    case or = "||"
    case bang = "!"
}

/// What a format specifier takes from the argument list.
enum PredicateArgumentKind: Equatable {
    /// `%@`: any supported value.
    case object
    /// `%K`: a key path string.
    case keyPath
    /// `%d %i %u %ld %lld %x %o …`: an integer.
    case integer
    /// `%f %lf %e %g …`: a floating-point number.
    case floatingPoint
}

/// Words with a meaning in the grammar, matched ignoring case. `#word` escapes one as a key.
enum PredicateKeyword: String, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case `in` = "IN"
    case like = "LIKE"
    case matches = "MATCHES"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case between = "BETWEEN"
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
    case some = "SOME"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case `true` = "TRUE"
    case `false` = "FALSE"
    case yes = "YES"
    case no = "NO"
    case `nil` = "NIL"
    case null = "NULL"
    case `self` = "SELF"
    case utiConformsTo = "UTI-CONFORMS-TO"
    case utiEquals = "UTI-EQUALS"

    private static let byUppercasedName: [String: PredicateKeyword] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    /// The keyword spelled `word` in any case, if any.
    static func matching(_ word: String) -> PredicateKeyword? {
        let length = word.utf8.count
        guard length >= 2, length <= 15, let first = word.utf8.first, first < 0x80 else {
            return nil
        }
        return byUppercasedName[word.uppercased()]
    }

    /// Whether `name` must be written `#name` to be read as a key.
    static func isReserved(_ name: String) -> Bool { matching(name) != nil }
}
