import Foundation
import Observation

/// The results of a fetch request that stay current, for Swift's Observation framework: what
/// SwiftUI's `@FetchRequest` and SwiftData's `@Query` are to a view.
///
/// ```swift
/// let expenses = try ObservableFetchResults(
///     fetchRequest: request, managedObjectContext: container.viewContext,
///     sectionNameKeyPath: "category.name")
/// withObservationTracking { render(expenses.sections) } onChange: { scheduleRender() }
/// ```
///
/// It fetches at once, then follows the context through a ``FetchedResultsController``: at the
/// end of each context event that changes the results, ``objects`` and ``sections`` change
/// together, in one mutation, so an observer sees exactly one change per event (and none for
/// events that leave the results alone). After the context's `reset()` it fetches again.
///
/// On Apple platforms a SwiftUI view holds it in `@State` (built from the view context) and
/// reads ``objects`` in `body`; SwiftUI re-renders on each change. On Linux, wrap the reads in
/// `withObservationTracking` and re-register in `onChange`, or use the change stream
/// (``ManagedObjectContext/changes(for:sectionNameKeyPath:)``) from async code.
///
/// - Note: Stands in for SwiftUI's `FetchRequest`/`SectionedFetchRequest` and SwiftData's
///   `Query`. Confined to its context's queue, like the objects it holds.
@Observable
public final class ObservableFetchResults<Result: ManagedObject> {
    /// The objects and sections as of the last event; one stored value so one event makes
    /// one change.
    private var state: State

    @ObservationIgnored private let controller: FetchedResultsController<Result>
    @ObservationIgnored private let listener = ResultsListener()

    /// Fetches `fetchRequest` in `context` and starts following the context.
    ///
    /// - Parameters:
    ///   - fetchRequest: The request; it needs at least one sort descriptor.
    ///   - context: The context to fetch in and follow; use this object on its queue.
    ///   - sectionNameKeyPath: A key path naming each object's section, or `nil`.
    /// - Throws: as ``FetchedResultsController/performFetch()``.
    public init(
        fetchRequest: FetchRequest<Result>, managedObjectContext context: ManagedObjectContext,
        sectionNameKeyPath: String? = nil
    ) throws {
        controller = FetchedResultsController(
            fetchRequest: fetchRequest, managedObjectContext: context,
            sectionNameKeyPath: sectionNameKeyPath, cacheName: nil)
        controller.delegate = listener
        try controller.performFetch()
        state = State(controller)
        listener.onChange = { [unowned self] _ in state = State(controller) }
        controller.invalidationHandler = { [unowned self] in refetch() }
    }

    /// The objects, in order.
    public var objects: [Result] { state.objects }

    /// The sections, in order (one, named `""`, without a section key path).
    public var sections: [FetchedResultsSection<Result>] { state.sections }

    /// The error of the last fetch after the context's `reset()`, if it failed (the results
    /// are then empty).
    public var fetchError: (any Error)? { state.error }

    /// The request the results come from.
    public var fetchRequest: FetchRequest<Result> { controller.fetchRequest }

    /// Fetches again: after changing ``fetchRequest``'s predicate or sort descriptors.
    ///
    /// - Throws: as ``FetchedResultsController/performFetch()``; the results stay as they were.
    public func performFetch() throws {
        try controller.performFetch()
        state = State(controller)
    }

    private func refetch() {
        do {
            try controller.performFetch()
            state = State(controller)
        } catch {
            state = State(error: error)
        }
    }

    /// The published value: objects, sections and the last refetch error.
    private struct State {
        var objects: [Result] = []
        var sections: [FetchedResultsSection<Result>] = []
        var error: (any Error)?

        init(_ controller: FetchedResultsController<Result>) {
            objects = controller.fetchedObjects ?? []
            sections = controller.sections ?? []
        }

        init(error: any Error) { self.error = error }
    }
}
