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
        // Read in place: iterating the array copied each patch (its ID, slots and values
        // retained and released), and binding the current row copied it too (W4b's save:
        // ≈ 380 instructions a patch).
        try patches.withUnsafeBufferPointer { patches in
            for i in patches.indices {
                try checkPatch(patches[i], references: &references, dangling: &dangling)
            }
        }
    }

    /// ``checkPatches(_:references:dangling:)`` for one patch.
    @inline(__always)
    private func checkPatch(
        _ patch: StoreRowPatch, references: inout ReferenceCheck, dangling: inout (any Error)?
    ) throws {
        guard holds(patch.objectID),
            patch.objectID.entity.managedObjectModel === model,
            patch.slots.count == patch.valueCount,
            Self.ascending(patch.slots, below: patch.objectID.entity.properties.count)
        else {
            throw StoreErrors.invalidStoreRow(patch.objectID)
        }
        let e = patch.objectID.entity.index
        guard let slot = entityTables[e].slotByKey[patch.objectID.primaryKey] else {
            throw StoreErrors.conflict(patch.objectID, "was deleted by another save")
        }
        try entityTables[e].rows.withUnsafeBufferPointer { rows in
            // `pointee` is read in place: no copy of the row.
            let row = rows.baseAddress.unsafelyUnwrapped + slot
            guard let version = row.pointee?.version else {
                throw StoreErrors.conflict(patch.objectID, "was deleted by another save")
            }
            guard version == patch.version - 1 else {
                throw StoreErrors.conflict(
                    patch.objectID, "is at version \(version), not \(patch.version - 1)")
            }
            if dangling == nil, references.mayDangle(patch) {
                do {
                    try references.checkPatched(
                        patch, current: row.pointee.unsafelyUnwrapped, in: self)
                } catch {
                    dangling = error
                }
            }
        }
    }

    /// Appends to `changed` the slots of `patch` whose values differ from its row's (those a
    /// file store's partial row carries), reading the row in place; `false`, with `changed`
    /// untouched, when the table has no row for the patch.
    func differingSlots(of patch: StoreRowPatch, into changed: inout [Int]) -> Bool {
        guard holds(patch.objectID) else { return false }
        let e = patch.objectID.entity.index
        guard let slot = entityTables[e].slotByKey[patch.objectID.primaryKey] else {
            return false
        }
        return entityTables[e].rows.withUnsafeBufferPointer { rows in
            let row = rows.baseAddress.unsafelyUnwrapped + slot
            guard row.pointee != nil else { return false }
            let count = row.pointee.unsafelyUnwrapped.values.count
            for k in patch.slots.indices {
                let s = patch.slots[k]
                if s < count
                    && row.pointee.unsafelyUnwrapped.values[s] != patch.value(atPosition: k)
                {
                    changed.append(s)
                }
            }
            return true
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
    ///
    /// With a claimed hand-off (``StoreRowHandoff``), patch `position`'s object lends the row right
    /// before it changes, once the row is found, and takes it back right after: nothing
    /// between can fail, so an object that lent its row always gets it back.
    mutating func patch(
        _ patch: StoreRowPatch,
        _ handoff: StoreRowHandoff? = nil,
        at position: Int = 0
    ) {
        let e = patch.objectID.entity.index
        guard let slot = entityTables[e].slotByKey[patch.objectID.primaryKey],
            case .some = entityTables[e].rows[slot]
        else { return }
        let lent = handoff?.lend(position, patch.objectID) ?? false
        for (key, index) in indexedSlots[e] {
            guard let k = patch.slots.firstIndex(of: index) else { continue }
            let before = entityTables[e].rows[slot].unsafelyUnwrapped.values[index].toOneKey
            let after = patch.value(atPosition: k).toOneKey
            if before == after { continue }
            if let before { reverse[key]!.remove(patch.objectID, from: before) }
            if let after { reverse[key]!.add(patch.objectID, to: after) }
        }
        entityTables[e].rows[slot]!.version = patch.version
        for k in patch.slots.indices {
            entityTables[e].rows[slot]!.values[patch.slots[k]] = patch.value(atPosition: k)
        }
        if lent {
            handoff.unsafelyUnwrapped.take(
                position, patch.objectID, entityTables[e].rows[slot].unsafelyUnwrapped.values)
        }
    }
}

extension ReferenceCheck {
    /// Whether `patch` could leave a dangling reference: it writes a to-one target or a
    /// to-many, or the change set deletes rows (a reference the row keeps may then dangle).
    /// A patch of attributes alone in a change set that deletes nothing needs no check.
    @inline(__always)
    func mayDangle(_ patch: StoreRowPatch) -> Bool {
        if hasDeletions { return true }
        for k in 0..<patch.valueCount {
            switch patch.value(atPosition: k) {
            case .toOne(.some), .toMany: return true
            default: continue
            }
        }
        return false
    }

    /// Checks the references a patch changes against `current`, the row it patches, and
    /// those `current` keeps to rows the change set deletes: what
    /// ``checkUpdated(_:current:in:)`` checks of the complete row the patch leaves, slot by
    /// slot in the same order.
    mutating func checkPatched(_ patch: StoreRowPatch, current: StoreRow, in table: RowTable)
        throws
    {
        if !hasDeletions {
            // Only the references the patch writes can dangle: the patched slots, in order.
            for k in patch.slots.indices where patch.slots[k] < current.values.count {
                switch patch.value(atPosition: k) {
                case .toOne(.some), .toMany:
                    try checkChanged(
                        patch.value(atPosition: k), old: current.values[patch.slots[k]],
                        source: patch.objectID, slot: patch.slots[k], in: table)
                default: continue
                }
            }
            return
        }
        var k = 0
        for slot in current.values.indices {
            if k < patch.slots.count, patch.slots[k] == slot {
                try checkChanged(
                    patch.value(atPosition: k), old: current.values[slot], source: patch.objectID,
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
