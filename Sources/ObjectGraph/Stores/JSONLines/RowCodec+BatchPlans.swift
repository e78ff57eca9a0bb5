import Foundation

extension RowCodec {
    /// Appends the `upd` entries of a batch update's plan, separated by commas, one per planned
    /// row in the plan's order: a partial row of the slots it changes, or (when it changes
    /// half of its entity's stored slots or more) the complete row it leaves. The same entries
    /// as the patches of those rows would give (``write(_:writes:to:runs:member:parallelAbove:)``).
    /// `table` holds the rows as they are before the update; `plan` was planned on it with
    /// `findingChanges`. Returns the bytes the complete rows would take as snapshot lines.
    ///
    /// - Throws: `.storeWriteFailed` (134030) for the first value that does not fit its slot;
    ///   `w` is then left as it was.
    func write(
        _ plan: RowBatchPlan, of table: RowTable, to w: JSONByteWriter, runs: inout [RowRun],
        member: String?, parallelAbove minimum: Int = ParallelChunks.threshold
    ) throws -> Int {
        try writeEntries(
            count: plan.refs.count, bytesEach: 64, to: w, runs: &runs, member: member,
            parallelAbove: minimum
        ) { i, local, entities in
            let ref = plan.refs[i]
            let row = table.entityTables[ref.entity].rows[ref.slot].unsafelyUnwrapped
            let entityIndex = entities.index(of: row.objectID)
            let change = plan.changes[Int(plan.changeOf[i])]
            guard writesPartially(changed: change.slots.count, entityIndex: entityIndex) else {
                return try write(plan.applied(row: i, to: row), entityIndex: entityIndex, to: local)
                    + LineFrame.snapshotRowOverhead
            }
            _ = try writePartial(
                row.objectID, version: row.version + 1, changed: change.slots,
                entityIndex: entityIndex, to: local,
                value: { k, _ in plan.value(row: i, position: change.positions[k]) },
                mismatch: { mismatch(plan.applied(row: i, to: row), slot: $0) })
            return 0
        }
    }
}
