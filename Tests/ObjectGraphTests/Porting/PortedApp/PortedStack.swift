import Foundation
import ObjectGraph

/// The stack singleton, as Core Data apps write it (`NSPersistentContainer(name:)`, the view
/// context merging from its parent with an object-trump policy, main-queue child contexts).
final class PortedProvider: @unchecked Sendable {
    // Sendable: the container is; the view context is used on the main queue only.
    static let shared = PortedProvider(storeURL: URL(fileURLWithPath: "/dev/null"))

    let persistentContainer: PersistentContainer
    /// What `loadPersistentStores` reported.
    private(set) var loadError: (any Error)?

    var viewContext: ManagedObjectContext { persistentContainer.viewContext }

    static let modelBundle = Bundle(
        path: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures").path)

    init(storeURL: URL) {
        persistentContainer = PersistentContainer(name: "PortedExpenses", bundle: Self.modelBundle)
        if let storeDescription = persistentContainer.persistentStoreDescriptions.first {
            storeDescription.url = storeURL
        }
        let errors = ErrorList()
        persistentContainer.loadPersistentStores { _, error in
            if let error { errors.append(error) }
        }
        loadError = errors.first
        viewContext.performAndWait {
            viewContext.automaticallyMergesChangesFromParent = true
            viewContext.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        }
    }

    /// A main-queue scratchpad whose parent is the view context.
    func newChildContext() -> ManagedObjectContext {
        let context = ManagedObjectContext(concurrencyType: .mainQueueConcurrencyType)
        context.parent = viewContext
        context.mergePolicy = NSMergeByPropertyObjectTrumpMergePolicy
        return context
    }

    /// Errors collected from a completion handler.
    final class ErrorList: @unchecked Sendable {
        // Sendable: guarded by `lock`.
        private let lock = NSLock()
        private var errors: [any Error] = []
        func append(_ error: any Error) {
            lock.lock()
            errors.append(error)
            lock.unlock()
        }
        var first: (any Error)? {
            lock.lock()
            defer { lock.unlock() }
            return errors.first
        }
    }
}
