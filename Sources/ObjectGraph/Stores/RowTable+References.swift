import Foundation

/// Checks that every relationship target a change set writes names a row that exists once
/// the change set is applied: a row of the table that the change set does not delete, or a
/// row it inserts.
///
/// Inserted rows are checked in full. An updated row is checked where it changes a reference
/// (a new to-one target, new to-many members) and wherever it points at a row this change
/// set deletes; a reference it keeps unchanged to a row that was already missing (left by a
/// batch delete, which applies no delete rules) is not the save's doing and is left to
/// `verify` to report. Deleted rows write no references. ``RowTable/check(_:)`` runs it,
/// handing each updated row the current row it read for the version check, so an update
/// reads its row once.
///
/// Each check throws ``ObjectGraphError`` `.danglingReference` (1550), "Dangling reference to
/// an invalid object", naming the source row (entity and ``ObjectGraphError/objectID``), the
/// relationship (``ObjectGraphError/key``) and the missing target (under
/// `NSValidationValueErrorKey`, a ``ManagedObjectID``). O(references written), plus
/// O(deleted) once when a reference is checked against the deletions (a save that deletes
/// rows and writes no reference, as a delete whose inverse to-manys the store derives, makes
/// no set of the deleted IDs).
struct ReferenceCheck {
    /// The change set's deletions, as it lists them.
    private let deletions: [(objectID: ManagedObjectID, version: Int64)]
    /// The deleted rows' IDs, made from ``deletions`` by the first reference checked against
    /// them (see ``isDeleted(_:)``); `nil` until then.
    private var deleted: Set<ManagedObjectID>?
    private let insertedRows: [StoreRow]
    /// The inserted rows' IDs, made once scanning ``insertedRows`` for targets not found in
    /// the table has used up ``scanBudget``.
    private var inserted: Set<ManagedObjectID>?
    /// How many more rows the scans of ``insertedRows`` may compare before ``inserted`` is
    /// made: as many as there are inserted rows, so the scans cost at most one pass in all.
    private var scanBudget: Int
    /// Targets found lately, by a hash of entity and key: many rows pointing at a few
    /// targets (every expense at one of 20 categories) look each target up once, where
    /// remembering only the last one found missed whenever consecutive rows pointed at
    /// different targets. Empty until the first target is found.
    private var found: [ManagedObjectID?] = []

    init(_ changes: StoreChangeSet) {
        deletions = changes.deleted
        insertedRows = changes.inserted
        scanBudget = changes.inserted.count
    }

    /// Checks every reference the inserted rows write.
    ///
    /// The rows and their values are read through the arrays' buffers: a `for`-`in` over the
    /// rows copied each row (a retain and a release of its ID's scope and of its values: W1,
    /// 20,020 inserted rows), and enumerating the values copied each value.
    mutating func checkInserted(in table: RowTable) throws {
        // Each row's values are read through the rows' buffer, not through a buffer of their
        // own: `rows[r].values.withUnsafeBufferPointer` retained each row's values array for
        // the call and released it after (2 atomic calls a row, W1's save).
        let rows = insertedRows
        try rows.withUnsafeBufferPointer { rows in
            for r in rows.indices {
                for slot in rows[r].values.indices {
                    switch rows[r].values[slot] {
                    case .toOne(let target?):
                        try check(rows[r].objectID, slot, target, in: table)
                    case .toMany(let targets):
                        for target in targets {
                            try check(rows[r].objectID, slot, target, in: table)
                        }
                    default: continue
                    }
                }
            }
        }
    }

    /// Checks the references `row` changes against `current`, the row it replaces, and those
    /// it keeps to rows the change set deletes.
    mutating func checkUpdated(_ row: StoreRow, current: StoreRow, in table: RowTable) throws {
        for slot in row.values.indices {
            try checkChanged(
                row.values[slot], old: slot < current.values.count ? current.values[slot] : nil,
                source: row.objectID, slot: slot, in: table)
        }
    }

    /// Whether the change set deletes any row (a kept reference may then dangle).
    var hasDeletions: Bool { !deletions.isEmpty }

