import Foundation

extension JSONLinesStore: RowBatchUpdatingStore {
    /// ``partialUpdates(_:)`` for the rows of a batch update, worked out from its plan: the
    /// stored slots among the updated ones whose values change. Rows changing the same slots
    /// share one list. The caller holds `lock`.
    func partialUpdates(_ rows: [StoreRow], plan: RowBatchPlan) -> [[Int]?]? {
        guard let masks = table.changedSlotMasks(plan) else { return partialUpdates(rows) }
        var chosen: [Int: [Int]?] = [:]
        var anyPartial = false
        var list: [[Int]?] = []
        list.reserveCapacity(rows.count)
        for (ref, mask) in zip(plan.refs, masks) {
            let key = ref.entity << 40 | Int(truncatingIfNeeded: mask & 0xFF_FFFF_FFFF)
            let slots: [Int]?
            if mask >> 40 == 0, let known = chosen[key] {
                slots = known
            } else {
                let changed = plan.slots.indices.filter { mask & (1 << UInt64($0)) != 0 }
                    .map { plan.slots[$0] }.sorted()
                let stored = codec.storedOnly(changed, entityIndex: ref.entity)
                slots =
                    codec.writesPartially(changed: stored.count, entityIndex: ref.entity)
                    ? stored : nil
                if mask >> 40 == 0 { chosen[key] = slots }
            }
            anyPartial = anyPartial || slots != nil
            list.append(slots)
        }
        return anyPartial ? list : nil
    }

    /// Runs a batch update on the rows: plans it on the current rows (every new value
    /// computed first, so a value that does not fit writes nothing), appends the updated rows
    /// as one transaction line like any save (partial rows carrying the attributes whose
    /// values change, worked out from the plan), then puts them in place. The rows come from the
    /// table under the writer lock, so there is no version or reference to check.
    func batchUpdate(_ update: RowBatchUpdate) throws -> [ManagedObjectID] {
        PausePoints.reach("commit.start")
        return try locked {
            guard file != nil else { throw StoreFileErrors.closed(path) }
            guard let writerLock else {
                // A reader: refused only when something would change, as a save would be.
                try refreshIfNeeded()
                if isReadOnly, try !table.plan(update).isEmpty { throw StoreErrors.readOnly(url) }
                return []
            }
            return try writerLock.serializingWrites {
                try catchUpWithSharers()
                let plan = try table.plan(update)
                if plan.isEmpty { return [] }
                if isReadOnly { throw StoreErrors.readOnly(url) }
                if isBroken { throw StoreFileErrors.unusable(path) }
                let rows = table.updatedRows(plan)
                try append(
                    StoreChangeSet(
                        updated: rows, author: update.author, contextName: update.contextName,
                        timestamp: update.timestamp),
                    partial: partialUpdates(rows, plan: plan)
                ) { $0.replace(rows, planned: plan) }
                return rows.map(\.objectID)
            }
        }
    }
}
