import Foundation

/// One event's effect on the results, worked out before anything changes.
struct FetchedResultsEvent {
    /// Objects leaving the results, with their recorded placement.
    var deletions: [(ManagedObject, FetchedPlacement)] = []
    /// Objects joining the results, with their new placement.
    var insertions: [(ManagedObject, FetchedPlacement)] = []
    /// Objects whose sort keys or section changed: old and new placement.
    var repositions: [(ManagedObject, FetchedPlacement, FetchedPlacement)] = []
    /// Objects that changed without a new placement.
    var updates: [(ManagedObject, FetchedPlacement)] = []

    var isEmpty: Bool {
        deletions.isEmpty && insertions.isEmpty && repositions.isEmpty && updates.isEmpty
    }
}

extension FetchedResultsController {
    /// The context's objects-did-change: applies the changes and reports them.
    func contextDidChange(_ info: [AnyHashable: Any]) {
        if info[NSInvalidatedAllObjectsKey] != nil {
            // Core Data's controller sends nothing on invalidate-all; the app fetches again.
            layout = nil
            placementStore = nil
            cachedObjects = nil
            updateTracking()
            invalidationHandler?()
            return
        }
        guard let plan, layout != nil else { return }
        let event = classify(info, plan)
        guard !event.isEmpty else { return }
        apply(event)
    }