    /// Whether the change set deletes the row of `id`.
    ///
    /// The set of deleted IDs is made on the first call that finds deletions (O(deleted)
    /// once), and each call after it is a hash look-up: a change set whose checks never ask
    /// (no reference written, none kept beside a deletion) hashes none of its deleted IDs.
    private mutating func isDeleted(_ id: ManagedObjectID) -> Bool {
        if deletions.isEmpty { return false }
        if deleted == nil { deleted = Set(deletions.lazy.map(\.objectID)) }
        return deleted.unsafelyUnwrapped.contains(id)
    }

    /// Checks one slot's new value against its old one (`nil`: the row had no such slot):
    /// the references it adds, and those it keeps to rows the change set deletes.
    mutating func checkChanged(
        _ value: StoreValue, old: StoreValue?, source: ManagedObjectID, slot: Int,
        in table: RowTable
    ) throws {
        switch value {
        case .toOne(let target?):
            // Compared in place: copying the old value cost more than the comparison.
            var kept = false
            if case .toOne(let before?)? = old { kept = before == target }
            if !kept || isDeleted(target) {
                try check(source, slot, target, in: table)
            }
        case .toMany(let targets):
            guard old != value || hasDeletions else { return }
            var kept = Set<ManagedObjectID>()
            if case .toMany(let before)? = old { kept = Set(before) }
            for target in targets where !kept.contains(target) || isDeleted(target) {
                try check(source, slot, target, in: table)
            }
        default: return
        }
    }

    private mutating func check(
        _ source: ManagedObjectID, _ slot: Int, _ target: ManagedObjectID, in table: RowTable
    ) throws {
        guard !exists(target, in: table) else { return }
        throw StoreErrors.danglingReference(source, slot: slot, target: target)
    }

    private mutating func exists(_ target: ManagedObjectID, in table: RowTable) -> Bool {
        let cell = Self.cell(of: target)
        if !found.isEmpty, found[cell] == target { return true }
        let exists: Bool
        if table.containsRow(target) {
            exists = !isDeleted(target)
        } else {
            exists = isInserted(target)
        }
        if exists {
            if found.isEmpty { found = Array(repeating: nil, count: Self.foundCells) }
            found[cell] = target
        }
        return exists
    }

    /// Whether the change set inserts a row for `target`.
    ///
    /// The inserted rows are scanned from the first while ``scanBudget`` lasts; a target not
    /// found within it makes the set of every inserted row's ID, which answers from then on.
    /// A change set whose targets are a few rows it inserts early (W1's 20 categories, then
    /// 20,000 expenses pointing at them) finds them in a few comparisons each, where the set
    /// cost ≈ 175 instructions an inserted row to make. With ``found`` remembering targets,
    /// the scans run once per distinct target (and per target evicted from its cell).
    /// - Complexity: O(inserted rows) in all the calls together, then O(1) each.
    private mutating func isInserted(_ target: ManagedObjectID) -> Bool {
        if let inserted { return inserted.contains(target) }
        let limit = Swift.min(scanBudget, insertedRows.count)
        // The IDs compared in place, key first: no copy of each row or its ID.
        let position = insertedRows.withUnsafeBufferPointer { rows -> Int? in
            for k in 0..<limit where rows[k].objectID == target { return k }
            return nil
        }
        if let position {
            scanBudget -= position + 1
            return true
        }
        scanBudget -= limit
        if limit == insertedRows.count { return false }
        let ids = Set(insertedRows.lazy.map(\.objectID))
        inserted = ids
        return ids.contains(target)
    }

    /// The number of targets ``found`` remembers (a power of two).
    private static let foundCells = 64

    /// The cell of ``found`` that remembers `target`: its key and entity mixed (the entity
    /// because keys are per hierarchy).
    @inline(__always)
    private static func cell(of target: ManagedObjectID) -> Int {
        let bits =
            UInt64(bitPattern: target.primaryKey)
            &+ UInt64(UInt(bitPattern: ObjectIdentifier(target.entity))) &>> 4
        return Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) &>> 58)
    }
}
