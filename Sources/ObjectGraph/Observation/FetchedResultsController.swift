import Foundation

/// Keeps the results of a fetch request in order and in sections, and reports how they change
/// as the context changes: the model behind a list.
///
/// ```swift
/// let request = FetchRequest<Transaction>(entityName: "Transaction")
/// request.sortDescriptors = [FetchSortDescriptor(key: "date", ascending: false)]
/// let controller = FetchedResultsController(
///     fetchRequest: request, managedObjectContext: context,
///     sectionNameKeyPath: "category.name", cacheName: nil)
/// controller.delegate = self
/// try controller.performFetch()
/// let first = controller.object(at: IndexPath(item: 0, section: 0))
/// ```
///
/// After ``performFetch()`` the controller follows its context while it has a ``delegate``:
/// at the end of each event (each objects-did-change: the end of a `perform`, a
/// `processPendingChanges()`, a save, a merge of another context's save, a refresh) it
/// inserts objects that start matching the predicate, removes deleted ones and those that stop
/// matching, moves those whose sort keys or section changed, and tells the delegate. Only
/// changes in its own context count; another context's saves reach it once merged
/// (`automaticallyMergesChangesFromParent`, `mergeChanges(fromContextDidSave:)`,
/// `mergeChanges(fromRemoteContextSave:into:)`). After the context's `reset()` the controller
/// holds no results and sends nothing, as Core Data's is invalidated: call ``performFetch()``
/// again.
///
/// The request needs at least one sort descriptor. With a ``FetchedResultsControllerBase/sectionNameKeyPath`` the first
/// sort descriptor must order objects as the section names do (the same key, or one the
/// names derive from, such as months from a date); sections then come out in sort order.
/// `fetchLimit` and `fetchOffset` shape ``performFetch()`` only: as in Core Data, objects
/// inserted later join the results without regard to the limit. A section value through a
/// to-one (`category.name`) is read when the object itself changes; renaming the category
/// does not move its transactions (nor does it in Core Data).
///
/// - Note: Mirrors `NSFetchedResultsController`. Confined to its context's queue: every call
///   traps from any other queue when the concurrency check is on.
open class FetchedResultsController<Result: ManagedObject>: FetchedResultsControllerBase {
    /// The request the controller fetches with. Change it, then call ``performFetch()`` again.
    ///
    /// - Note: Mirrors `fetchRequest`.
    public let fetchRequest: FetchRequest<Result>
    /// The context the controller fetches in and follows.
    ///
    /// - Note: Mirrors `managedObjectContext`.
    public let managedObjectContext: ManagedObjectContext
    /// Receives the changes; held weakly. Changes are tracked only while it is set.
    ///
    /// Setting it to `nil` stops tracking: the results then stay as they were until the next
    /// ``performFetch()``.
    ///
    /// - Note: Mirrors `delegate`.
    public weak var delegate: (any FetchedResultsControllerDelegate)? {
        didSet { updateTracking() }
    }

    var plan: FetchedResultsPlan<Result>?
    /// The results in order and in sections, or `nil` before ``performFetch()``; built from
    /// ``pendingLayout`` the first time it is read after a fetch that deferred it.
    var layout: FetchedResultsLayout? {
        get {
            if let pendingLayout {
                self.pendingLayout = nil
                layoutStore = pendingLayout()
            }
            return layoutStore
        }
        set {
            pendingLayout = nil
            layoutStore = newValue
        }
    }
    private var layoutStore: FetchedResultsLayout?
    /// Builds the layout of the last fetch when ``performFetch()`` left it for later (no
    /// section key path and nobody tracking changes: the fetched array is the results).
    var pendingLayout: (() -> FetchedResultsLayout)?
    /// Whether there are results (``performFetch()`` ran, no `reset()` since), without
    /// building a deferred layout.
    var hasResults: Bool { pendingLayout != nil || layoutStore != nil }
    /// Each result's placement by object, or `nil` until first asked for (see ``placements``).
    var placementStore: PlacementTable?
    var nextSequence = 0
    var cachedObjects: [Result]?
    private var observers: [any NSObjectProtocol] = []
    /// Each result's placement by object (what finds an object's position from its recorded
    /// values), built from the layout the first time it is asked for: a controller that only
    /// shows its first fetch never pays for it, one that tracks changes builds it in
    /// ``performFetch()``. The layout's entries and this map always hold the same placements.
    ///
    /// - Complexity: O(1) once built; O(n) the first time.
    var placements: PlacementTable {
        if let placementStore { return placementStore }
        let built = PlacementTable(layout?.entries ?? [])
        placementStore = built
        return built
    }
    /// Called after the context's `reset()` invalidated the results (for the observable
    /// results and the change stream, which fetch again).
    var invalidationHandler: (() -> Void)?

