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
    /// The rows are mapped in place (issue 20: migrating costs at most 1.5× compacting the
    /// same file): each entity's storage (rows and key map) moves to its destination entity,
    /// each row is retagged and its values moved, not copied, into their destination slots;
    /// only the reverse index is built anew. A `table` whose storage is shared (the caller
    /// keeps a copy) is copied on the first write, so the caller's copy never changes.
    ///
    /// - Throws: `.migration` (134110) naming the rows that lack a value a required
    ///   destination attribute or to-one relationship needs (no default), or that hold several
    ///   targets of a to-many becoming to-one; `.migrationConstraintViolation` (134111) naming
    ///   rows that share the values of a new uniqueness constraint.
    /// - Complexity: O(rows + relationship targets).
    package func migrate(_ table: consuming RowTable) throws -> RowTable {
        let store = table.storeIdentifier
        var result = RowTable(model: destination, storeIdentifier: store)
        let scopes = result.idScopes
        // Derived targets read other entities' rows: gathered before any storage moves.
        let derived = entities.map { derivedTargets($0, table: table) }
        for (m, mapping) in entities.enumerated() {
            guard let old = mapping.source else { continue }
            let entity = mapping.destination
            let fills = SlotFill.plan(mapping)
            let count = entity.properties.count
            var missing = Array(repeating: [ManagedObjectID](), count: fills.count)
            var several = missing
            var storage = RowTable.EntityTable()
            swap(&storage, &table.entityTables[old.index])
            for i in storage.rows.indices {
                guard var row = storage.rows[i].take() else { continue }
                var source: [StoreValue] = []
                swap(&source, &row.values)  // unique, so its values can move out
                var values = [StoreValue](repeating: .notStored, count: count)
                for k in fills.indices {
                    // Fields read in place: no copy of the fill (nor retain of its payload).
                    let slot = fills[k].slot
                    switch fills[k].kind {
                    case .attribute:
                        if let from = fills[k].from {
                            if fills[k].moves {
                                swap(&values[slot], &source[from])
                            } else {
                                values[slot] = source[from]
                            }
                            if fills[k].widensFloat, case .attribute(.float(let f)) = values[slot] {
                                values[slot] = .attribute(.double(Double(f)))
                            } else if case .attribute = values[slot] {
                            } else {
                                values[slot] = .attribute(.null)
                            }
                            // Core Data's inferred mapping copies a nil as nil; nil in a
                            // now-required attribute takes the default.
                            guard case .attribute(.null) = values[slot], !fills[k].isOptional
                            else { continue }
                        }
                        // A new attribute takes its default.
                        values[slot] = .attribute(fills[k].defaultValue)
                        if fills[k].defaultValue.isNull, !fills[k].isOptional {
                            missing[k].append(row.objectID)
                        }
                    case .toOne:
                        // To-one to to-one, the common case: retagged in place, no array.
                        let from = fills[k].from!
                        if fills[k].moves {
                            swap(&values[slot], &source[from])
                        } else {
                            values[slot] = source[from]
                        }
                        var target: ManagedObjectID?
                        if case .toOne(let id?) = values[slot] { target = mapped(id, scopes) }
                        if target == nil, !fills[k].isOptional { missing[k].append(row.objectID) }
                        values[slot] = .toOne(target)
                    case .relationship(let from, let relationship):
                        var targets: [ManagedObjectID]
                        switch from {
                        case .property(let p):
                            targets = Self.targets(
                                p as! RelationshipDescription, of: row.objectID, values: source,
                                in: table
                            ).compactMap { mapped($0, scopes) }
                        case .inverse:
                            targets = (derived[m][row.objectID] ?? []).compactMap {
                                mapped($0, scopes)
                            }
                        case .new:
                            targets = []
                        }
                        if relationship.isToMany {
                            values[slot] = .toMany(targets)
                        } else {
                            if targets.count > 1 { several[k].append(row.objectID) }
                            if targets.isEmpty, !fills[k].isOptional {
                                missing[k].append(row.objectID)
                            }
                            values[slot] = .toOne(targets.first)
                        }
                    }
                }
                storage.rows[i] = StoreRow(
                    objectID: ManagedObjectID(
                        scope: scopes[entity.index], primaryKey: row.objectID.primaryKey),
                    version: row.version, values: values)
            }
            for (k, fill) in fills.enumerated() {
                // Rows in primary-key order, as the table lists them.
                if !storage.isSorted {
                    several[k].sort { $0.primaryKey < $1.primaryKey }
                    missing[k].sort { $0.primaryKey < $1.primaryKey }
                }
                let property = entity.properties[fill.slot]
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
            result.entityTables[entity.index] = storage
            result.reservePrimaryKeys(
                for: entity, upTo: storage.lastKey == .max ? .max : storage.lastKey + 1)
        }
        try checkConstraints(result)
        result.rebuildReverseIndex()
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

    /// `id` (of the source model) as an ID of the destination model (`scopes`, by destination
    /// entity index), or `nil` when its entity is removed.
    private func mapped(_ id: ManagedObjectID, _ scopes: [ObjectIDScope]) -> ManagedObjectID? {
        guard let entity = destinationOf[id.entity.index] else { return nil }
        return ManagedObjectID(scope: scopes[entity.index], primaryKey: id.primaryKey)
    }

    /// How one stored slot of a destination row is filled, decided once per entity (the
    /// descriptions' properties read once, not per row).
    private struct SlotFill {
        enum Kind {
            /// An attribute: from ``from`` (a source slot), else new (its default).
            case attribute
            /// A to-one from a stored to-one of the source: retagged.
            case toOne
            /// Any other relationship: targets gathered as ``InferredMapping/targets``.
            case relationship(PropertySource, RelationshipDescription)
        }

        var kind: Kind
        /// The destination slot.
        var slot: Int
        /// The source slot read, if any.
        var from: Int?
        /// Whether the value moves out of the source row (no other slot reads it).
        var moves = false
        /// Whether a float becomes a double.
        var widensFloat = false
        var isOptional: Bool
        /// A new attribute's value, and a required one's for a nil.
        var defaultValue = AttributeValue.null

        /// One fill per entry of `mapping.properties`, in the same order.
        static func plan(_ mapping: EntityMapping) -> [SlotFill] {
            var reads: [Int: Int] = [:]
            for case (_, .property(let p)) in mapping.properties { reads[p.index, default: 0] += 1 }
            return mapping.properties.map { property, from in
                var source: Int?
                if case .property(let p) = from { source = p.index }
                let moves = source.map { reads[$0] == 1 } ?? false
                if let attribute = property as? AttributeDescription {
                    return SlotFill(
                        kind: .attribute, slot: property.index, from: source, moves: moves,
                        widensFloat: attribute.type == .double,
                        isOptional: attribute.isOptional, defaultValue: attribute.defaultValue)
                }
                let r = property as! RelationshipDescription
                if !r.isToMany, case .property(let p) = from,
                    let old = p as? RelationshipDescription,
                    old.isStoredInRow, !old.isTransient, !old.isToMany
                {
                    return SlotFill(
                        kind: .toOne, slot: property.index, from: source, moves: moves,
                        isOptional: r.isOptional)
                }
                return SlotFill(
                    kind: .relationship(from, r), slot: property.index, isOptional: r.isOptional)
            }
        }
    }

    /// The targets of `relationship` (of the source model) for the row of `objectID` holding
    /// `values`: read from the values when the row stores them, else derived through the
    /// table's reverse index (as ``RowTable/relatedObjectIDs(_:of:)`` does, without looking
    /// the row up again).
    private static func targets(
        _ relationship: RelationshipDescription, of objectID: ManagedObjectID,
        values: [StoreValue], in table: RowTable
    ) -> [ManagedObjectID] {
        guard relationship.isStoredInRow, !relationship.isTransient else {
            return table.relatedObjectIDs(relationship, of: objectID)
        }
        switch values[relationship.index] {
        case .toOne(let id?): return [id]
        case .toMany(let ids): return ids
        default: return []
        }
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

    /// Checks the destination's uniqueness constraints over the rows of `table`. Rows with a
    /// nil value in the constraint do not clash (Core Data's constraints are SQLite `UNIQUE`
    /// indexes, and SQLite treats NULLs as distinct:
    /// https://sqlite.org/lang_createindex.html#uniqueidx).
    private func checkConstraints(_ table: RowTable) throws {
        for entity in destination.entities where !entity.uniquenessConstraints.isEmpty {
            let family = destination.entities.filter { $0.isKind(of: entity) }
            for constraint in entity.uniquenessConstraints {
                let slots = constraint.compactMap { entity.propertiesByName[$0]?.index }
                var seen: [[StoreValue]: ManagedObjectID] = [:]
                var clashing: [ManagedObjectID] = []
                for member in family {
                    for row in table.rows(of: member) {
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
                }
                if !clashing.isEmpty {
                    throw MigrationErrors.constraint(
                        entity: entity.name, constraint: constraint, rows: clashing)
                }
            }
        }
    }
}

extension RowTable {
    /// Fills the reverse index from the rows (after a migration moved rows in without it):
    /// each indexed to-one's sources added target by target, as ``insertNew(_:)`` adds them.
    ///
    /// - Complexity: O(rows with an indexed to-one).
    fileprivate mutating func rebuildReverseIndex() {
        for e in entityTables.indices {
            for (key, slot) in indexedSlots[e] {
                var pairs: [(target: Int64, source: Int64)] = []
                pairs.reserveCapacity(entityTables[e].liveCount)
                for i in entityTables[e].rows.indices {
                    if case .toOne(let target?)? = entityTables[e].rows[i]?.values[slot] {
                        pairs.append(
                            (target.primaryKey, entityTables[e].rows[i]!.objectID.primaryKey))
                    }
                }
                reverse[key]!.add(contentsOf: consume pairs, entity: model.entities[e])
            }
        }
    }
}
