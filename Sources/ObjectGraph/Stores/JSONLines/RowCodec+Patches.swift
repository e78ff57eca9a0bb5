import Foundation

/// How one patch of a save goes into its transaction line (see
/// `JSONLinesStore.patchWrites(_:)`): as a partial row of its changed slots, or complete.
struct PatchWrite: Sendable {
    /// The patched slots whose values differ from the current row (stored slots, ascending):
    /// the slots a partial row carries, and the ones history records.
    var changed: [Int]
    /// The complete row the patch leaves when it is written complete (it changes half of its
    /// entity's stored slots or more); `nil` for a partial row.
    var complete: StoreRow?
}

extension RowCodec {
    /// Appends `patches` separated by commas: each as a partial row of its changed slots, or
    /// the complete row `writes` gives (one entry per patch). Returns the bytes the complete
    /// rows would take as snapshot lines; cuts runs as
    /// ``write(_:to:runs:member:changed:parallelAbove:)`` does.
    ///
    /// - Throws: `.storeWriteFailed` (134030) for the first value that does not fit its slot;
    ///   `w` is then left as it was.
    func write(
        _ patches: [StoreRowPatch], writes: [PatchWrite], to w: JSONByteWriter,
        runs: inout [RowRun], member: String?,
        parallelAbove minimum: Int = ParallelChunks.threshold
    ) throws -> Int {
        try writeEntries(
            count: patches.count, bytesEach: 64, to: w, runs: &runs, member: member,
            parallelAbove: minimum
        ) { i, local, entities in
            let entityIndex = entities.index(of: patches[i].objectID)
            if let row = writes[i].complete {
                return try write(row, entityIndex: entityIndex, to: local)
                    + LineFrame.snapshotRowOverhead
            }
            let patch = patches[i]
            _ = try writePartial(
                patch.objectID, version: patch.version, changed: writes[i].changed,
                entityIndex: entityIndex, to: local, value: { _, slot in patch.value(at: slot) },
                mismatch: { mismatch(patch.sparseRow, slot: $0) })
            return 0
        }
    }
}

extension StoreRowPatch {
    /// The new value of `slot`, or `.notStored` when the patch leaves it.
    func value(at slot: Int) -> StoreValue {
        guard let k = slots.firstIndex(of: slot) else { return .notStored }
        return values[k]
    }

    /// A row holding the patched values and `.notStored` elsewhere: for error messages.
    var sparseRow: StoreRow {
        var values = [StoreValue](
            repeating: .notStored, count: objectID.entity.properties.count)
        for (slot, value) in zip(slots, self.values) where slot < values.count {
            values[slot] = value
        }
        return StoreRow(objectID: objectID, version: version, values: values)
    }
}

extension JSONLinesStore {
    /// For each patch (checked against the current rows), how it is written: its changed
    /// slots (those whose values differ from the current row's), as a partial row when they
    /// are fewer than half of the entity's stored slots, else complete. Patches changing the
    /// same slots share one array. The caller holds `lock`.
    func patchWrites(_ patches: [StoreRowPatch]) -> [PatchWrite] {
        var writes: [PatchWrite] = []
        writes.reserveCapacity(patches.count)
        var entities = EntityIndexMemo()
        var last: [Int] = []
        var changed: [Int] = []
        let codec = self.codec  // one copy, not one per patch (see `append`)
        // The patches and the rows are read in place: iterating the array copied each patch,
        // and `table.row(for:)` each row, only to compare a few values.
        let table = self.table  // one copy of the table's arrays' references, not one per patch
        patches.withUnsafeBufferPointer { patches in
            for i in patches.indices {
                let patch = patches[i]
                let entityIndex = entities.index(of: patch.objectID)
                changed.removeAll(keepingCapacity: true)
                guard table.differingSlots(of: patch, into: &changed) else {
                    // Not checked (a caller's own change set): written as it came.
                    writes.append(PatchWrite(changed: patch.slots, complete: nil))
                    continue
                }
                if changed != last { last = changed }
                if codec.writesPartially(changed: last.count, entityIndex: entityIndex) {
                    writes.append(PatchWrite(changed: last, complete: nil))
                } else {
                    let old = table.row(for: patch.objectID).unsafelyUnwrapped
                    writes.append(PatchWrite(changed: last, complete: patch.applied(to: old)))
                }
            }
        }
        return writes
    }
}