    /// A controller for `fetchRequest` in `context`.
    ///
    /// Nothing is fetched until ``performFetch()``.
    ///
    /// - Parameters:
    ///   - fetchRequest: The request; it needs at least one sort descriptor.
    ///   - context: The context to fetch in and follow.
    ///   - sectionNameKeyPath: A key path (through to-one relationships) to an attribute whose
    ///     value names each object's section; `nil` for one section.
    ///   - name: Accepted for Core Data code; no cache is written (see ``FetchedResultsControllerBase/cacheName``).
    /// - Note: Mirrors `init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:)`.
    public init(
        fetchRequest: FetchRequest<Result>, managedObjectContext context: ManagedObjectContext,
        sectionNameKeyPath: String?, cacheName name: String?
    ) {
        self.fetchRequest = fetchRequest
        self.managedObjectContext = context
        super.init(sectionNameKeyPath: sectionNameKeyPath, cacheName: name)
    }

    deinit {
        for observer in observers { NotificationCenter.default.removeObserver(observer) }
    }

    // MARK: Reading the results

    /// The fetched objects in order, or `nil` before ``performFetch()`` (and after the
    /// context's `reset()`).
    ///
    /// - Complexity: O(n) the first time after a change, then O(1).
    /// - Note: Mirrors `fetchedObjects`.
    public var fetchedObjects: [Result]? {
        managedObjectContext.checkQueue("FetchedResultsController.fetchedObjects")
        guard hasResults else { return nil }
        if let cachedObjects { return cachedObjects }
        guard let layout else { return nil }
        let objects = layout.entries.map { $0.object as! Result }
        cachedObjects = objects
        return objects
    }

    /// The sections in order, or `nil` before ``performFetch()``.
    ///
    /// Without a section key path there is one section, named `""`, even when it is empty.
    ///
    /// - Complexity: O(number of sections).
    /// - Note: Mirrors `sections`.
    public var sections: [FetchedResultsSection<Result>]? {
        managedObjectContext.checkQueue("FetchedResultsController.sections")
        guard let layout else { return nil }
        return layout.sections.map { run in
            FetchedResultsSection(
                name: run.name, indexTitle: indexTitle(forSection: run.name),
                entries: layout.entries[run.start..<(run.start + run.count)])
        }
    }

    /// The object at `indexPath` (`[section, item]`).
    ///
    /// - Precondition: ``performFetch()`` ran and `indexPath` is in range.
    /// - Complexity: O(1).
    /// - Note: Mirrors `object(at:)`.
    public func object(at indexPath: IndexPath) -> Result {
        managedObjectContext.checkQueue("FetchedResultsController.object(at:)")
        if pendingLayout != nil, let cachedObjects, indexPath.count == 2, indexPath[0] == 0,
            cachedObjects.indices.contains(indexPath[1])
        {
            return cachedObjects[indexPath[1]]  // one section: the fetched array itself
        }
        guard let layout, let index = layout.flatIndex(of: indexPath) else {
            preconditionFailure(
                "FetchedResultsController.object(at:): no object at \(indexPath) "
                    + "(sections: \(layout?.sections.map(\.count) ?? []))")
        }
        return layout.entries[index].object as! Result
    }

