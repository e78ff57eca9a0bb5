import Foundation

extension ManagedObjectContext {
    /// The objects (or IDs, dictionaries, count) matching `request`.
    ///
    /// For object, ID and count results, unsaved changes count (unless
    /// `includesPendingChanges` is false): inserted objects that match are included, deleted
    /// ones left out, and changed ones judged by their current values. With pending changes
    /// and an offset or limit, stored and unsaved objects are sorted together before the
    /// window is applied. Dictionary results, aggregates included, reflect the persistent
    /// store alone: never this context's unsaved changes, nor a parent context's.
    ///
    /// Once executed, a request made with an entity name has its ``FetchRequest/entity``
    /// set.
    ///
    /// - Throws: ``ObjectGraphError`` (134060) — ``ObjectGraphError/Reason/unknownEntity``,
    ///   ``ObjectGraphError/Reason/noEntityForClass`` for a request found by a class no entity
    ///   uses, a predicate's or sort key's reason when it does not fit the entity,
    ///   ``ObjectGraphError/Reason/resultTypeMismatch``,
    ///   ``ObjectGraphError/Reason/invalidFetchRequest``; store errors.
    /// - Complexity: O(n) in the entity's rows to filter, plus sorting the matches.
    /// - Note: Mirrors `fetch(_:)`.
    public func fetch<Result>(_ request: FetchRequest<Result>) throws -> [Result] {
        var rows: [StoreRow]?
        return try fetch(request, rows: &rows)
    }

    /// ``fetch(_:)``, handing over the rows the objects were made from when the result holds
    /// exactly the upstream rows in order (objects, no pending changes of the fetched
    /// entities, no Foundation filters); `rows` is left `nil` otherwise. A fetched results
    /// controller reads sort and section keys from them without touching the objects.
    func fetch<Result>(_ request: FetchRequest<Result>, rows handedOver: inout [StoreRow]?)
        throws -> [Result]
    {
        checkQueue("fetch(_:)")
        let entity = try resolveEntity(request)
        if request.entity == nil { request.entity = entity }
        let query = FetchQuery(request, entity: entity)
        if request.resultType != .dictionaryResultType,
            request.propertiesToGroupBy != nil || request.havingPredicate != nil
        {
            throw DictionaryFetchErrors.groupingWithoutDictionaries(entity: entity)
        }
        if request.swiftPredicate != nil || !request.swiftSortDescriptors.isEmpty {
            return try fetchWithFoundationFilters(request, query)
        }
        let results: [Any]
        switch request.resultType {
        case .countResultType:
            results = [try count(query)]
        case .managedObjectIDResultType:
            results = try matchingIDs(query)
        case .dictionaryResultType:
            results = try DictionaryFetch(request, entity: entity).run(
                storeReader(request.affectedStores))
        case .managedObjectResultType:
            let found = try objects(query, rows: &handedOver)
            try prefetch(request.relationshipKeyPathsForPrefetching, for: found)
            keepForEvent(found)
            return try typed(found, request, entity)
        }
        var typed: [Result] = []
        typed.reserveCapacity(results.count)
        for item in results {
            guard let value = item as? Result else {
                throw FetchErrors.resultTypeMismatch(
                    "\(request)", gives: type(of: item), wanted: Result.self, entity: entity.name)
            }
            typed.append(value)
        }
        return typed
    }

    /// Fetched objects as `Result`s: an object whose class is `Result` itself is passed on
    /// as it is, any other through a dynamic cast (a subentity's class, a protocol), which
    /// throws when it fails. The cast is what converting to `Result` costs otherwise, for
    /// every object of a large fetch.
    private func typed<Result>(
        _ objects: [ManagedObject], _ request: FetchRequest<Result>, _ entity: EntityDescription
    ) throws -> [Result] {
        if Result.self == ManagedObject.self {
            return unsafeBitCast(objects, to: [Result].self)
        }
        let exact = ObjectIdentifier(Result.self)
        // All of `Result`'s own class (a fetch of one entity without subentities): the array
        // is already one of `Result`s (class references either way); appending each through
        // the generic path cost ≈ 130 instructions an object.
        if objects.allSatisfy({ ObjectIdentifier(type(of: $0)) == exact }) {
            return unsafeBitCast(objects, to: [Result].self)
        }
        var typed: [Result] = []
        typed.reserveCapacity(objects.count)
        for object in objects {
            if ObjectIdentifier(type(of: object)) == exact {
                typed.append(unsafeBitCast(object, to: Result.self))
            } else if let value = object as? Result {
                typed.append(value)
            } else {
                throw FetchErrors.resultTypeMismatch(
                    "\(request)", gives: type(of: object), wanted: Result.self,
                    entity: entity.name)
            }
        }
        return typed
    }

