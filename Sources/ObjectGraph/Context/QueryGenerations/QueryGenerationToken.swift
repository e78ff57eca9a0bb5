import Foundation

/// A generation of a coordinator's stores, which a context can be pinned to: it then reads the
/// stores as they were at that generation while other contexts save.
///
/// Get one from a pinned context's ``ManagedObjectContext/queryGenerationToken``, or use
/// ``current`` to pin a context to the generation current when it next reads. Tokens compare
/// equal when they stand for the same generation of the same coordinator's stores. A token
/// keeps its generation alive (and what the stores keep for it) as long as it exists.
///
/// ```swift
/// try viewContext.setQueryGenerationFrom(.current)
/// let pinned = viewContext.queryGenerationToken     // after its first fetch
/// try otherContext.setQueryGenerationFrom(pinned)   // both read the same generation
/// ```
///
/// - Note: Mirrors `NSQueryGenerationToken`.
public final class QueryGenerationToken: Hashable, Sendable, CustomStringConvertible {
    /// The pinned generation; `nil` for ``current``.
    let generation: CoordinatorGeneration?

    init(_ generation: CoordinatorGeneration?) {
        self.generation = generation
    }

    /// The token that pins a context to the generation current when it next reads (fetches or
    /// fills a fault).
    ///
    /// - Note: Mirrors `NSQueryGenerationToken.current` (`currentQueryGenerationToken`).
    public static let current = QueryGenerationToken(nil)

    /// Whether both tokens are ``current``, or stand for the same generation of the same
    /// coordinator's stores.
    public static func == (lhs: QueryGenerationToken, rhs: QueryGenerationToken) -> Bool {
        switch (lhs.generation, rhs.generation) {
        case (nil, nil): return true
        case (let a?, let b?):
            return a.domain == b.domain
                && a.stores.map { $0.generation.number } == b.stores.map { $0.generation.number }
                && a.stores.elementsEqual(b.stores) { $0.store === $1.store }
        default: return false
        }
    }

    /// Hashes the coordinator and the generation numbers.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(generation?.domain)
        for entry in generation?.stores ?? [] { hasher.combine(entry.generation.number) }
    }

    /// `current`, or each store's identifier and generation number.
    public var description: String {
        guard let generation else { return "QueryGenerationToken(current)" }
        let stores = generation.stores.map { "\($0.store.identifier)@\($0.generation.number)" }
        return "QueryGenerationToken(\(stores.joined(separator: ", ")))"
    }
}

/// What a root context reads: the stores now, the generation current at its next read, or a
/// pinned generation.
enum QueryGenerationPin {
    /// Not pinned: reads see the latest saves (the default).
    case unpinned
    /// Pinned to the generation current at the next read.
    case current
    /// Pinned to a generation.
    case pinned(CoordinatorGeneration)
}
