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

/// How each patch of a save goes into its transaction line, one ``PatchWrite`` per patch,
/// held as runs: consecutive patches written partially with the same changed slots share one
/// entry, and a complete row is an entry of its own.
///
/// An array of one `PatchWrite` per patch (40 bytes each, mostly the unused optional row)
/// was alive through a large save's encoding, its peak: 4.0 MB for W4b's 100,000 updates of
/// one slot, now one entry.
struct PatchWrites: RandomAccessCollection, Sendable {
    /// A run of patches from `start` (a patch index) up to the next run's start.
    private struct Run: Sendable {
        let start: Int
        let write: PatchWrite
    }

    private var runs: [Run] = []
    /// The number of patches.
    private(set) var endIndex = 0

    /// No patches.
    init() {}

    /// The first patch's index: 0.
    var startIndex: Int { 0 }

    /// Appends the next patch's write, extending the last run when both are partial with
    /// equal changed slots (compared by identity first: patches that share an array).
    ///
    /// - Complexity: O(1) amortised for a write that joins the last run; O(slots) to compare
    ///   changed slots of arrays that are not the same.
    mutating func append(_ write: PatchWrite) {
        if write.complete == nil, let last = runs.last, last.write.complete == nil,
            last.write.changed == write.changed
        {
            endIndex += 1
            return
        }
        runs.append(Run(start: endIndex, write: write))
        endIndex += 1
    }

    /// The write of patch `i`.
    ///
    /// - Precondition: `0 <= i < count`.
    /// - Complexity: O(log runs): a binary search of the runs' starts.
    subscript(i: Int) -> PatchWrite {
        precondition(i >= 0 && i < endIndex, "PatchWrites: index \(i) out of range")
        var low = 0
        var high = runs.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if runs[mid].start <= i { low = mid } else { high = mid - 1 }
        }
        return runs[low].write
    }
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
        _ patches: [StoreRowPatch], writes: PatchWrites, to w: JSONByteWriter,
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
        guard let k = slots.firstIndex(of: slot), k < valueCount else { return .notStored }
        return value(atPosition: k)
    }

    /// A row holding the patched values and `.notStored` elsewhere: for error messages.
    var sparseRow: StoreRow {
        var values = [StoreValue](
            repeating: .notStored, count: objectID.entity.properties.count)
        for k in 0..<min(slots.count, valueCount) where slots[k] < values.count {
            values[slots[k]] = value(atPosition: k)
        }
        return StoreRow(objectID: objectID, version: version, values: values)
    }
}

extension JSONLinesStore {
    /// For each patch (checked against the current rows), how it is written: its changed
    /// slots (those whose values differ from the current row's), as a partial row when they
    /// are fewer than half of the entity's stored slots, else complete. Patches changing the
    /// same slots share one array. The caller holds `lock`.
    func patchWrites(_ patches: [StoreRowPatch]) -> PatchWrites {
        var writes = PatchWrites()
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
