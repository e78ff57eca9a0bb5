import Foundation
import ObjectGraph

/// What a ``LoadJob`` or ``SeedJob`` wrote.
public struct StoreJobResult: Sendable {
    /// The coordinator holding the store written to (release it to close the store).
    public let coordinator: PersistentStoreCoordinator
    /// How many objects of each entity were written (entities with none are absent).
    public let counts: [String: Int]

    /// The store's UUID.
    public var storeIdentifier: String { coordinator.persistentStores.first?.identifier ?? "" }

    /// The number of objects written in all.
    public var totalCount: Int { counts.values.reduce(0, +) }
}

/// How a ``LoadJob`` or ``SeedJob`` opens its destination and undoes it on failure.
enum StoreJobDestination {
    /// Opens the store at `url` through `environment`, runs `write` on its coordinator, and
    /// returns the coordinator. When `write` fails, a store file the open created (and that
    /// nothing was saved to) is removed again while the store still holds its writer lock.
    ///
    /// - Parameter requiresNewFile: When `true`, a file that already exists when the writer
    ///   lock is taken is refused (134080) before anything is written to it.
    static func open(
        _ url: URL, model: ManagedObjectModel, options: StoreOptions, requiresNewFile: Bool,
        environment: DeterministicEnvironment, write: (PersistentStoreCoordinator) throws -> Void
    ) throws -> PersistentStoreCoordinator {
        let coordinator = try environment.makeCoordinator(model: model, url: url, options: options)
        let files = coordinator.persistentStores.compactMap { $0 as? JSONLinesStore }
        do {
            if requiresNewFile, let existing = files.first(where: { !$0.didCreateFile }) {
                throw ObjectGraphError(
                    .storeOpen,
                    "store \(url.path) already exists; choose a new file (nothing was written)",
                    file: existing.url?.path)
            }
            try write(coordinator)
        } catch {
            for store in files {
                store.closeRemovingCreatedFile()
                coordinator.remove(store)
            }
            throw error
        }
        return coordinator
    }

    /// Whether `error` comes from the store itself (opening, writing, locking: Core Data's
    /// 134000–134999), not from the objects being saved: such errors are passed on as they
    /// are, never blamed on the model or the fixtures.
    static func isStoreError(_ error: ObjectGraphError) -> Bool {
        (134_000..<135_000).contains(error.code.rawValue)
    }
}
