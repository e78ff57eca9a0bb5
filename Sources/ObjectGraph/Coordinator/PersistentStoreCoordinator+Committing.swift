import Foundation

extension PersistentStoreCoordinator {
    /// Commits change sets, one per store, under the lock. A store that does not accept
    /// patches gets each patch as the complete row it leaves, read from the store under the
    /// same lock (see ``PersistentStore/acceptsRowPatches``).
    ///
    /// With more than one store open, every reference written is checked first to name an
    /// object of the same store (a relationship cannot cross stores), so that such a save
    /// fails before any store has committed.
    ///
    /// - Throws: `.danglingReference` (1550) for a reference to another store's object (the
    ///   context rewords it), before any commit; the stores' commit errors.
    ///
    /// The change sets are handed over (`changes` is left empty): a built-in store that is the
    /// only one written moves the inserted rows into its rows (``StagedCommitting/commit(movingRows:)``).
    func commit(handingOver changes: inout [String: StoreChangeSet]) throws {
        try locked {
            // Every store written is found, and must be writable, before any commits: finding
            // out one by one while committing would leave the stores committed before it
            // written.
            // Each change set taken out of `changes`, so that the one to commit is held once.
            var targets: [(store: any PersistentStore, changes: StoreChangeSet)] = []
            for identifier in changes.keys.sorted() {
                guard let changeSet = changes.removeValue(forKey: identifier),
                    !changeSet.isEmpty
                else { continue }
                guard let store = persistentStore(forIdentifier: identifier) else {
                    throw SaveErrors.noStore("store \(identifier) is no longer open")
                }
                if store.isReadOnly { throw StoreErrors.readOnly(store.url) }
                if stores.count > 1,
                    let (source, slot, target) = changeSet.firstReference(outside: identifier)
                {
                    throw StoreErrors.danglingReference(source, slot: slot, target: target)
                }
                targets.append((store, changeSet))
            }
            if targets.count == 1, var target = targets.popLast() {
                try Self.commitInOneStep(&target.changes, to: target.store)
            } else {
                try Self.commitAllOrNothing(targets)
            }
        }
    }

    /// Commits a change set to a store in one step (``PersistentStore/commit(_:)``), patches
    /// completed for a store that does not take them; a built-in store takes the inserted
    /// rows out of `changes` (``StagedCommitting/commit(movingRows:)``).
    private static func commitInOneStep(
        _ changes: inout StoreChangeSet, to store: any PersistentStore
    ) throws {
        changes.keepRowHandoff(onlyFor: store)
        if !changes.patched.isEmpty && !store.acceptsRowPatches {
            try store.commit(changes.completingPatches(reading: store.row(for:)))
        } else if let store = store as? any StagedCommitting {
            try store.commit(movingRows: &changes)
        } else {
            try store.commit(changes)
        }
    }

    /// Commits a save over several stores all or nothing: every built-in store checks and
    /// prepares its part holding its locks (in the order of the stores' identifiers, as every
    /// such save takes them), then every part is written; when a write fails, the parts
    /// written before it are taken back, and only once all are written are they applied to
    /// the rows. A store of another kind commits in one step after the built-in stores' parts
    /// are written (so one such store is all or nothing too).
    ///
    /// - Throws: the first failure, with nothing kept; 134040 (``SaveErrors/incompleteSave(_:kept:)``)
    ///   when a store kept its part all the same (a store of another kind that had
    ///   committed, or a written part that could not be taken back).
    private static func commitAllOrNothing(
        _ targets: [(store: any PersistentStore, changes: StoreChangeSet)]
    ) throws {
        let staged = targets.compactMap { t in
            (t.store as? any StagedCommitting).map { (store: $0, changes: t.changes) }
        }
        let others = targets.filter { !($0.store is any StagedCommitting) }
        var parts: [(store: any PersistentStore, commit: StagedCommit)] = []
        func stage(_ i: Int) throws {
            guard i < staged.count else { return try writeAll() }
            let changes = staged[i].changes.handingOffRows(to: staged[i].store)
            try staged[i].store.withStagedCommit(changes) { part in
                parts.append((staged[i].store, part))
                try stage(i + 1)
            }
        }
        func writeAll() throws {
            var written = 0
            var committed: [any PersistentStore] = []
            var failed: (any PersistentStore)?
            do {
                for part in parts {
                    failed = part.store
                    try part.commit.write()
                    written += 1
                }
                for other in others {
                    failed = other.store
                    var changes = other.changes
                    try commitInOneStep(&changes, to: other.store)
                    committed.append(other.store)
                }
            } catch {
                var kept = committed
                if written < parts.count, parts[written].commit.keptAfterFailedWrite() {
                    kept.append(parts[written].store)
                }
                for part in parts[..<written].reversed() where !part.commit.undo() {
                    kept.append(part.store)
                }
                if kept.isEmpty { throw error }
                throw SaveErrors.incompleteSave(error, failed: failed, kept: kept)
            }
            for part in parts { part.commit.apply() }
        }
        try stage(0)
    }
}

extension StoreChangeSet {
    /// The change set as `store` gets it: its row hand-off (``StoreRowHandoff``) kept only
    /// for the engine's own stores, whose row tables apply it at the right time, on the
    /// committing thread; any other store gets none (its own way of applying the change set
    /// could reorder patches, apply them twice or later), and the saver converts its objects'
    /// overlays after the save.
    func handingOffRows(to store: any PersistentStore) -> StoreChangeSet {
        var changes = self
        changes.keepRowHandoff(onlyFor: store)
        return changes
    }

    /// ``handingOffRows(to:)`` in place.
    mutating func keepRowHandoff(onlyFor store: any PersistentStore) {
        if rowHandoff != nil, !(store is InMemoryStore || store is JSONLinesStore) {
            rowHandoff = nil
        }
    }

    /// The first reference the change set writes to an object of another store than
    /// `storeIdentifier` (temporary IDs never reach a store): its source, slot and target.
    /// O(references written).
    func firstReference(outside storeIdentifier: String)
        -> (ManagedObjectID, Int, ManagedObjectID)?
    {
        func foreign(_ value: StoreValue) -> ManagedObjectID? {
            switch value {
            case .toOne(let target?) where target.storeIdentifier != storeIdentifier:
                return target
            case .toMany(let targets):
                return targets.first { $0.storeIdentifier != storeIdentifier }
            default: return nil
            }
        }
        for row in inserted + updated {
            for (slot, value) in row.values.enumerated() {
                if let target = foreign(value) { return (row.objectID, slot, target) }
            }
        }
        for patch in patched {
            for k in 0..<min(patch.slots.count, patch.valueCount) {
                if let target = foreign(patch.value(atPosition: k)) {
                    return (patch.objectID, patch.slots[k], target)
                }
            }
        }
        return nil
    }
}
