import Foundation

/// A store that reads the versions of many rows at once, under one lock and without copying
/// the rows: what a save's optimistic-locking check needs of every updated or deleted object.
protocol RowVersionReadingStore: PersistentStore {
    /// The version of each ID's row, in order; `nil` where the store has no such row.
    func rowVersions(of ids: [ManagedObjectID]) throws -> [Int64?]
}

extension PersistentStoreCoordinator {
    /// The version of each object's row in its store, in order; `nil` for an object with no
    /// row (a temporary ID, a store no longer open, a row deleted by another save). Reads the
    /// current rows (no query generation), as ``row(for:at:)`` does unpinned.
    ///
    /// Objects come in runs of one store (most saves touch one): a store that reads versions
    /// in bulk gets each run at once (one lock, no row copied; asking row by row cost a lock,
    /// a store lookup and a copy of the row per object), another store is asked row by row.
    func rowVersions(of objects: [ManagedObject]) throws -> [Int64?] {
        try locked {
            var versions: [Int64?] = []
            versions.reserveCapacity(objects.count)
            let storeOf = { (object: ManagedObject) in object.objectID.storeIdentifier }
            try objects.forEachRun(by: storeOf) { identifier, range in
                let run = objects[range]
                guard let identifier,
                    let store = stores.first(where: { $0.identifier == identifier })
                else {
                    versions.append(contentsOf: repeatElement(nil, count: run.count))
                    return
                }
                if let bulk = store as? any RowVersionReadingStore {
                    versions += try bulk.rowVersions(of: run.map(\.objectID))
                } else {
                    for object in run {
                        versions.append(try store.row(for: object.objectID)?.version)
                    }
                }
            }
            return versions
        }
    }
}

extension InMemoryStore: RowVersionReadingStore {}

extension JSONLinesStore: RowVersionReadingStore {}
