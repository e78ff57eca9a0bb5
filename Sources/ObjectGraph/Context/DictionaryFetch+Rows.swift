import Foundation

extension DictionaryFetch {
    /// One result before it becomes a dictionary: a value per column, and the first saved
    /// row it was computed from (`nil` for aggregates over no rows).
    struct ResultRow {
        var values: [ExpressionValue]
        var first: StoreRow?
    }

    /// The result dictionaries, computed from the rows the stores hold now.
    ///
    /// - Throws: store errors (`.storeOperation`, 134070), also those met while following a
    ///   relationship.
    /// - Complexity: O(n) in the matching rows plus the relationships the columns follow,
    ///   O(n log n) when sorted here.
    func run(_ reader: StoreReader?) throws -> [[String: Any]] {
        var request = StoreFetchRequest(
            entity: entity, predicate: predicate, includesSubentities: includesSubentities)
        if storeSortsAndWindows {
            request.sortDescriptors = sortDescriptors
            request.fetchLimit = fetchLimit
            request.fetchOffset = fetchOffset
        }
        let rows = try reader?.fetch(request) ?? []
        let graph = StoreRowGraph(reader: reader, rows: rows)
        let results: [ResultRow]
        if isGrouped {
            results = groups(rows, graph).map { group in
                ResultRow(values: columns.map { value($0, group, graph) }, first: group.first)
            }
        } else {
            results = rows.map { row in
                ResultRow(values: columns.map { value($0, [row], graph) }, first: row)
            }
        }
        return try finish(results, graph: graph)
    }

    /// Filters, orders, converts, drops duplicates and windows the results.
    private func finish(_ computed: [ResultRow], graph: StoreRowGraph) throws -> [[String: Any]] {
        var results = computed
        if let having {
            let indexes = having.names.map { name in columns.firstIndex { $0.key == name }! }
            results = results.filter { result in
                guard let first = result.first else { return false }
                return having.predicate.evaluate(
                    graph.record(first),
                    variables: indexes.map { result.values[$0].attributeValue })
            }
        }
        if !storeSortsAndWindows, !sortKeys.isEmpty { results = sorted(results, graph) }
        if returnsDistinctResults {
            var seen = Set<[ExpressionValue]>()
            results = results.filter { seen.insert($0.values).inserted }
        }
        if !storeSortsAndWindows {
            let start = min(fetchOffset, results.count)
            let end = fetchLimit > 0 ? min(results.count, start + fetchLimit) : results.count
            results = Array(results[start..<end])
        }
        if let failure = graph.failure { throw failure }
        return results.map(dictionary)
    }

    /// Rows folded by their grouping values, in order of first appearance; one empty group
    /// for aggregates over no rows and no grouping.
    private func groups(_ rows: [StoreRow], _ graph: StoreRowGraph) -> [[StoreRow]] {
        if groupBy.isEmpty { return [rows] }
        var groups: [[ExpressionValue]: Int] = [:]
        var members: [[StoreRow]] = []
        for row in rows {
            let key = groupBy.map { value($0, [row], graph) }
            if let index = groups[key] {
                members[index].append(row)
            } else {
                groups[key] = members.count
                members.append([row])
            }
        }
        return members
    }

    /// A column's value for a group of rows (a single row when not grouped).
    private func value(_ column: Column, _ rows: [StoreRow], _ graph: StoreRowGraph)
        -> ExpressionValue
    {
        switch column {
        case .aggregate(let d, let function, let argument):
            var values: [ExpressionValue] = []
            for row in rows {
                Aggregation.flatten(argument.value(for: graph.record(row)), into: &values)
            }
            let result = Aggregation.apply(function, to: values)
            guard d.resultType != .undefined, d.resultType != .objectID else {
                return .value(result)
            }
            return .value(result.coerced(to: d.resultType) ?? result)
        default:
            guard let row = rows.first else { return .value(.null) }
            switch column {
            case .attribute(let a): return .value(row.values[a.index].attributeValue)
            case .toOne(let r):
                if case .toOne(let id?) = row.values[r.index] { return .object(id) }
                return .value(.null)
            case .keyPath(_, let e): return e.value(for: graph.record(row))
            case .expression(let d, let e):
                let v = e.value(for: graph.record(row))
                guard case .value(let scalar) = v, d.resultType != .undefined,
                    d.resultType != .objectID
                else { return v }
                return .value(scalar.coerced(to: d.resultType) ?? scalar)
            case .aggregate: return .value(.null)
            }
        }
    }

    private func sorted(_ results: [ResultRow], _ graph: StoreRowGraph) -> [ResultRow] {
        let indexes: [Int?] = sortKeys.map { key in
            if case .column(let name, _) = key { return columns.firstIndex { $0.key == name } }
            return nil
        }
        func key(_ k: Int, _ r: ResultRow) -> AttributeValue {
            switch sortKeys[k] {
            case .column: return indexes[k].map { r.values[$0].attributeValue } ?? .null
            case .record(let c):
                guard let first = r.first else { return .null }
                return c.value(of: graph.record(first))
            }
        }
        return results.enumerated().sorted { a, b in
            for k in sortKeys.indices {
                let order: ComparisonResult
                switch sortKeys[k] {
                case .column(_, let d):
                    let o = SortOrder.compare(key(k, a.element), key(k, b.element), d.comparison)
                    order = d.ascending ? o : o.reversed
                case .record(let c):
                    order = c.compareValues(key(k, a.element), key(k, b.element))
                }
                if order != .orderedSame { return order == .orderedAscending }
            }
            return a.offset < b.offset
        }.map(\.element)
    }

    /// The result as Core Data gives it: column key → Swift value; nil values left out.
    private func dictionary(_ result: ResultRow) -> [String: Any] {
        var dictionary: [String: Any] = [:]
        for (column, value) in zip(columns, result.values) {
            let converted: Any?
            switch (column, value) {
            case (_, .object(let id)): converted = id
            case (_, .collection): converted = nil
            case (.attribute(let a), .value(let v)): converted = a.publicValue(of: v)
            case (.expression(let d, _), .value(let v)), (.aggregate(let d, _, _), .value(let v)):
                converted = d.resultType == .objectID ? nil : v.swiftValue(for: d.resultType)
            case (_, .value(let v)): converted = v.swiftValue(for: .undefined)
            }
            if let converted { dictionary[column.key] = converted }
        }
        return dictionary
    }
}
