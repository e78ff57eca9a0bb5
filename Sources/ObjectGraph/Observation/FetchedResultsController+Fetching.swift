import Foundation

extension FetchedResultsController {
    /// Fetches the results and builds the sections; call it again after changing the request.
    ///
    /// The request's predicate, sort descriptors, `fetchLimit`, `fetchOffset`,
    /// `includesPendingChanges`, `fetchBatchSize` and Foundation `swiftPredicate` apply as in
    /// ``ManagedObjectContext/fetch(_:)``. On error the previous results stay.
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
                let (layout, inFetchOrder) = Self.layout(
                    of: objects, rows: rows, plan: plan, readsRowsAlways: true)
                if !inFetchOrder { cachedObjects = nil }
                return layout
            }
            updateTracking()
            return
        }
        let (layout, inFetchOrder) = Self.layout(of: objects, rows: rows, plan: plan)
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
    }

    /// The layout of fetched `objects` (with the rows they were made from, when handed over),
    /// and whether it keeps their fetch order (it always should: the fetch sorts by the same
    /// descriptors).
    private static func layout(
        of objects: [Result], rows: [StoreRow]?, plan: FetchedResultsPlan<Result>,
        readsRowsAlways: Bool = false
    ) -> (FetchedResultsLayout, inFetchOrder: Bool) {
        var entries: [FetchedEntry] = []
        entries.reserveCapacity(objects.count)
        // By index: `enumerated()` over the generic results would look up its tuple's type
        // metadata at run time for every object.
        for i in objects.indices {
            let object: ManagedObject = objects[i]
            let placement = plan.placement(
                of: object, row: rows?[i].values, sequence: i, readsRowAlways: readsRowsAlways)
            entries.append(FetchedEntry(object: object, placement: placement))
        }
        var layout = FetchedResultsLayout(
            sorts: plan.sorts, isSingleSection: plan.sectionKey == nil)
        var inFetchOrder = true
        for i in entries.indices.dropFirst()
        where !layout.precedes(entries[i - 1].placement, entries[i].placement) {
            inFetchOrder = false
            break
        }
        if !inFetchOrder {
            // Never expected (the fetch sorts by the same descriptors); keeps the search sound.
            entries.sort { layout.precedes($0.placement, $1.placement) }
        }
        layout.replaceAll(entries)
        return (layout, inFetchOrder)
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