    /// After a merge: objects another context updated that this one had not loaded were not
    /// in the merge's objects-did-change; those that now match join the results.
    func contextDidMerge(_ info: [AnyHashable: Any]) {
        guard let plan, layout != nil else { return }
        let updated = info[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID> ?? []
        var event = FetchedResultsEvent()
        plan.predicate?.resetCaches()
        for id in updated {
            let entity = id.entity
            guard plan.includesSubentities ? entity.isKind(of: plan.entity) : entity === plan.entity
            else { continue }
            if let known = managedObjectContext.registeredObject(for: id),
                placements[ObjectIdentifier(known)] != nil
            {
                continue
            }
            let object = managedObjectContext.object(with: id)
            guard !object.isDeleted, object is Result, plan.matches(object) else { continue }
            event.insertions.append((object, plan.placement(of: object, sequence: nextSequence)))
            nextSequence += 1
        }
        if !event.isEmpty { apply(event) }
    }

    /// Sorts the notification's objects into deletions, insertions, moves and updates.
    private func classify(_ info: [AnyHashable: Any], _ plan: FetchedResultsPlan<Result>)
        -> FetchedResultsEvent
    {
        func objects(_ key: String) -> Set<ManagedObject> {
            info[key] as? Set<ManagedObject> ?? []
        }
        plan.predicate?.resetCaches()
        var event = FetchedResultsEvent()
        var seen = Set<ObjectIdentifier>()
        for object in objects(NSDeletedObjectsKey).union(objects(NSInvalidatedObjectsKey)) {
            let id = ObjectIdentifier(object)
            seen.insert(id)
            if let placement = placements[id] { event.deletions.append((object, placement)) }
        }
        let changed = [NSInsertedObjectsKey, NSUpdatedObjectsKey, NSRefreshedObjectsKey]
        for key in changed {
            for object in objects(key) where seen.insert(ObjectIdentifier(object)).inserted {
                classify(object, plan, into: &event)
            }
        }
        return event
    }

    private func classify(
        _ object: ManagedObject, _ plan: FetchedResultsPlan<Result>,
        into event: inout FetchedResultsEvent
    ) {
        guard plan.matchesEntity(object), object is Result else { return }
        let recorded = placements[ObjectIdentifier(object)]
        let matches =
            !object.isDeleted && object.isIn(managedObjectContext)
            && plan.matches(object)
        switch (recorded, matches) {
        case (let old?, false):
            event.deletions.append((object, old))
        case (let old?, true):
            let new = plan.placement(of: object, sequence: old.sequence)
            if new.section != old.section || !layout!.sameKeys(new, old) {
                event.repositions.append((object, old, new))
            } else {
                event.updates.append((object, old))
            }
        case (nil, true):
            event.insertions.append((object, plan.placement(of: object, sequence: nextSequence)))
            nextSequence += 1
        case (nil, false):
            break
        }
    }

    /// Applies `event` to the results and tells the delegate.
    private func apply(_ event: FetchedResultsEvent) {
        // Taken out, so editing them does not copy the array and map the controller still
        // holds (the map first: it is built from the layout when not built yet).
        var placements = self.placements
        placementStore = nil
        var layout = self.layout!
        self.layout = nil
        let report = DelegateReport(delegate, hasSections: sectionNameKeyPath != nil)
        let oldIDs = report.wantsDifference ? layout.entries.map(\.object.objectID) : []
        let oldSections = layout.sections.map(\.name)
        // Old positions, all found before anything moves.
        let removed = event.deletions.map { ($0.0, $0.1) } + event.repositions.map { ($0.0, $0.1) }
        let removedIndexes = removed.map { locate($0.0, at: $0.1, in: layout)! }
        // For each repositioned object, the nearest object before it that stays in place.
        let removedIDs = Set(removed.map { ObjectIdentifier($0.0) })
        let anchors = removedIndexes.dropFirst(event.deletions.count).map {
            layout.anchor(before: $0, skipping: removedIDs)
        }
        let updatedIndexes = event.updates.map { locate($0.0, at: $0.1, in: layout)! }
        let oldPaths = report.wantsCalls ? removedIndexes.map(layout.indexPath(at:)) : []
        let updatedOldPaths = report.wantsCalls ? updatedIndexes.map(layout.indexPath(at:)) : []

        let arriving =
            event.insertions.map { FetchedEntry(object: $0.0, placement: $0.1) }
            + event.repositions.map { FetchedEntry(object: $0.0, placement: $0.2) }
        layout.apply(removing: removedIndexes, inserting: arriving)
        for (object, _) in event.deletions { placements[ObjectIdentifier(object)] = nil }
        for entry in arriving { placements[ObjectIdentifier(entry.object)] = entry.placement }
        placementStore = placements
        self.layout = layout
        cachedObjects = nil

        if report.wantsSnapshot,
            let delegate = delegate as? any FetchedResultsControllerSnapshotDelegate
        {
            delegate.controller(
                self, didChangeContentWith: snapshot(reloaded: event.updates.map(\.0.objectID)))
            return
        }
        if report.wantsDifference,
            let delegate = delegate as? any FetchedResultsControllerDifferenceDelegate
        {
            let newIDs = layout.entries.map(\.object.objectID)
            delegate.controller(
                self, didChangeContentWith: newIDs.difference(from: oldIDs).inferringMoves())
            return
        }
        guard report.wantsCalls, let delegate else { return }
        func newPath(_ object: ManagedObject, _ placement: FetchedPlacement) -> IndexPath {
            layout.indexPath(at: locate(object, at: placement, in: layout)!)
        }
        var changes = ObjectChanges()
        for (i, (object, _)) in event.deletions.enumerated() {
            changes.deletes.append((object, oldPaths[i]))
        }
        for (object, placement) in event.insertions {
            changes.inserts.append((object, newPath(object, placement)))
        }
        for (i, (object, old)) in event.updates.enumerated() {
            changes.updates.append((object, updatedOldPaths[i], newPath(object, old)))
        }
        let arrivingIDs = Set(arriving.map { ObjectIdentifier($0.object) })
        for (i, (object, old, new)) in event.repositions.enumerated() {
            let from = oldPaths[event.deletions.count + i]
            let to = newPath(object, new)
            // A changed sort key is a move only when the index path changes, and only while
            // reporting it as an update keeps it in its place among the objects that stay: a
            // table applying the calls must end where the controller is.
            let newIndex = locate(object, at: new, in: layout)!
            if from == to, old.section == new.section,
                anchors[i] === layout.anchor(before: newIndex, skipping: arrivingIDs)
            {
                changes.updates.append((object, from, to))
            } else {
                changes.moves.append((object, from, to))
            }
        }
        delegate.controllerWillChangeContent(self)
        reportSections(from: oldSections, to: layout.sections.map(\.name), delegate)
        changes.report(self, delegate)
        delegate.controllerDidChangeContent(self)
    }
}
