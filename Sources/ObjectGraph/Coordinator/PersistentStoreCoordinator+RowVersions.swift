import Foundation

/// A store that reads the versions of many rows at once, under one lock and without copying
/// the rows: what a save's optimistic-locking check needs of every updated or deleted object.
protocol RowVersionReadingStore: PersistentStore {
    /// Calls `body` with each position of `objects` (in order) and the version of the row of
    /// the object there (`nil` where the store has no such row), under one lock.
    ///
    /// Builds nothing per object: the versions are handed over as they are read (a save's
    /// check kept an array of the IDs, the store's array of versions and the coordinator's
    /// copy of it alive at once, 4.8 MB for W4b's 100,000 objects, the save's peak).
    func readRowVersions(
        of objects: ArraySlice<ManagedObject>, _ body: (Int, Int64?) -> Void
    ) throws
}

extension PersistentStoreCoordinator {
    /// The version of each object's row in its store, in order; `nil` for an object with no
    /// row (a temporary ID, a store no longer open, a row deleted by another save). Reads the
    /// current rows (no query generation), as ``row(for:at:)`` does unpinned.
    func rowVersions(of objects: [ManagedObject]) throws -> [Int64?] {
        var versions: [Int64?] = []
        versions.reserveCapacity(objects.count)
        try readRowVersions(of: objects) { _, version in versions.append(version) }
        return versions
    }

    /// The positions in `objects`, ascending, of the objects whose row's version is not the
    /// one they read (their `snapshotVersion`), or that have no row (as ``rowVersions(of:)``
    /// reads it): a save's optimistic-locking conflicts. Holds no version per object (most
    /// saves have no conflict: the result is then empty).
    func stalePositions(of objects: [ManagedObject]) throws -> [Int] {
        var stale: [Int] = []
        // `objects[i]`, checked: a store hands back positions it was given.
        try readRowVersions(of: objects) { i, version in
            if version != objects[i].snapshotVersion { stale.append(i) }
        }
        return stale
    }

    /// Calls `body` with each position of `objects` and the version of its object's row
    /// (see ``rowVersions(of:)``), in order, under the coordinator's lock.
    ///
    /// Objects come in runs of one store (most saves touch one): a store that reads versions
    /// in bulk gets each run at once (one lock, no row copied; asking row by row cost a lock,
    /// a store lookup and a copy of the row per object), another store is asked row by row.
    private func readRowVersions(
        of objects: [ManagedObject], _ body: (Int, Int64?) -> Void
    ) throws {
        try locked {
            let storeOf = { (object: ManagedObject) in object.objectID.storeIdentifier }
            try objects.forEachRun(by: storeOf) { identifier, range in
                guard let identifier,
                    let store = stores.first(where: { $0.identifier == identifier })
                else {
                    for i in range { body(i, nil) }
                    return
                }
                if let bulk = store as? any RowVersionReadingStore {
                    try bulk.readRowVersions(of: objects[range], body)
                } else {
                    for i in range { body(i, try store.row(for: objects[i].objectID)?.version) }
                }
            }
        }
    }
}

extension InMemoryStore: RowVersionReadingStore {}

extension JSONLinesStore: RowVersionReadingStore {}
