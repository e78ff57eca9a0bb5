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
/// - Note: Mirrors `NSPersistentContainer`. The default description is a file store
///   `<name>.jsonl` in ``defaultDirectoryURL()`` (Core Data's is `<name>.sqlite` there).
public final class PersistentContainer: @unchecked Sendable {
    // Sendable: `descriptions` is guarded by `lock`; the view context is main-queue confined;
    // `modelLoadError` is immutable.
    /// The container's name.
    public let name: String
    /// The model of its stores.
    public let managedObjectModel: ManagedObjectModel
    /// The coordinator.
    public let persistentStoreCoordinator: PersistentStoreCoordinator
    private let lock = NSLock()
    /// The stores to open; `nil` until first read or set, then the default description is
    /// made (finding its directory reads the process environment, which cost ~half of
    /// making a fixture container that sets its own descriptions).
    private var descriptions: [PersistentStoreDescription]?
    private var _viewContext: ManagedObjectContext?
    /// Why ``init(name:bundle:classResolver:modules:)`` found no usable model; reported by
    /// loading.
    let modelLoadError: ObjectGraphError?

    /// Creates a container for `model`; call ``loadPersistentStores(completionHandler:)`` next.
    ///
    /// - Note: Mirrors `init(name:managedObjectModel:)`.
    public convenience init(name: String, managedObjectModel: ManagedObjectModel) {
        self.init(name: name, model: managedObjectModel, loadError: nil)
    }

    init(name: String, model: ManagedObjectModel, loadError: ObjectGraphError?) {
        self.name = name
        self.managedObjectModel = model
        self.modelLoadError = loadError
        self.persistentStoreCoordinator = PersistentStoreCoordinator(managedObjectModel: model)
        self.descriptions = nil
    }

    /// The directory of the default store: the user's application-data directory.
    ///
    /// On Linux that is `$XDG_DATA_HOME`, else `~/.local/share` (Foundation's
    /// `applicationSupportDirectory` there), the place the XDG base-directory convention gives
    /// programs' data; on Apple platforms, `~/Library/Application Support`. Loading the
    /// default description creates the directory when it is missing.
    ///
    /// - Note: Mirrors `NSPersistentContainer.defaultDirectoryURL()`.
    public class func defaultDirectoryURL() -> URL {
        FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share")
    }

    /// The stores to open; set before loading.
    public var persistentStoreDescriptions: [PersistentStoreDescription] {
        get {
            lock.withLock {
                if let descriptions { return descriptions }
                let made = [
                    PersistentStoreDescription(
                        url: Self.defaultDirectoryURL().appendingPathComponent("\(name).jsonl"))
                ]
                descriptions = made
                return made
            }
        }
        set { lock.withLock { descriptions = newValue } }
    }

    /// Opens every described store, calling `completionHandler` once per store with the
    /// description and the error, if any.
    ///
    /// Stores are opened synchronously, before this returns, unless a description sets
    /// `shouldAddStoreAsynchronously`. A container made by name whose model was not found
    /// (or did not read) reports that error for every description and opens nothing.
    ///
    /// - Note: Mirrors `loadPersistentStores(completionHandler:)`.
    public func loadPersistentStores(
        completionHandler: @escaping @Sendable (PersistentStoreDescription, (any Error)?) -> Void
    ) {
        for description in persistentStoreDescriptions {
            let open: @Sendable () -> Void = { [self] in
                do {
                    try load(description)
                    completionHandler(description, nil)
                } catch {
                    completionHandler(description, error)
                }
            }
            if description.shouldAddStoreAsynchronously {
                if let scheduler = persistentStoreCoordinator.contextScheduler {
                    scheduler.lane(for: .privateQueue)
                        .enqueue("add store asynchronously", context: nil, open)
                } else {
                    DispatchQueue.global().async(execute: open)
                }
            } else {
                open()
            }
        }
    }

    /// Opens every described store, throwing the first error.
    ///
    /// - Throws: the model's error for a container made by name whose model was not found
    ///   (``ObjectGraphError/Reason/modelNotFound``, naming every place searched) or did not
    ///   read; else the first store's opening error (see
    ///   ``PersistentStoreCoordinator/addPersistentStore(with:)``).
    public func loadPersistentStores() throws {
        for description in persistentStoreDescriptions { try load(description) }
    }

    /// What adding the stores noticed and ignored (options this build does not know).
    ///
    /// See ``PersistentStoreCoordinator/loadWarnings``.
    public var loadWarnings: [String] { persistentStoreCoordinator.loadWarnings }

    /// Opens one store, creating the default directory for a store placed there.
    private func load(_ description: PersistentStoreDescription) throws {
        if let modelLoadError { throw modelLoadError }
        if let url = description.url,
            let directory = Self.directoryToCreate(
                for: url, defaultDirectory: Self.defaultDirectoryURL)
        {
            try? FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true)
        }
        try persistentStoreCoordinator.addPersistentStore(with: description)
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

    /// Whether ``viewContext`` has been created (a scheduler must be installed before).
    package var hasViewContext: Bool { lock.withLock { _viewContext != nil } }

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