    /// Where `object` is in the results, or `nil` when it is not in them.
    ///
    /// - Complexity: O(log n).
    /// - Note: Mirrors `indexPath(forObject:)`.
    public func indexPath(forObject object: Result) -> IndexPath? {
        managedObjectContext.checkQueue("FetchedResultsController.indexPath(forObject:)")
        guard let layout, let placement = placements[ObjectIdentifier(object)] else { return nil }
        return locate(object, at: placement, in: layout).map(layout.indexPath(at:))
    }

    /// The index titles of the sections, in order, each once.
    ///
    /// Override it in a subclass to show another index (a full alphabet, say), as Apple's
    /// documentation suggests; pair it with ``section(forSectionIndexTitle:at:)``, which
    /// leads a title no section has to the next section.
    ///
    /// - Note: Mirrors `sectionIndexTitles`.
    open var sectionIndexTitles: [String] {
        managedObjectContext.checkQueue("FetchedResultsController.sectionIndexTitles")
        var titles: [String] = []
        for run in layout?.sections ?? [] {
            if let title = indexTitle(forSection: run.name), titles.last != title {
                titles.append(title)
            }
        }
        return titles
    }

    /// The section a section index entry leads to: the first section whose index title is
    /// `title`, else the first whose title sorts after it, else the last section.
    ///
    /// - Parameters:
    ///   - title: A title from ``sectionIndexTitles``.
    ///   - sectionIndex: Its position in ``sectionIndexTitles`` (used when no section has a
    ///     title at all).
    /// - Note: Mirrors `section(forSectionIndexTitle:at:)`.
    open func section(forSectionIndexTitle title: String, at sectionIndex: Int) -> Int {
        managedObjectContext.checkQueue(
            "FetchedResultsController.section(forSectionIndexTitle:at:)")
        let runs = layout?.sections ?? []
        let titles = runs.map { indexTitle(forSection: $0.name) }
        if let exact = titles.firstIndex(of: title) { return exact }
        if let after = titles.firstIndex(where: { ($0 ?? "") > title }) { return after }
        return max(0, min(sectionIndex, runs.count - 1))
    }

    // MARK: Internal

    /// The index title of a section: the delegate's, else ``sectionIndexTitle(forSectionName:)``.
    func indexTitle(forSection name: String) -> String? {
        if let delegate {
            return delegate.controller(self, sectionIndexTitleForSectionName: name)
        }
        return sectionIndexTitle(forSectionName: name)
    }

    /// The flat index of `object`, placed at `placement`: by binary search, or by a scan when
    /// the recorded order no longer holds (never expected).
    func locate(
        _ object: ManagedObject, at placement: FetchedPlacement, in layout: FetchedResultsLayout
    )
        -> Int?
    {
        if let i = layout.index(of: object, at: placement) { return i }
        return layout.entries.firstIndex { $0.object === object }
    }

    /// Observes the context while there are results and someone to tell.
    func updateTracking() {
        let wanted = hasResults && (delegate != nil || invalidationHandler != nil)
        if wanted, observers.isEmpty {
            let reference = WeakControllerReference(self)
            let center = NotificationCenter.default
            observers = [
                center.addObserver(
                    forName: ManagedObjectContext.didChangeObjectsNotification,
                    object: managedObjectContext, queue: nil
                ) { note in reference.value?.contextDidChange(note.userInfo ?? [:]) },
                center.addObserver(
                    forName: ManagedObjectContext.didMergeChangesObjectIDsNotification,
                    object: managedObjectContext, queue: nil
                ) { note in reference.value?.contextDidMerge(note.userInfo ?? [:]) },
            ]
        } else if !wanted, !observers.isEmpty {
            for observer in observers { NotificationCenter.default.removeObserver(observer) }
            observers = []
        }
    }
}
