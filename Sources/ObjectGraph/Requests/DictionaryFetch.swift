import Foundation

/// A dictionary fetch (`.dictionaryResultType`) planned from its request: the columns, the
/// grouping, the having-predicate and the order, checked against the entity before any row
/// is read.
///
/// Dictionary results reflect the persistent store alone (Apple's documentation of
/// `includesPendingChanges`: "for dictionaries, the array returned from the fetch reflects
/// the current state in the persistent store"), so the plan runs over saved rows
/// (``run(_:)``), never over a context's objects.
struct DictionaryFetch {
    /// One column of the result (or one grouping key).
    enum Column {
        /// An attribute, by name.
        case attribute(AttributeDescription)
        /// A to-one relationship, by name: its destination's object ID.
        case toOne(RelationshipDescription)
        /// A dotted key path (`"category.name"`), keyed by the path.
        case keyPath(String, CompiledExpression)
        /// An expression description that is not an aggregate: evaluated per row (for the
        /// first row of a group).
        case expression(ExpressionDescription, CompiledExpression)
        /// `sum:`, `count:`, `min:`, `max:` or `average:` of its argument, per group.
        case aggregate(ExpressionDescription, FetchFunction, CompiledExpression)

        /// The key of the column in each result dictionary.
        var key: String {
            switch self {
            case .attribute(let a): a.name
            case .toOne(let r): r.name
            case .keyPath(let path, _): path
            case .expression(let d, _), .aggregate(let d, _, _): d.name
            }
        }

        var isAggregate: Bool { if case .aggregate = self { true } else { false } }
    }

    /// One sort key: a column of the result named by an expression description, or a key
    /// path of the entity.
    enum SortKey {
        case column(String, FetchSortDescriptor)
        case record(CompiledSortDescriptor)
    }

    static let aggregateFunctions: Set<FetchFunction> = [.sum, .count, .min, .max, .average]

    let entity: EntityDescription
    let predicate: FetchPredicate?
    let includesSubentities: Bool
    let columns: [Column]
    let groupBy: [Column]
    /// Whether rows are folded into groups (grouping keys, or aggregates over all rows).
    let isGrouped: Bool
    /// The having-predicate, with the expression names it binds as `$NAME`.
    let having: (predicate: CompiledPredicate, names: [String])?
    let sortDescriptors: [FetchSortDescriptor]
    let sortKeys: [SortKey]
    let fetchLimit: Int
    let fetchOffset: Int
    let returnsDistinctResults: Bool

    /// Plans `request`'s dictionary fetch over `entity`.
    ///
    /// - Throws: ``ObjectGraphError`` `.coreData` (134060) for a to-many or unknown property,
    ///   a grouped fetch whose columns are neither grouped nor aggregates, a having-predicate
    ///   without grouping or naming an aggregate other than as `$NAME`, or a sort key that is
    ///   neither a key path of the entity nor an expression's name.
    init<R>(_ request: FetchRequest<R>, entity: EntityDescription) throws {
        self.entity = entity
        predicate = request.predicate
        includesSubentities = request.includesSubentities
        fetchLimit = max(0, request.fetchLimit)
        fetchOffset = max(0, request.fetchOffset)
        returnsDistinctResults = request.returnsDistinctResults
        // Without propertiesToFetch, every stored attribute (never relationships): FreeCoreData's
        // Apple-run testDictionaryFetchDefaultKeysAreAllAttributes.
        let requested: [Any] =
            request.propertiesToFetch
            ?? entity.attributes.filter { !$0.isTransient }.map(\.name)
        let columns = try requested.map {
            try Self.column($0, entity, role: "propertiesToFetch")
        }
        let groupBy = try (request.propertiesToGroupBy ?? []).map {
            try Self.column($0, entity, role: "propertiesToGroupBy")
        }
        self.columns = columns
        self.groupBy = groupBy
        isGrouped = !groupBy.isEmpty || columns.contains(where: \.isAggregate)
        try Self.checkGrouping(columns, groupBy, entity)
        having = try request.havingPredicate.map {
            try Self.compileHaving($0, columns: columns, grouped: !groupBy.isEmpty, entity)
        }
        sortDescriptors = request.sortDescriptors
        let names = Set(
            columns.compactMap { c -> String? in
                switch c {
                case .expression(let d, _), .aggregate(let d, _, _): d.name
                default: nil
                }
            })
        sortKeys = try request.sortDescriptors.map { d in
            if names.contains(d.key), entity.propertiesByName[d.key] == nil {
                return .column(d.key, d)
            }
            return .record(try d.compile(for: entity))
        }
    }

    /// Whether the store can sort and window the rows itself: one result per row, no
    /// duplicates to drop, and no sort key that only the result has.
    var storeSortsAndWindows: Bool {
        !isGrouped && !returnsDistinctResults
            && !sortKeys.contains { if case .column = $0 { true } else { false } }
    }

    // MARK: Columns

    private static func column(_ item: Any, _ entity: EntityDescription, role: String) throws
        -> Column
    {
        switch item {
        case let d as ExpressionDescription:
            if case .function(let f, let args) = d.expression.kind, args.count == 1,
                aggregateFunctions.contains(f)
            {
                guard role == "propertiesToFetch" else {
                    throw DictionaryFetchErrors.aggregateInGroupBy(d, entity: entity)
                }
                return .aggregate(d, f, try args[0].compile(for: entity))
            }
            return .expression(d, try d.expression.compile(for: entity))
        case let p as PropertyDescription:
            return try column(p.name, entity, role: role)
        case let name as String:
            if let p = entity.propertiesByName[name] {
                if let r = p as? RelationshipDescription {
                    guard !r.isToMany else {
                        throw DictionaryFetchErrors.toMany(name, entity: entity, role: role)
                    }
                    return .toOne(r)
                }
                if let a = p as? AttributeDescription { return .attribute(a) }
                throw DictionaryFetchErrors.notAColumn(name, entity: entity, role: role)
            }
            return .keyPath(name, try FetchExpression.keyPath(name).compile(for: entity))
        default:
            throw DictionaryFetchErrors.unusableItem(item, entity: entity, role: role)
        }
    }

    /// Apple's documentation of `propertiesToGroupBy`: "the SELECT values must be literals,
    /// aggregates, or columns specified in the GROUP BY".
    private static func checkGrouping(
        _ columns: [Column], _ groupBy: [Column], _ entity: EntityDescription
    ) throws {
        guard !groupBy.isEmpty else { return }
        let grouped = Set(groupBy.map(\.key))
        for column in columns where !column.isAggregate && !grouped.contains(column.key) {
            if case .expression(let d, _) = column, case .constant = d.expression.kind { continue }
            throw DictionaryFetchErrors.ungroupedColumn(column.key, entity: entity)
        }
    }
}
