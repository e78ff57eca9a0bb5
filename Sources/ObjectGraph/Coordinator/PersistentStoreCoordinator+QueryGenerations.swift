import Foundation

/// What a query generation token pins: one generation of each store a coordinator had then.
///
/// - Note: Stands for the inside of `NSQueryGenerationToken`, whose generations are tracked
///   across the union of stores.
final class CoordinatorGeneration: Sendable {
    /// The coordinator's ``PersistentStoreCoordinator/generationDomain``.
    let domain: UUID
    /// Each store the coordinator had when pinned, with its pinned generation.
    let stores: [(store: any PersistentStore, generation: any PersistentStoreGeneration)]

    init(
        domain: UUID,
        stores: [(store: any PersistentStore, generation: any PersistentStoreGeneration)]
    ) {
        self.domain = domain
        self.stores = stores
    }

    /// The generation of `store`, when this generation tracks it.
    func generation(of store: any PersistentStore) -> (any PersistentStoreGeneration)? {
        stores.first { $0.store === store }?.generation
    }
}

/// One source of rows a fetch reads: a store now, or a store's pinned generation.
struct StoreRowSource {
    let identifier: String
    let fetch: (StoreFetchRequest) throws -> [StoreRow]
    let count: (StoreFetchRequest) throws -> Int
    let row: (ManagedObjectID) throws -> StoreRow?
    let related: (RelationshipDescription, ManagedObjectID) throws -> [ManagedObjectID]

    init(_ store: any PersistentStore) {
        identifier = store.identifier
        fetch = store.fetch
        count = store.count
        row = store.row
        related = store.relatedObjectIDs
    }

    init(_ generation: any PersistentStoreGeneration) {
        identifier = generation.storeIdentifier
        fetch = generation.fetch
        count = generation.count
        row = generation.row
        related = generation.relatedObjectIDs
    }
}

extension PersistentStoreCoordinator {
    /// Pins the current generation of every store, in one step with respect to saves.
    ///
    /// - Throws: `.queryGenerationsUnsupported` (134091) naming the first store that keeps no
    ///   generations; a store's error.
    func currentQueryGeneration() throws -> CoordinatorGeneration {
        try locked {
            let open = persistentStores
            for store in open where !store.supportsQueryGenerations {
                throw QueryGenerationErrors.unsupported(store)
            }
            return CoordinatorGeneration(
                domain: generationDomain,
                stores: try open.map { ($0, try $0.currentQueryGeneration()) })
        }
    }

    /// The first store that keeps no query generations, if any.
    var storeWithoutQueryGenerations: (any PersistentStore)? {
        persistentStores.first { !$0.supportsQueryGenerations }
    }

    /// Where reads go: every open store now or, at `generation`, the pinned generation of each
    /// open store it tracks (stores added since, and stores removed since, are not read).
    /// With `only` (store identifiers), only those stores are read.
    func readers(at generation: CoordinatorGeneration?, only: Set<String>? = nil)
        -> [StoreRowSource]
    {
        var open = persistentStores
        if let only { open = open.filter { only.contains($0.identifier) } }
        guard let generation else { return open.map(StoreRowSource.init) }
        return open.compactMap { store in generation.generation(of: store).map(StoreRowSource.init)
        }
    }
}
