import Foundation

extension InferredMapping {
    /// How many rows each destination entity takes from its source, by destination name.
    package func rowCounts(in table: RowTable) -> [String: Int] {
        var counts: [String: Int] = [:]
        for mapping in entities {
            counts[mapping.destination.name] = mapping.source.map { table.rowCount(of: $0) } ?? 0
        }
        return counts
    }

    /// The rows of `table` (of ``source``) as rows of ``destination``: same store identifier,
    /// primary keys, versions and relationship targets; primary-key counters carried over.
    ///
    /// - Throws: `.migration` (134110) naming the rows that lack a value a required
    ///   destination attribute or to-one relationship needs (no default), or that hold several
    ///   targets of a to-many becoming to-one; `.migrationConstraintViolation` (134111) naming
    ///   rows that share the values of a new uniqueness constraint.
    /// - Complexity: O(rows + relationship targets).
    package func migrate(_ table: RowTable) throws -> RowTable {
        let store = table.storeIdentifier
        var result = RowTable(model: destination, storeIdentifier: store)
        func mapped(_ id: ManagedObjectID) -> ManagedObjectID? {
            guard let entity = destinationOf[id.entity.index] else { return nil }
            return ManagedObjectID(
                entity: entity, storeIdentifier: store, primaryKey: id.primaryKey)
        }
        var rows: [StoreRow] = []
        rows.reserveCapacity(table.totalRowCount)
        for mapping in entities {
            guard let old = mapping.source else { continue }
            let entity = mapping.destination
            let derived = derivedTargets(mapping, table: table)
            let count = entity.properties.count
            // Row by row: each source row's values are read once, while in cache, and each
            // destination row is built in one array (issue 20: migrating costs at most 1.5×
            // compacting the same file).
            var missing = Array(repeating: [ManagedObjectID](), count: mapping.properties.count)
            var several = missing
            for row in table.rows(of: old) {
                var values = [StoreValue](repeating: .notStored, count: count)
                for (k, (property, from)) in mapping.properties.enumerated() {
                    let value: StoreValue
                    if let attribute = property as? AttributeDescription {
                        var v = AttributeValue.null
                        if case .property(let p) = from { v = row.values[p.index].attributeValue }
                        if case .float(let f) = v, attribute.type == .double {
                            v = .double(Double(f))
                        }
                        // Core Data's inferred mapping copies a nil as nil; a new attribute,
                        // or nil in a now-required one, takes the default.
                        if v.isNull, !attribute.isOptional || !isMapped(from) {
                            v = attribute.defaultValue
                        }
                        if v.isNull, !attribute.isOptional { missing[k].append(row.objectID) }
                        value = .attribute(v)
                    } else {
                        let r = property as! RelationshipDescription
                        var targets: [ManagedObjectID]
                        switch from {
                        case .property(let p):
                            let source = p as! RelationshipDescription
                            if !r.isToMany, source.isStoredInRow, !source.isTransient,
                                case .toOne(let id) = row.values[source.index]
                            {
                                // To-one to to-one, the common case: no array.
                                let target = id.flatMap(mapped)
                                if target == nil, !r.isOptional { missing[k].append(row.objectID) }
                                values[property.index] = .toOne(target)
                                continue
                            }
                            targets = Self.targets(source, of: row, in: table).compactMap(mapped)
                        case .inverse:
                            targets = (derived[row.objectID] ?? []).compactMap(mapped)
                        case .new:
                            targets = []
                        }
                        if r.isToMany {
                            value = .toMany(targets)
                        } else {
                            if targets.count > 1 { several[k].append(row.objectID) }
                            if targets.isEmpty, !r.isOptional { missing[k].append(row.objectID) }
                            value = .toOne(targets.first)
                        }
                    }
                    values[property.index] = value
                }
                rows.append(
                    StoreRow(objectID: mapped(row.objectID)!, version: row.version, values: values))
            }
            for (k, (property, _)) in mapping.properties.enumerated() {
                if !several[k].isEmpty {
                    throw MigrationErrors.severalTargets(
                        entity: entity.name, key: property.name, rows: several[k])
                }
                if !missing[k].isEmpty {
                    throw MigrationErrors.missingValues(
                        property is AttributeDescription ? "attribute" : "relationship",
                        entity: entity.name, key: property.name, rows: missing[k])
                }
            }
        }
        try checkConstraints(rows)
        if let duplicate = result.insertNew(rows) {
            throw MigrationErrors.noMapping(
                nil, ["two rows would share the ID \(rows[duplicate].objectID)"])
        }
        for (name, next) in table.primaryKeyCounters {
            guard let root = source.entitiesByName[name] else { continue }
            for entity in root.selfAndDescendants {
                if let mapped = destinationOf[entity.index] {
                    result.reservePrimaryKeys(for: mapped, upTo: next)
                }
            }
        }
        return result
    }

    /// The targets of `relationship` (of the source model) for `row`: read from the row
    /// when the row stores them, else derived through the table (as
    /// ``RowTable/relatedObjectIDs(_:of:)`` does, without looking the row up again).
    private static func targets(
        _ relationship: RelationshipDescription, of row: StoreRow, in table: RowTable
    ) -> [ManagedObjectID] {
        guard relationship.isStoredInRow, !relationship.isTransient else {
            return table.relatedObjectIDs(relationship, of: row.objectID)
        }
        switch row.values[relationship.index] {
        case .toOne(let id?): return [id]
        case .toMany(let ids): return ids
        default: return []
        }
    }

    private func isMapped(_ source: PropertySource) -> Bool {
        if case .property = source { return true }
        return false
    }

    /// For `.inverse` slots: source row → the sources whose relationship points at it.
    private func derivedTargets(_ mapping: EntityMapping, table: RowTable)
        -> [ManagedObjectID: [ManagedObjectID]]
    {
        var result: [ManagedObjectID: [ManagedObjectID]] = [:]
        for case (_, .inverse(_, let source)) in mapping.properties {
            for owner in source.entity!.selfAndDescendants {
                for row in table.rows(of: owner) {
                    for target in table.relatedObjectIDs(source, of: row.objectID) {
                        result[target, default: []].append(row.objectID)
                    }
                }
            }
        }
        return result
    }

    /// Checks the destination's uniqueness constraints over `rows`. Rows with a nil value in
    /// the constraint do not clash (Core Data's constraints are SQLite `UNIQUE` indexes, and
    /// SQLite treats NULLs as distinct: https://sqlite.org/lang_createindex.html#uniqueidx).
    private func checkConstraints(_ rows: [StoreRow]) throws {
        for entity in destination.entities where !entity.uniquenessConstraints.isEmpty {
            let family = Set(entity.selfAndDescendants.map(\.index))
            for constraint in entity.uniquenessConstraints {
                let slots = constraint.compactMap { entity.propertiesByName[$0]?.index }
                var seen: [[StoreValue]: ManagedObjectID] = [:]
                var clashing: [ManagedObjectID] = []
                for row in rows where family.contains(row.objectID.entity.index) {
                    let key = slots.map { row.values[$0] }
                    if key.contains(where: { $0 == .attribute(.null) || $0 == .toOne(nil) }) {
                        continue
                    }
                    if let first = seen[key] {
                        if !clashing.contains(first) { clashing.append(first) }
                        clashing.append(row.objectID)
                    } else {
                        seen[key] = row.objectID
                    }
                }
                if !clashing.isEmpty {
                    throw MigrationErrors.constraint(
                        entity: entity.name, constraint: constraint, rows: clashing)
                }
            }
        }
    }
}