    /// Objects filtered and sorted by Foundation's `Predicate` and `SortDescriptor`, then windowed.
    private func fetchWithFoundationFilters<Result>(
        _ request: FetchRequest<Result>, _ q: FetchQuery
    ) throws -> [Result] {
        guard
            request.resultType == .managedObjectResultType || request.resultType == .countResultType
                || request.resultType == .managedObjectIDResultType
        else {
            throw FetchErrors.invalid(
                "swiftPredicate and swiftSortDescriptors work with object, ID and count "
                    + "results, not dictionaries", entity: q.entity.name)
        }
        var unwindowed = q
        unwindowed.fetchLimit = 0
        unwindowed.fetchOffset = 0
        var typed: [(ManagedObject, Result)] = []
        for object in try objects(unwindowed) {
            guard let value = object as? Result else {
                throw FetchErrors.resultTypeMismatch(
                    "\(request)", gives: type(of: object), wanted: Result.self,
                    entity: q.entity.name)
            }
            if let predicate = request.swiftPredicate, try !predicate.evaluate(value) { continue }
            typed.append((object, value))
        }
        typed = typed.sorted(by: request.swiftSortDescriptors) { descriptor, a, b in
            descriptor.compare(a.1, b.1)
        }
        let windowed = window(typed, offset: q.fetchOffset, limit: q.fetchLimit)
        if request.resultType == .managedObjectResultType { keepForEvent(windowed.map(\.0)) }
        switch request.resultType {
        case .countResultType: return [windowed.count as! Result]
        case .managedObjectIDResultType:
            return try windowed.map { pair in
                guard let id = pair.0.objectID as? Result else {
                    throw FetchErrors.resultTypeMismatch(
                        "\(request)", gives: ManagedObjectID.self, wanted: Result.self,
                        entity: q.entity.name)
                }
                return id
            }
        default: return windowed.map(\.1)
        }
    }

    /// Fills the objects that `keyPaths` reach from `objects` (to-one and to-many steps).
    func prefetch(_ keyPaths: [String], for objects: [ManagedObject]) throws {
        for keyPath in keyPaths {
            var current = objects
            for key in keyPath.split(separator: ".").map(String.init) {
                var next: [ManagedObject] = []
                var seen = Set<ObjectIdentifier>()
                for object in current {
                    guard let r = object.entity.relationshipsByName[key] else {
                        throw FetchErrors.invalid(
                            "cannot prefetch \(keyPath): \(object.entity.name) has no "
                                + "relationship '\(key)'", entity: object.entity.name, key: key)
                    }
                    let targets =
                        r.isToMany ? object.related(r) : object.toOne(r).map { [$0] } ?? []
                    for t in targets where seen.insert(ObjectIdentifier(t)).inserted {
                        next.append(t)
                    }
                }
                for t in next where t.isFault { t.fireFault() }
                current = next
            }
        }
    }

    /// The number of objects `request` would return.
    ///
    /// - Throws: as ``fetch(_:)``.
    /// - Note: Mirrors `count(for:)`.
    public func count<Result>(for request: FetchRequest<Result>) throws -> Int {
        checkQueue("count(for:)")
        let entity = try resolveEntity(request)
        if request.entity == nil { request.entity = entity }
        if request.resultType == .dictionaryResultType {
            return try DictionaryFetch(request, entity: entity).run(
                storeReader(request.affectedStores)
            )
            .count
        }
        return try count(FetchQuery(request, entity: entity))
    }

