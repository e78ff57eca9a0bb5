import Foundation

/// The whole stack in one object: model, coordinator, stores and a main-queue view context.
///
/// ```swift
/// let container = PersistentContainer(name: "ExpenseTracker", managedObjectModel: model)
/// container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "/dev/null"))]
/// container.loadPersistentStores { _, error in if let error { fatalError("\(error)") } }
/// let context = container.viewContext
/// ```
///
/// - Note: Mirrors `NSPersistentContainer`. The default description is a file store named
///   `<name>.jsonl` in the current directory (Core Data uses Application Support/`<name>.sqlite`).
public final class PersistentContainer: @unchecked Sendable {
    // Sendable: `descriptions` is guarded by `lock`; the view context is main-queue confined.
    /// The container's name.
    public let name: String
    /// The model of its stores.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    private let lock = NSLock()
    private var descriptions: [PersistentStoreDescription]
    private var _viewContext: ManagedObjectContext?

    /// Creates a container for `model`; call ``loadPersistentStores(completionHandler:)`` next.
    ///
    /// - Note: Mirrors `init(name:managedObjectModel:)`.
    public init(name: String, managedObjectModel: ManagedObjectModel) {
        self.name = name
        self.managedObjectModel = managedObjectModel
        self.persistentStoreCoordinator = PersistentStoreCoordinator(
            managedObjectModel: managedObjectModel)
        self.descriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: "\(name).jsonl"))]
    }

    /// The stores to open; set before loading.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get { lock.withLock { descriptions } }
        set { lock.withLock { descriptions = newValue } }
    }

    /// Opens every described store, calling `completionHandler` once per store with the
    /// description and the error, if any.
    ///
    /// Stores are opened synchronously, before this returns, unless a description sets
    /// `shouldAddStoreAsynchronously`.
    ///
    /// - Note: Mirrors `loadPersistentStores(completionHandler:)`.
    public func loadPersistentStores(
        completionHandler: @escaping @Sendable (PersistentStoreDescription, (any Error)?) -> Void
    ) {
        for description in persistentStoreDescriptions {
            let open: @Sendable () -> Void = { [persistentStoreCoordinator] in
                do {
                    try persistentStoreCoordinator.addPersistentStore(with: description)
                    completionHandler(description, nil)
                } catch {
                    completionHandler(description, error)
                }
            }
            if description.shouldAddStoreAsynchronously {
                DispatchQueue.global().async(execute: open)
            } else {
                open()
            }
        }
    }

    /// Opens every described store, throwing the first error.
    ///
    /// - Throws: the first store's opening error (see `PersistentStoreCoordinator.addPersistentStore(with:)`).
    public func loadPersistentStores() throws {
        for description in persistentStoreDescriptions {
            try persistentStoreCoordinator.addPersistentStore(with: description)
        }
    }

    /// The main-queue context on the coordinator, created on first use.
    ///
    /// - Note: Mirrors `viewContext`.
    public var viewContext: ManagedObjectContext {
        lock.withLock {
            if let _viewContext { return _viewContext }
            let context = ManagedObjectContext(
                concurrencyType: .mainQueue, coordinator: persistentStoreCoordinator)
            context.name = "viewContext"
            _viewContext = context
            return context
        }
    }

    /// A new private-queue context on the coordinator.
    ///
    /// - Note: Mirrors `newBackgroundContext()`.
    public func newBackgroundContext() -> ManagedObjectContext {
        ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: persistentStoreCoordinator)
    }

    /// Runs `block` on a new private-queue context, asynchronously.
    ///
    /// - Note: Mirrors `performBackgroundTask(_:)`.
    public func performBackgroundTask(_ block: @escaping @Sendable (ManagedObjectContext) -> Void) {
        let context = newBackgroundContext()
        context.perform { block(context) }
    }

    /// Runs `block` on a new private-queue context and returns its value.
    ///
    /// - Throws: whatever `block` throws.
    /// - Note: Mirrors `performBackgroundTask(_:) async`.
    public func performBackgroundTask<T: Sendable>(
        _ block: @escaping @Sendable (ManagedObjectContext) throws -> T
    ) async throws -> T {
        let context = newBackgroundContext()
        return try await context.perform { try block(context) }
    }
}
