import Foundation
import Testing

@testable import ObjectGraph

/// One conformance case: a format string with arguments, the entity it filters, and the
/// labels of the fixture records it must match (see ``PredicateTestGraph``).
struct PredicateCase: Sendable, CustomTestStringConvertible {
    let format: String
    let entity: String
    let arguments: @Sendable (PredicateTestGraph) -> [Any]
    let expected: [String]

    var testDescription: String { "\(entity): \(format)" }
}

/// Every transaction label.
let allTransactions = "t1 t2 t3 t4 t5 t6 t7 t8"

/// A case over transactions; `expected` lists labels separated by spaces.
func T(
    _ format: String, _ expected: String,
    args: @escaping @Sendable (PredicateTestGraph) -> [Any] = { _ in [] }
) -> PredicateCase {
    PredicateCase(
        format: format, entity: "Transaction", arguments: args,
        expected: expected.split(separator: " ").map(String.init))
}

/// A case over categories.
func C(
    _ format: String, _ expected: String,
    args: @escaping @Sendable (PredicateTestGraph) -> [Any] = { _ in [] }
) -> PredicateCase {
    PredicateCase(
        format: format, entity: "Category", arguments: args,
        expected: expected.split(separator: " ").map(String.init))
}

/// A case over tags.
func G(
    _ format: String, _ expected: String,
    args: @escaping @Sendable (PredicateTestGraph) -> [Any] = { _ in [] }
) -> PredicateCase {
    PredicateCase(
        format: format, entity: "Tag", arguments: args,
        expected: expected.split(separator: " ").map(String.init))
}

/// A case over the Transfer subentity.
func X(_ format: String, _ expected: String) -> PredicateCase {
    PredicateCase(
        format: format, entity: "Transfer", arguments: { _ in [] },
        expected: expected.split(separator: " ").map(String.init))
}

/// A format string that must not parse, and the column its error points at.
struct PredicateErrorCase: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: @Sendable () -> [Any]
    let column: Int
    /// `.predicateSyntax`, or `.predicateArgument` for a missing or unusable argument.
    let reason: ObjectGraphError.Reason

    var testDescription: String { "\(format) → column \(column)" }
}

func E(
    _ format: String, column: Int, args: @escaping @Sendable () -> [Any] = { [] },
    reason: ObjectGraphError.Reason = .predicateSyntax
) -> PredicateErrorCase {
    PredicateErrorCase(format: format, arguments: args, column: column, reason: reason)
}

/// A value no predicate can hold.
struct Unsupported {}

/// Every case of the conformance corpus.
enum PredicateCorpus {
    static var all: [PredicateCase] {
        comparisons + numbersAndArguments + dates + strings + patterns + relationships + quantifiers
            + aggregates + arithmetic + functions + logic + otherTypes + keyPathArguments
            + throughNilToOne
    }
}