    func resolveEntity<Result>(_ request: FetchRequest<Result>) throws -> EntityDescription {
        if let entity = request.entity, entity.managedObjectModel === model { return entity }
        if let name = request.entityName ?? request.entity?.name {
            guard let entity = model.entitiesByName[name] else {
                throw FetchErrors.unknownEntity("fetch", name)
            }
            // A subclass not yet bound to a model read from a file binds by name now, as
            // `init(context:)` would (the Xcode-generated `fetchRequest()` names its entity).
            if let type = Result.self as? ManagedObject.Type, type != ManagedObject.self,
                entity.managedObjectClass == ManagedObject.self
            {
                _ = model.entity(forClass: type)
            }
            return entity
        }
        guard let type = Result.self as? ManagedObject.Type else {
            throw FetchErrors.noEntity(request: "\(request)", Result.self)
        }
        switch model.entity(forClass: type) {
        case .success(let entity): return entity
        case .failure(let failure): throw FetchErrors.noEntity(request: "\(request)", failure)
        }
    }

    // MARK: Core

    /// Pending objects of the fetched entities (changed, inserted or deleted here).
    private func pendingObjects(_ q: FetchQuery) -> [ManagedObject] {
        guard q.includesPendingChanges else { return [] }
        guard let stores = q.stores else {
            return pending.objects.filter { q.matchesEntity($0.entity) && $0.hasChanges }
        }
        return pending.objects.filter {
            q.matchesEntity($0.entity) && $0.hasChanges
                && storeIdentifier(of: $0).map(stores.contains) == true
        }
    }

    /// The store `object` lives in, or for an unsaved one the store it will be saved to
    /// (``assign(_:to:)``'s choice, else the coordinator's now); `nil` when none would take it.
    func storeIdentifier(of object: ManagedObject) -> String? {
        if let identifier = object.objectID.storeIdentifier { return identifier }
        if let assigned = assignedStores[object.objectID] { return assigned }
        return (try? persistentStoreCoordinator?.store(for: object.entity))?.identifier
    }

    /// The matching rows one level up, as seen from here: store rows for a root context,
    /// the parent's current objects (its own changes included) for a child.
    func upstreamRows(_ q: FetchQuery, windowed: Bool) throws -> [StoreRow] {
        var request = q.storeRequest
        if !windowed {
            request.fetchLimit = 0
            request.fetchOffset = 0
        }
        if let parent {
            return try parent.performAndWait {
                try parent.rowsForChild(
                    request, includesPendingChanges: q.includesPendingChanges, stores: q.stores)
            }
        }
        guard let coordinator = persistentStoreCoordinator else { return [] }
        return try coordinator.fetch(request, at: readGeneration(), stores: q.stores)
    }

    /// This context's answer for a child's fetch, as rows (of `stores` only, when given).
    func rowsForChild(
        _ request: StoreFetchRequest, includesPendingChanges: Bool, stores: Set<String>? = nil
    ) throws -> [StoreRow] {
        var q = FetchQuery(request: request, stores: stores)
        q.includesPendingChanges = includesPendingChanges
        return try objects(q).map { $0.currentRow() }
    }

    /// The matching objects, in order, windowed.
    func objects(_ q: FetchQuery) throws -> [ManagedObject] {
        var rows: [StoreRow]?
        return try objects(q, rows: &rows)
    }

    /// The matching objects, in order, windowed; `rows` receives the upstream rows they were
    /// made from, one per object, when there are no pending changes to merge in.
    func objects(_ q: FetchQuery, rows handedOver: inout [StoreRow]?) throws -> [ManagedObject] {
        if propagatesDeletesAtEndOfEvent { propagateDeletes() }
        let local = pendingObjects(q)
        if local.isEmpty {
            let rows = try upstreamRows(q, windowed: true)
            handedOver = rows
            return adoptAll(rows, q)
        }
        let changed = Set(local.map(\.objectID))
        var result: [ManagedObject] = []
        for row in try upstreamRows(q, windowed: false) {
            guard !changed.contains(row.objectID) else {
                if q.refreshesRefetchedObjects, let object = registry[row.objectID],
                    !object.isDeleted, object.hasValues
                {
                    refetched(object, row)
                }
                continue
            }
            result.append(adopt(row, q))
        }
        let predicate = try q.predicate?.compile(for: q.entity)
        for object in local where !object.isDeleted {
            if let predicate, !predicate.evaluate(ObjectRecord(object)) { continue }
            result.append(object)
        }
        result = try sortObjects(result, q)
        return window(result, offset: q.fetchOffset, limit: q.fetchLimit)
    }

    func matchingIDs(_ q: FetchQuery) throws -> [ManagedObjectID] {
        if pendingObjects(q).isEmpty { return try upstreamRows(q, windowed: true).map(\.objectID) }
        return try objects(q).map(\.objectID)
    }

