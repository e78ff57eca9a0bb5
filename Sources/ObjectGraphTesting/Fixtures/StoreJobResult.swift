import Foundation
import ObjectGraph

/// What a ``LoadJob`` or ``SeedJob`` wrote.
public struct StoreJobResult: Sendable {
    /// The coordinator holding the store written to (release it to close the store).
    public let coordinator: PersistentStoreCoordinator
    /// How many objects of each entity were written (entities with none are absent).
    public let counts: [String: Int]

    /// The store's UUID.
    public var storeIdentifier: String { coordinator.persistentStores.first?.identifier ?? "" }

    /// The number of objects written in all.
    public var totalCount: Int { counts.values.reduce(0, +) }
}
