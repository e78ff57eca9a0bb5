import Foundation
import ObjectGraph

/// The checks every `PersistentStore` must pass, runnable from any test framework.
///
/// ```swift
/// let suite = StoreConformance(name: "InMemory") { model in InMemoryStore(model: model) }
/// @Test(arguments: StoreConformance.checkNames) func conformance(_ check: String) throws {
///     try suite.run(check)
/// }
/// ```
///
/// Each check opens fresh stores with `makeStore` on the ``ConformanceModel`` and throws a
/// ``ConformanceFailure`` saying what differed. When `reopen` is given, checks also close a
/// store and open it again to verify what survives (file stores).
public struct StoreConformance: Sendable {
    /// Opens a new, empty store for `model`.
    public typealias Factory = @Sendable (ManagedObjectModel) throws -> any PersistentStore
    /// Opens the same store again (after closing it) for `model`.
    public typealias Reopen =
        @Sendable (any PersistentStore, ManagedObjectModel) throws -> any PersistentStore

    /// A label for messages.
    public let name: String
    let makeStore: Factory
    let reopen: Reopen?

    /// Creates the suite for one store type.
    public init(name: String, makeStore: @escaping Factory, reopen: Reopen? = nil) {
        self.name = name
        self.makeStore = makeStore
        self.reopen = reopen
    }

    /// The names of every check, for parameterised tests.
    public static var checkNames: [String] { checks.map(\.name) }

    /// Runs the check named `check`.
    ///
    /// - Throws: ``ConformanceFailure`` when the store misbehaves, or the store's own error
    ///   when it fails where it should not.
    public func run(_ check: String) throws {
        guard let body = Self.checks.first(where: { $0.name == check })?.body else {
            throw ConformanceFailure(check: check, message: "no such check")
        }
        try body(Harness(suite: self, check: check))
    }

    /// Runs every check and returns the failures (empty when the store conforms).
    public func runAll() -> [ConformanceFailure] {
        Self.checks.compactMap { check in
            do {
                try run(check.name)
                return nil
            } catch let f as ConformanceFailure { return f } catch {
                return ConformanceFailure(check: check.name, message: "unexpected error: \(error)")
            }
        }
    }
}

/// A failed conformance check: which one, and what differed.
public struct ConformanceFailure: Error, CustomStringConvertible, Sendable {
    /// The check's name.
    public let check: String
    /// What differed.
    public let message: String
    /// `check: message`.
    public var description: String { "\(check): \(message)" }
}
