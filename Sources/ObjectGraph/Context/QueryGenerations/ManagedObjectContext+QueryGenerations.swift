import Foundation

extension ManagedObjectContext {
    /// The query generation the context reads, or `nil` when it reads the latest saves.
    ///
    /// `nil` for an unpinned context (the default), and for every child context (a child
    /// reads through its parent, and so at the parent's generation). A context set to
    /// ``QueryGenerationToken/current`` returns `nil` until it pins a generation at its next
    /// read (a fetch, a count, a fault filled), and again after a save, ``reset()`` or a merge
    /// moves it to the then-current generation. Pass the token to another context's
    /// ``setQueryGenerationFrom(_:)`` to make both read the same generation.
    ///
    /// - Note: Mirrors `queryGenerationToken`.
    public var queryGenerationToken: QueryGenerationToken? {
        checkQueue("queryGenerationToken")
        guard parent == nil, case .pinned(let generation) = queryGenerationPin else { return nil }
        return QueryGenerationToken(generation)
    }

    /// Pins the context to a query generation, moves it to another, or unpins it.
    ///
    /// - `nil` unpins: reads see the latest saves again.
    /// - ``QueryGenerationToken/current`` pins the context to the generation current at its
    ///   next read (a fetch, a count, a fault filled).
    /// - Another context's ``queryGenerationToken`` pins it to that context's generation.
    ///
    /// A pinned context reads the stores as they were at its generation (fetches, counts,
    /// faults, refreshes, batch faulting; its own unsaved changes on top, as always) while
    /// other contexts and coordinators save, until it saves, is reset, merges another save
    /// (``mergeChanges(fromContextDidSave:)``, automatic merges), or is moved. It then pins the
    /// generation current at its next read. Batch requests do not move it. Saving is never
    /// pinned: conflicts are detected against the stores' latest rows. Objects already
    /// registered keep their values: refresh them (``refreshAllObjects()``) or fetch again to
    /// see the new generation. Stores added to the coordinator after the generation are not
    /// read until the context moves. See <doc:QueryGenerations>.
    ///
    /// ```swift
    /// try viewContext.setQueryGenerationFrom(.current)
    /// let before = try viewContext.fetch(Expense.fetchRequest())   // pins here
    /// // … a background context saves …
    /// try viewContext.fetch(Expense.fetchRequest())                // still `before`'s rows
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` — `.queryGenerationsUnsupported` (134091) when one of the
    ///   coordinator's stores keeps no generations, or when the context merges changes
    ///   automatically and the token's generation is no longer current (the pin is unchanged);
    ///   `.queryGenerationMismatch` (134070) for a token of another coordinator (the pin is
    ///   unchanged), or for a token tracking a store removed from the coordinator since (the
    ///   context is then pinned for the other stores).
    /// - Precondition: The context is a root context: setting a generation on a child context
    ///   is a programmer error, as in Core Data.
    /// - Note: Mirrors `setQueryGenerationFrom(_:)`.
    public func setQueryGenerationFrom(_ token: QueryGenerationToken?) throws {
        checkQueue("setQueryGenerationFrom(_:)")
        precondition(
            parent == nil,
            "ObjectGraph: setQueryGenerationFrom(_:) on a child context: child contexts read at "
                + "their parent's generation; pin the parent instead")
        guard let token else {
            queryGenerationPin = .unpinned
            return
        }
        guard let coordinator = persistentStoreCoordinator else {
            throw FetchErrors.noCoordinator("setQueryGenerationFrom(_:)", self)
        }
        if let store = coordinator.storeWithoutQueryGenerations {
            throw QueryGenerationErrors.unsupported(store)
        }
        guard let generation = token.generation else {
            queryGenerationPin = .current
            return
        }
        guard generation.domain == coordinator.generationDomain else {
            throw QueryGenerationErrors.foreign(token)
        }
        if automaticallyMergesChangesFromParent, !isCurrent(generation, coordinator) {
            throw ObjectGraphError(
                .queryGenerationsUnsupported,
                "setQueryGenerationFrom: \(token) is no longer current, and \(self) merges "
                    + "changes automatically (not supported, as in Core Data); turn "
                    + "automaticallyMergesChangesFromParent off first")
        }
        queryGenerationPin = .pinned(generation)
        let open = coordinator.persistentStores
        let removed = generation.stores.filter { entry in !open.contains { $0 === entry.store } }
        if !removed.isEmpty {
            throw QueryGenerationErrors.storesRemoved(removed.map(\.store.identifier))
        }
    }

    // MARK: Internal

    /// The generation this root context reads at, pinning it first when it was set to
    /// ``QueryGenerationToken/current``; `nil` when unpinned.
    ///
    /// A context whose stores cannot pin (a store that keeps no generations was added since
    /// it was set to `.current`) reads unpinned, as Core Data's contexts do on such stores.
    func readGeneration() -> CoordinatorGeneration? {
        switch queryGenerationPin {
        case .unpinned: return nil
        case .pinned(let generation): return generation
        case .current:
            guard let coordinator = persistentStoreCoordinator,
                let generation = try? coordinator.currentQueryGeneration()
            else { return nil }
            queryGenerationPin = .pinned(generation)
            return generation
        }
    }

    /// Moves a pinned context to the generation current at its next read: after a save, a
    /// reset or a merge.
    func advanceQueryGeneration() {
        if case .unpinned = queryGenerationPin { return }
        queryGenerationPin = .current
    }

    /// Where this context's store reads go: the root context's coordinator, at the root
    /// context's generation; with `affected` (a request's `affectedStores`), fetches read only
    /// those stores.
    func storeReader(_ affected: [any PersistentStore]? = nil) -> StoreReader? {
        if let parent { return parent.performAndWait { parent.storeReader(affected) } }
        guard let coordinator = persistentStoreCoordinator else { return nil }
        return StoreReader(
            coordinator: coordinator, generation: readGeneration(),
            stores: identifiers(of: affected))
    }

    /// Traps when automatic merging is turned on while pinned to a generation no longer current.
    func checkAutomaticMergeAllowed() {
        guard case .pinned(let generation) = queryGenerationPin,
            let coordinator = persistentStoreCoordinator
        else { return }
        precondition(
            isCurrent(generation, coordinator), QueryGenerationErrors.automaticMergeWhilePinned)
    }

    /// Whether nothing was saved to the coordinator's stores since `generation`.
    private func isCurrent(
        _ generation: CoordinatorGeneration, _ coordinator: PersistentStoreCoordinator
    ) -> Bool {
        // A store that cannot say (closed) moved nowhere as far as this context can tell.
        guard let now = try? coordinator.currentQueryGeneration() else { return true }
        return QueryGenerationToken(now) == QueryGenerationToken(generation)
    }
}

/// A coordinator read at a generation (or now): what dictionary fetches and the rows they
/// follow read.
struct StoreReader {
    let coordinator: PersistentStoreCoordinator
    let generation: CoordinatorGeneration?
    /// The stores a dictionary fetch reads (its `affectedStores`); `nil` for all. Rows it
    /// follows through relationships are read wherever they are.
    var stores: Set<String>? = nil

    func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
        try coordinator.fetch(request, at: generation, stores: stores)
    }

    func row(for id: ManagedObjectID) throws -> StoreRow? {
        try coordinator.row(for: id, at: generation)
    }

    func relatedObjectIDs(_ relationship: RelationshipDescription, of id: ManagedObjectID) throws
        -> [ManagedObjectID]
    {
        try coordinator.relatedObjectIDs(relationship, of: id, at: generation)
    }
}
