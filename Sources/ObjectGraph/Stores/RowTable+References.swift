import Foundation

extension RowTable {
    /// Checks that every relationship target a change set writes names a row that exists
    /// once the change set is applied: a row of the table that the change set does not
    /// delete, or a row it inserts.
    ///
    /// Inserted rows are checked in full. An updated row is checked where it changes a
    /// reference (a new to-one target, new to-many members) and wherever it points at a row
    /// this change set deletes; a reference it keeps unchanged to a row that was already
    /// missing (left by a batch delete, which applies no delete rules) is not the save's
    /// doing and is left to `verify` to report. Deleted rows write no references.
    ///
    /// - Throws: ``ObjectGraphError`` `.danglingReference` (1550), "Dangling reference to an invalid
    ///   object", naming the source row (entity and ``ObjectGraphError/objectID``), the
    ///   relationship (``ObjectGraphError/key``) and the missing target (under
    ///   `NSValidationValueErrorKey`, a ``ManagedObjectID``).
    /// - Complexity: O(references written), plus O(deleted) once when anything is deleted.
    func checkReferences(_ changes: StoreChangeSet) throws {
        let deleted = Set(changes.deleted.lazy.map(\.objectID))
        var inserted: Set<ManagedObjectID>?
        var lastFound: ManagedObjectID?
        func exists(_ target: ManagedObjectID) -> Bool {
            if target == lastFound { return true }
            let found: Bool
            if row(for: target) != nil {
                found = deleted.isEmpty || !deleted.contains(target)
            } else {
                if inserted == nil { inserted = Set(changes.inserted.lazy.map(\.objectID)) }
                found = inserted!.contains(target)
            }
            if found { lastFound = target }
            return found
        }
        func check(_ row: StoreRow, _ slot: Int, _ target: ManagedObjectID) throws {
            guard !exists(target) else { return }
            throw StoreErrors.danglingReference(row.objectID, slot: slot, target: target)
        }
        for row in changes.inserted {
            for (slot, value) in row.values.enumerated() {
                switch value {
                case .toOne(let target?): try check(row, slot, target)
                case .toMany(let targets): for target in targets { try check(row, slot, target) }
                default: continue
                }
            }
        }
        for row in changes.updated {
            var current: StoreRow??  // read only for rows that hold references
            for (slot, value) in row.values.enumerated() {
                switch value {
                case .toOne(nil), .attribute, .notStored: continue
                default: break
                }
                if current == nil { current = .some(self.row(for: row.objectID)) }
                let old = current??.values[slot]
                switch value {
                case .toOne(let target?):
                    if old != value || deleted.contains(target) { try check(row, slot, target) }
                case .toMany(let targets):
                    guard old != value || !deleted.isEmpty else { continue }
                    var kept = Set<ManagedObjectID>()
                    if case .toMany(let before)? = old { kept = Set(before) }
                    for target in targets where !kept.contains(target) || deleted.contains(target) {
                        try check(row, slot, target)
                    }
                default: continue
                }
            }
        }
    }
}
