import Foundation

extension ManagedObjectContext {
    /// Gives a large save's only change set the save's adoption (`apply(_:newIDs:)`), to run
    /// while the store applies the change set to its rows (see `StoreCommitOverlap`); returns
    /// it, or `nil` where the adoption must wait for the commit: fewer objects to re-key or
    /// version (new IDs and updated objects) than `commitOverlapThreshold` (a save of
    /// deletions only has nothing to run beside the table update), more than one store, a
    /// row hand-off, or an adoption that does more than re-key and version (objects merged,
    /// taken over, rolled back or given planned values, whose adoption may read the store or
    /// announce a refresh).
    func offerOverlap(
        _ plan: SavePlan, _ newIDs: NewObjectIDs, in sets: inout [String: StoreChangeSet]
    ) -> StoreCommitOverlap? {
        guard
            newIDs.count + plan.updated.count >= commitOverlapThreshold,
            sets.count == 1, let key = sets.keys.first, sets[key]?.rowHandoff == nil,
            plan.vanished.isEmpty, plan.rolledBack.isEmpty, !plan.plansValues,
            plan.losers.isEmpty, plan.takeovers.isEmpty, plan.survivorOf.isEmpty
        else { return nil }
        let overlap = StoreCommitOverlap(threshold: commitOverlapThreshold) {
            self.apply(plan, newIDs: newIDs)
        }
        sets[key]?.overlap = overlap
        return overlap
    }
}
