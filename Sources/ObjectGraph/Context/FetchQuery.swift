import Foundation

/// The parts of a fetch request a context needs, as plain data.
struct FetchQuery {
    var entity: EntityDescription
    var predicate: FetchPredicate?
    var sortDescriptors: [FetchSortDescriptor]
    var fetchLimit: Int
    var fetchOffset: Int
    var includesSubentities: Bool
    var includesPendingChanges: Bool
    var returnsObjectsAsFaults = false
    var fetchBatchSize = 0
    /// Whether fetched rows' values are kept for the objects (`includesPropertyValues`).
    var includesPropertyValues = true
    /// Whether registered objects take the fetched rows' values
    /// (`shouldRefreshRefetchedObjects`).
    var refreshesRefetchedObjects = false
    /// The identifiers of the stores read (`affectedStores`); `nil` for every store.
    var stores: Set<String>?

    init<R>(_ request: FetchRequest<R>, entity: EntityDescription) {
        self.entity = entity
        self.predicate = request.predicate
        self.sortDescriptors = request.sortDescriptors
        self.fetchLimit = request.fetchLimit
        self.fetchOffset = request.fetchOffset
        self.includesSubentities = request.includesSubentities
        self.includesPendingChanges = request.includesPendingChanges
        self.returnsObjectsAsFaults = request.returnsObjectsAsFaults
        self.fetchBatchSize = max(0, request.fetchBatchSize)
        self.includesPropertyValues = request.includesPropertyValues
        self.refreshesRefetchedObjects = request.shouldRefreshRefetchedObjects
        self.stores = identifiers(of: request.affectedStores)
    }

    init(request: StoreFetchRequest, stores: Set<String>? = nil) {
        self.entity = request.entity
        self.predicate = request.predicate
        self.sortDescriptors = request.sortDescriptors
        self.fetchLimit = request.fetchLimit
        self.fetchOffset = request.fetchOffset
        self.includesSubentities = request.includesSubentities
        self.includesPendingChanges = true
        self.stores = stores
    }

    var storeRequest: StoreFetchRequest {
        StoreFetchRequest(
            entity: entity, predicate: predicate, sortDescriptors: sortDescriptors,
            fetchLimit: fetchLimit, fetchOffset: fetchOffset,
            includesSubentities: includesSubentities)
    }

    func matchesEntity(_ e: EntityDescription) -> Bool {
        includesSubentities ? e.isKind(of: entity) : e === entity
    }
}
