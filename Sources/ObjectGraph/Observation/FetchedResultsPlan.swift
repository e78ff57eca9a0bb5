import Foundation

/// A fetched results controller's request resolved against its entity: which objects belong
/// and where each goes.
struct FetchedResultsPlan<Result: ManagedObject> {
    let entity: EntityDescription
    let includesSubentities: Bool
    let sorts: [CompiledSortDescriptor]
    let sectionKey: CompiledSortDescriptor?
    let predicate: CompiledPredicate?
    let swiftPredicate: Predicate<Result>?

    /// Resolves `request` in `context`.
    ///
    /// - Throws: ``ObjectGraphError`` `.coreData` (134060) when the request has no sort
    ///   descriptor, uses Swift sort descriptors, or names keys the entity lacks.
    init(
        _ request: FetchRequest<Result>, in context: ManagedObjectContext,
        sectionNameKeyPath: String?
    ) throws {
        let entity = try context.resolveEntity(request)
        guard request.swiftSortDescriptors.isEmpty else {
            throw ObjectGraphError(
                .invalidFetchRequest,
                "FetchedResultsController: \(request) uses Swift SortDescriptor values, which "
                    + "can only compare live objects, not the recorded positions the controller "
                    + "searches; use FetchSortDescriptor", entityName: entity.name)
        }
        guard !request.sortDescriptors.isEmpty else {
            throw ObjectGraphError(
                .invalidFetchRequest,
                "FetchedResultsController: \(request) has no sort descriptor; a fetched results "
                    + "controller needs at least one", entityName: entity.name)
        }
        guard request.resultType == .managedObjectResultType else {
            throw ObjectGraphError(
                .invalidFetchRequest,
                "FetchedResultsController: \(request) must return managed objects",
                entityName: entity.name)
        }
        self.entity = entity
        self.includesSubentities = request.includesSubentities
        self.sorts = try request.sortDescriptors.map { try $0.compile(for: entity) }
        self.sectionKey = try sectionNameKeyPath.map {
            try FetchSortDescriptor(key: $0).compile(for: entity)
        }
        self.predicate = try request.predicate?.compile(for: entity)
        self.swiftPredicate = request.swiftPredicate
    }

    /// Whether `object` is of the fetched entities.
    func matchesEntity(_ object: ManagedObject) -> Bool {
        includesSubentities ? object.entity.isKind(of: entity) : object.entity === entity
    }

    /// Whether `object` (of the fetched entities) matches the predicates.
    func matches(_ object: ManagedObject) -> Bool {
        if let predicate, !predicate.evaluate(ObjectRecord(object)) { return false }
        if let swiftPredicate {
            guard let typed = object as? Result else { return false }
            return (try? swiftPredicate.evaluate(typed)) ?? false
        }
        return true
    }

    /// The part of the plan that places objects, free of `Result` so the per-object work
    /// runs without generic metadata lookups.
    var keyReader: FetchedKeyReader { FetchedKeyReader(sorts: sorts, sectionKey: sectionKey) }

    /// Where `object` goes, by its current values (by `row`'s, the values it was fetched
    /// with, while it is a fault, or always when `readsRowAlways`).
    func placement(
        of object: ManagedObject, row: [StoreValue]? = nil, sequence: Int,
        readsRowAlways: Bool = false
    )
        -> FetchedPlacement
    {
        keyReader.placement(
            of: object, row: row, sequence: sequence, readsRowAlways: readsRowAlways)
    }
}

/// Reads the sort keys and section name that place an object in a controller's results.
struct FetchedKeyReader {
    let sorts: [CompiledSortDescriptor]
    let sectionKey: CompiledSortDescriptor?

    /// Where `object` goes, by its current values (by `row`'s, the values it was fetched
    /// with, while it is a fault, or always when `readsRowAlways`).
    func placement(
        of object: ManagedObject, row: [StoreValue]? = nil, sequence: Int,
        readsRowAlways: Bool = false
    )
        -> FetchedPlacement
    {
        let record = FaultPeekRecord(object, row: row, readsRowAlways: readsRowAlways)
        let first = sorts[0].value(of: record)
        let second = sorts.count > 1 ? sorts[1].value(of: record) : .null
        var more: [AttributeValue] = []
        if sorts.count > 2 {
            more.reserveCapacity(sorts.count - 2)
            for sort in sorts.dropFirst(2) { more.append(sort.value(of: record)) }
        }
        let section = sectionKey.map { Self.sectionName($0.value(of: record)) } ?? ""
        return FetchedPlacement(
            first: first, second: second, more: more, section: section, sequence: sequence)
    }

    /// A section key value as a section name: strings as they are, nil as `""`, other values
    /// as their Foundation object describes itself (Core Data uses the value's description).
    static func sectionName(_ value: AttributeValue) -> String {
        switch value {
        case .null: ""
        case .string(let s): s
        default: String(describing: value.bridgedObject)
        }
    }
}
