import Foundation

extension FetchedResultsController {
    /// Fetches the results and builds the sections; call it again after changing the request.
    ///
    /// The request's predicate, sort descriptors, `fetchLimit`, `fetchOffset`,
    /// `includesPendingChanges`, `fetchBatchSize` and Foundation `swiftPredicate` apply as in
    /// ``ManagedObjectContext/fetch(_:)``. On error the previous results stay. A
    /// ``FetchedResultsControllerSnapshotDelegate`` receives the fetched results as a snapshot
    /// (with no reloaded items) before this returns, as Core Data's controller does; the other
    /// delegate forms get no call.
    ///
    /// - Throws: ``ObjectGraphError`` `.coreData` (134060) when the request has no sort
    ///   descriptor (Core Data raises), uses Swift `SortDescriptor`s, does not return managed
    ///   objects, names an unknown key, or when the section names do not come out in order
    ///   (the message names the index of the first object out of order, as Core Data's does);
    ///   any error of the fetch.
    /// - Complexity: The fetch, plus O(n) to record each object's sort keys and section.
    ///   Without a section key path and with no delegate, that O(n) waits for the first
    ///   read that needs positions (``indexPath(forObject:)``, ``sections``, a delegate set
    ///   later); the objects are placed by the values they were fetched with.
    /// - Note: Mirrors `performFetch()`.
    public func performFetch() throws {
        managedObjectContext.checkQueue("FetchedResultsController.performFetch()")
        let plan = try FetchedResultsPlan(
            fetchRequest, in: managedObjectContext, sectionNameKeyPath: sectionNameKeyPath)
        // The fetch hands over the rows it made the objects from: sort and section keys are
        // read from them, so batched faults stay faults.
        var rows: [StoreRow]?
        let objects = try managedObjectContext.fetch(fetchRequest, rows: &rows)
        if rows?.count != objects.count { rows = nil }
        if let rows, plan.sectionKey == nil, delegate == nil, invalidationHandler == nil {
            // One section and nobody tracking: the fetched array is the results, and each
            // object's placement (by the row it was fetched with, so later edits do not move
            // it) is recorded the first time something needs it (issue 19: performFetch()
            // within 1.2× a plain fetch).
            self.plan = plan
            placementStore = nil
            nextSequence = objects.count
            cachedObjects = objects
            pendingLayout = { [unowned self] in
                let (layout, inFetchOrder) = makeLayout(
                    of: objects, rows: rows, plan: plan, readsRowsAlways: true)
                if !inFetchOrder { cachedObjects = nil }
                return layout
            }
            updateTracking()
            return
        }
        let (layout, inFetchOrder) = makeLayout(of: objects, rows: rows, plan: plan)
        if plan.sectionKey != nil { try checkSectionOrder(layout.entries, plan) }
        self.plan = plan
        self.layout = layout
        placementStore = nil
        nextSequence = layout.entries.count
        cachedObjects = inFetchOrder ? objects : nil
        updateTracking()
        // A tracking controller needs each object's placement at its first change: build the
        // map now rather than in that change.
        if delegate != nil || invalidationHandler != nil { _ = placements }
        // Core Data hands a snapshot delegate the fetched results at each performFetch()
        // (apps apply it to their data source without animation; issue 19 QA).
        if let delegate = delegate as? any FetchedResultsControllerSnapshotDelegate {
            delegate.controller(self, didChangeContentWith: snapshot(reloaded: []))
        }
    }

    /// The layout of fetched `objects` (with the rows they were made from, when handed over),
    /// and whether it keeps their fetch order (it always should: the fetch sorts by the same
    /// descriptors).
    private func makeLayout(
        of objects: [Result], rows: [StoreRow]?, plan: FetchedResultsPlan<Result>,
        readsRowsAlways: Bool = false
    ) -> (FetchedResultsLayout, inFetchOrder: Bool) {
        // `Result` is a class, so its array has the representation of `[ManagedObject]`: the
        // per-object work then runs in non-generic code (an upcast would copy the array).
        FetchedResultsLayout.fetched(
            unsafeBitCast(objects, to: [ManagedObject].self), rows: rows, reader: plan.keyReader,
            context: managedObjectContext, readsRowsAlways: readsRowsAlways)
    }

    /// Throws when a section name comes back after another one: the section key path does not
    /// order objects as the first sort descriptor does.
    private func checkSectionOrder(_ entries: [FetchedEntry], _ plan: FetchedResultsPlan<Result>)
        throws
    {
        var seen = Set<String>()
        var current: String?
        for (i, entry) in entries.enumerated() where entry.placement.section != current {
            let name = entry.placement.section
            guard seen.insert(name).inserted else {
                throw ObjectGraphError(
                    .sectionsOutOfOrder,
                    "FetchedResultsController: the fetched object at index \(i) has an out of "
                        + "order section name '\(name)'. Objects must be sorted by section name: "
                        + "the first sort descriptor (\(fetchRequest.sortDescriptors[0])) must "
                        + "order objects as '\(sectionNameKeyPath ?? "")' does",
                    entityName: plan.entity.name, key: sectionNameKeyPath)
            }
            current = name
        }
    }
}
