import Foundation

extension JSONLinesStore: RowBatchUpdatingStore {
    /// Runs a batch update on the rows: plans it on the current rows (every new value
    /// computed first, so a value that does not fit writes nothing), appends the updates as
    /// one transaction line like any save (as patches: partial rows carrying the attributes
    /// whose values change, with history and query generations served as for a save's
    /// patches), then writes the new values into the rows where they are. The rows come from
    /// the table under the writer lock, so there is no version or reference to check.
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
                var ids: [ManagedObjectID] = []
                try append(
                    StoreChangeSet(
                        patched: table.patches(plan), author: update.author,
                        contextName: update.contextName, timestamp: update.timestamp)
                ) { ids = $0.apply(plan) }
                return ids
            }
        }
    }
}
