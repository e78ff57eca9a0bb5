import Foundation

// Checking a change set against the rows before applying it.
extension RowTable {
    /// Checks a change set against the current rows without changing anything.
    ///
    /// - Throws: ``ObjectGraphError`` `.storeSaveConflict` (134050) naming the first row
    ///   whose version differs or that exists already / no longer exists;
    ///   `.danglingReference` (1550) for a written relationship whose target row will not exist (see
    ///   `ReferenceCheck`), after every version check.
    public func check(_ changes: StoreChangeSet) throws {
        var shapes = ShapeMemo()
        // Through the buffer: a `for`-`in` copied each row (a retain and a release of its ID's
        // scope and of its values: W1, 20,020 inserted rows).
        try changes.inserted.withUnsafeBufferPointer { inserted in
            for i in inserted.indices {
                let e = try shapes.entityIndex(of: inserted[i], in: self)
                if entityTables[e].slotByKey[inserted[i].objectID.primaryKey] != nil {
                    throw StoreErrors.conflict(inserted[i].objectID, "already exists")
                }
            }
        }
        var references = ReferenceCheck(changes)
        // An update's references are checked against the row its version check reads (one
        // read per row); the first dangling one waits until every version is checked, since a
        // conflict is reported first, and until the inserted rows' references are checked.
        var danglingUpdate: (any Error)?
        for row in changes.updated {
            _ = try shapes.entityIndex(of: row, in: self)
            guard let current = self.row(for: row.objectID) else {
                throw StoreErrors.conflict(row.objectID, "was deleted by another save")
            }
            guard current.version == row.version - 1 else {
                throw StoreErrors.conflict(
                    row.objectID, "is at version \(current.version), not \(row.version - 1)")
            }
            if danglingUpdate == nil {
                do {
                    try references.checkUpdated(row, current: current, in: self)
                } catch {
                    danglingUpdate = error
                }
            }
        }
        try checkPatches(changes.patched, references: &references, dangling: &danglingUpdate)
        for (id, version) in changes.deleted {
            // The version alone, read in place: the row is not needed (a copy of it cost a
            // retain and release of its values and ID per deletion).
            guard let current = self.version(of: id) else {
                throw StoreErrors.conflict(id, "was deleted by another save")
            }
            guard current == version else {
                throw StoreErrors.conflict(id, "is at version \(current), not \(version)")
            }
        }
        try references.checkInserted(in: self)
        if let danglingUpdate { throw danglingUpdate }
    }

    /// Remembers the last entity whose rows passed ``checkShape(_:)``, so a run of rows of one
    /// entity reads the entity's properties (class properties, each read checked for
    /// exclusive access) once rather than per row.
    private struct ShapeMemo {
        private var entity: EntityDescription?
        private var index = -1
        private var slots = 0

        /// Checks `row`'s shape; returns its entity's index.
        mutating func entityIndex(of row: StoreRow, in table: RowTable) throws -> Int {
            if let entity, entity === row.objectID.entity {
                if row.values.count == slots && table.holds(row.objectID) {
                    return index
                }
            }
            try table.checkShape(row)
            entity = row.objectID.entity
            index = row.objectID.entity.index
            slots = row.values.count
            return index
        }
    }

    func checkShape(_ row: StoreRow) throws {
        guard holds(row.objectID),
            row.objectID.entity.managedObjectModel === model,
            row.values.count == row.objectID.entity.properties.count
        else {
            throw StoreErrors.invalidStoreRow(row.objectID)
        }
    }
}