    private func count(_ q: FetchQuery) throws -> Int {
        if pendingObjects(q).isEmpty, parent == nil, let coordinator = persistentStoreCoordinator {
            return try coordinator.count(q.storeRequest, at: readGeneration(), stores: q.stores)
        }
        return try objects(q).count
    }

    /// The registered objects for fetched rows. Objects not loaded yet come back as faults whose
    /// row is kept for when they fire (or, with a batch size, whose batch is filled together);
    /// with `returnsObjectsAsFaults` false they are filled at once, and with
    /// `includesPropertyValues` false nothing is kept (each fault reads its row when it fires).
    /// Objects already loaded keep their values unless `shouldRefreshRefetchedObjects` asks.
    func adoptAll(_ rows: [StoreRow], _ q: FetchQuery) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        objects.reserveCapacity(rows.count)
        let batchSize = q.fetchBatchSize
        if rows.count > 64 {
            // Grow the registry once, not by doubling.
            registry.reserveCapacity(registry.count + rows.count)
        }
        var batch: [ManagedObject] = []
        // Each row's fields read in place: binding each row (`for row in rows`) copied it, a
        // retain and a release of its ID's scope and of its values per row, ≈ 90 instructions
        // of a fault's ≈ 1,000.
        rows.withUnsafeBufferPointer { rows in
            for i in rows.indices {
                let object = registeredOrFaultInline(rows[i].objectID)
                if object.hasValues {
                    if q.refreshesRefetchedObjects { refetched(object, rows[i]) }
                } else if !q.includesPropertyValues {
                    // IDs only: the fault reads its row when it fires.
                } else if !q.returnsObjectsAsFaults {
                    fill(object, values: rows[i].values, version: rows[i].version)
                } else if batchSize > 0 {
                    object.snapshotVersion = rows[i].version
                    batch.append(object)
                    if batch.count == batchSize { closeBatch(&batch) }
                } else {
                    // The fault keeps its row for when it fires: no second read, and the row
                    // goes away with the object.
                    object.faultSource = .row(rows[i].values)
                    object.snapshotVersion = rows[i].version
                }
                // Moved into the result, its last use: the reference the look-up returned
                // becomes the array's (appended as a copy, it was retained for the array and
                // the look-up's released at the end of the row, an atomic pair per row).
                objects.append(consume object)
            }
        }
        closeBatch(&batch)
        return objects
    }

    private func closeBatch(_ members: inout [ManagedObject]) {
        guard !members.isEmpty else { return }
        let batch = FaultBatch(members.map(\.objectID))
        for member in members { member.faultSource = .batch(batch) }
        members.removeAll()
    }

    /// The registered object for a fetched row: a fault filled with the row's values (unless
    /// the request leaves property values out), a loaded object as it is (unless the request
    /// refreshes refetched objects).
    func adopt(_ row: StoreRow, _ q: FetchQuery) -> ManagedObject {
        let object = registeredOrFault(row.objectID)
        if !object.hasValues {
            if q.includesPropertyValues { fill(object, from: row) }
        } else if q.refreshesRefetchedObjects {
            refetched(object, row)
        }
        return object
    }

    /// Gives a loaded object its fetched row's values when the row is newer, its unsaved
    /// changes and transient values kept on top (`shouldRefreshRefetchedObjects`).
    private func refetched(_ object: ManagedObject, _ row: StoreRow) {
        guard object.snapshotVersion != row.version else { return }
        reload(object, from: row)
    }

    private func sortObjects(_ objects: [ManagedObject], _ q: FetchQuery) throws -> [ManagedObject]
    {
        let sorts = try q.sortDescriptors.map { try $0.compile(for: q.entity) }
        guard !sorts.isEmpty else {
            // Stable order: entity by entity as the store gives them, then by primary key; unsaved last.
            return objects.enumerated().sorted { a, b in
                let x = a.element.objectID
                let y = b.element.objectID
                if x.isTemporaryID != y.isTemporaryID { return !x.isTemporaryID }
                if x.entity !== y.entity { return a.offset < b.offset }
                return x.primaryKey < y.primaryKey
            }.map(\.element)
        }
        return objects.sorted(by: sorts) { sort, a, b in
            sort.compare(ObjectRecord(a), ObjectRecord(b))
        }
    }
}
