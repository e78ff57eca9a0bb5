import Foundation

/// PLACEHOLDER until the predicate-language branch lands.
public struct FetchPredicate: Sendable, Hashable, CustomStringConvertible {
    let format: String
    /// Parses a predicate format string.
    public init(format: String, _ arguments: Any...) throws {
        throw ObjectGraphError(.coreData, "predicate language not built yet: \(format)")
    }
    /// The format string.
    public var description: String { format }
    /// Compiles the predicate for `entity`.
    public func compile(for entity: EntityDescription) throws -> CompiledPredicate {
        CompiledPredicate()
    }
}

/// PLACEHOLDER until the predicate-language branch lands.
public struct CompiledPredicate: Sendable {
    /// Evaluates the predicate.
    public func evaluate<R: PredicateRecord>(_ record: R) -> Bool { true }
}
