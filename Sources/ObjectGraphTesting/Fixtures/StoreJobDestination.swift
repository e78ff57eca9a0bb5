import Foundation
import ObjectGraph

/// How a ``LoadJob`` or ``SeedJob`` writes its destination: so that a failure, a full disk or
/// a `kill -9` never leaves a half-made store file behind.
enum StoreJobDestination {
    /// Opens the store at `url` through `environment`, runs `write` on its coordinator, and
    /// returns the coordinator holding the written store, open.
    ///
    /// With `requiresNewFile`, the store is written in a private staging directory beside
    /// `url` (`.NAME.staging-UUID/NAME`), closed, and linked to `url` (`link(2)`, which never
    /// replaces a file: one that appeared meanwhile fails the job with 134080, untouched);
    /// the staging directory is removed whatever happens (a process killed meanwhile leaves
    /// it, and never a partial `url`). Otherwise the store is opened in place, and when
    /// `write` fails, a store file the open created (and that nothing was saved to) is
    /// removed again while the store still holds its writer lock.
    static func open(
        _ url: URL, model: ManagedObjectModel, options: StoreOptions, requiresNewFile: Bool,
        environment: DeterministicEnvironment, write: (PersistentStoreCoordinator) throws -> Void
    ) throws -> PersistentStoreCoordinator {
        guard requiresNewFile, url.isFileURL, url.standardizedFileURL.path != "/dev/null" else {
            return try openInPlace(
                url, model: model, options: options, environment: environment, write: write)
        }
        let target = url.standardizedFileURL.path
        if FileManager.default.fileExists(atPath: target) { throw exists(target) }
        let directory = (target as NSString).deletingLastPathComponent
        let name = (target as NSString).lastPathComponent
        let staging = (directory as NSString).appendingPathComponent(
            ".\(name).staging-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                atPath: staging, withIntermediateDirectories: false)
        } catch {
            throw ObjectGraphError(
                .storeOpenFailed, "store \(target): cannot create \(staging): \(error)",
                file: target)
        }
        defer { try? FileManager.default.removeItem(atPath: staging) }
        let staged = (staging as NSString).appendingPathComponent(name)
        let coordinator: PersistentStoreCoordinator
        do {
            coordinator = try openInPlace(
                URL(fileURLWithPath: staged), model: model, options: options,
                environment: environment, write: write)
        } catch let e as ObjectGraphError where e.file == staged {
            // Name the file the user asked for, not the staging copy that is about to go.
            throw e.relocated(
                message: e.message.replacingOccurrences(of: staged, with: target)
                    + "; nothing was written to \(target)",
                file: target, line: e.line, column: e.column)
        }
        // Removing a store closes it (a failed final sync throws) before the link publishes it.
        for store in coordinator.persistentStores { try coordinator.remove(store) }
        PausePoints.reach("job.staged")
        guard link(staged, target) == 0 else {
            let code = errno
            if code == EEXIST { throw exists(target) }
            throw ObjectGraphError(
                .storeOpenFailed,
                "store \(target): linking the written store into place failed: "
                    + "\(String(cString: strerror(code))) (errno \(code))", file: target)
        }
        if options.synchronous != .off { syncDirectory(directory) }
        return try environment.makeCoordinator(model: model, url: url, options: options)
    }

    /// Opens the store at `url` and runs `write`; on failure, undoes a file the open created.
    private static func openInPlace(
        _ url: URL, model: ManagedObjectModel, options: StoreOptions,
        environment: DeterministicEnvironment, write: (PersistentStoreCoordinator) throws -> Void
    ) throws -> PersistentStoreCoordinator {
        let coordinator = try environment.makeCoordinator(model: model, url: url, options: options)
        do {
            try write(coordinator)
        } catch {
            for store in coordinator.persistentStores {
                (store as? JSONLinesStore)?.closeRemovingCreatedFile()
                try? coordinator.remove(store)  // already closed: only forgets it
            }
            throw error
        }
        return coordinator
    }

    private static func exists(_ path: String) -> ObjectGraphError {
        ObjectGraphError(
            .storeOpenFailed,
            "store \(path) already exists; choose a new file (nothing was written)",
            file: path)
    }

    /// Flushes a directory entry to the disk (best effort: the file itself is already synced).
    private static func syncDirectory(_ path: String) {
        let fd = Foundation.open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY)
        guard fd >= 0 else { return }
        _ = fsync(fd)
        _ = close(fd)
    }

    /// Whether `error` comes from the store itself (opening, writing, locking: Core Data's
    /// 134000–134999), not from the objects being saved: such errors are passed on as they
    /// are, never blamed on the model or the fixtures.
    static func isStoreError(_ error: ObjectGraphError) -> Bool {
        (134_000..<135_000).contains(error.code)
    }
}
