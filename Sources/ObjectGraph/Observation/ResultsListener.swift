import Foundation

/// The delegate behind the observable results and the change stream: collects the IDs of
/// objects updated in place and calls `onChange` once per event.
final class ResultsListener: FetchedResultsControllerDelegate {
    var onChange: ([ManagedObjectID]) -> Void = { _ in }
    private var updated: [ManagedObjectID] = []

    func controllerWillChangeContent(_ controller: FetchedResultsControllerBase) {
        updated = []
    }

    func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        if type == .update, let object = anObject as? ManagedObject {
            updated.append(object.objectID)
        }
    }

    func controllerDidChangeContent(_ controller: FetchedResultsControllerBase) {
        onChange(updated)
        updated = []
    }
}
