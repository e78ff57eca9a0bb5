import Foundation

extension RowTable {
    /// Checks updates given as patches, as ``check(_:)`` checks complete rows: each patched
    /// row exists at the version before the patch's, its slots are slots of its entity, and
    /// the references it writes (or keeps to rows the change set deletes) will exist. The
    /// first dangling reference goes to `dangling` (a conflict is reported first).
    func checkPatches(
        _ patches: [StoreRowPatch], references: inout ReferenceCheck,
        dangling: inout (any Error)?
    ) throws {
        for patch in patches {
            guard patch.objectID.storeIdentifier == storeIdentifier,
                patch.objectID.entity.managedObjectModel === model,
                patch.slots.count == patch.values.count,
                Self.ascending(patch.slots, below: patch.objectID.entity.properties.count)
            else {
                throw StoreErrors.invalidStoreRow(patch.objectID)
            }
            let e = patch.objectID.entity.index
            guard let slot = entityTables[e].slotByKey[patch.objectID.primaryKey],
                let current = entityTables[e].rows[slot]
            else {
                throw StoreErrors.conflict(patch.objectID, "was deleted by another save")
            }
            guard current.version == patch.version - 1 else {
                throw StoreErrors.conflict(
                    patch.objectID,
                    "is at version \(current.version), not \(patch.version - 1)")
            }
            if dangling == nil {
                do {
                    try references.checkPatched(patch, current: current, in: self)
                } catch {
                    dangling = error
                }
            }
        }
    }

    /// Whether `slots` ascend strictly and lie in `0..<count`.
    private static func ascending(_ slots: [Int], below count: Int) -> Bool {
        var previous = -1
        for slot in slots {
            guard slot > previous, slot < count else { return false }
            previous = slot
        }
        return true
    }

    /// Applies a checked patch in place: the row's version and its patched slots, and the
    /// reverse index where a patched to-one changes target. The row's other values stay where
    /// they are (a complete replacement freed the old values array and kept a second one
    /// alive until the save ended). A patch of a row the table lacks changes nothing.
    mutating func patch(_ patch: StoreRowPatch) {
        let e = patch.objectID.entity.index
        guard let slot = entityTables[e].slotByKey[patch.objectID.primaryKey],
            case .some = entityTables[e].rows[slot]
        else { return }
        for (key, index) in indexedSlots[e] {
            guard let k = patch.slots.firstIndex(of: index) else { continue }
            let before = entityTables[e].rows[slot].unsafelyUnwrapped.values[index].toOneKey
            let after = patch.values[k].toOneKey
            if before == after { continue }
            if let before { reverse[key]!.remove(patch.objectID, from: before) }
            if let after { reverse[key]!.add(patch.objectID, to: after) }
        }
        entityTables[e].rows[slot]!.version = patch.version
        for k in patch.slots.indices {
            entityTables[e].rows[slot]!.values[patch.slots[k]] = patch.values[k]
        }
    }
}

extension ReferenceCheck {
    /// Checks the references a patch changes against `current`, the row it patches, and
    /// those `current` keeps to rows the change set deletes: what
    /// ``checkUpdated(_:current:in:)`` checks of the complete row the patch leaves, slot by
    /// slot in the same order.
    mutating func checkPatched(_ patch: StoreRowPatch, current: StoreRow, in table: RowTable)
        throws
    {
        var k = 0
        for slot in current.values.indices {
            if k < patch.slots.count, patch.slots[k] == slot {
                try checkChanged(
                    patch.values[k], old: current.values[slot], source: patch.objectID,
                    slot: slot, in: table)
                k += 1
            } else if hasDeletions {
                // Kept as it is: only a reference to a row the change set deletes can dangle.
                try checkChanged(
                    current.values[slot], old: current.values[slot], source: patch.objectID,
                    slot: slot, in: table)
            }
        }
    }
}
