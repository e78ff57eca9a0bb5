import Foundation

/// The store whose live ``RowTable`` a ``RowTableGeneration`` reads beneath its before-images.
protocol RowTableHost: AnyObject, Sendable {
    /// Runs `body` with the live table while holding the store's lock (the lock that also
    /// guards every ``RowTableGeneration``'s before-images), without catching up with a file.
    ///
    /// - Throws: `.storeOperationFailed` (134070) when the store is closed; what `body` throws.
    func withLiveTable<T>(_ body: (RowTable) throws -> T) throws -> T
}

/// The pinned generations of a store built on a ``RowTable``, and the store's generation
/// counter: what both built-in stores share to serve query generations.
///
/// A generation is not a copy of the table: the store goes on changing its one live table, and
/// before each change it hands every live generation the *before-images* of the rows the
/// change touches (the row as it was, or `nil` when it did not exist). A generation keeps the
/// first before-image of each row only, so it costs one row per row changed since it was
/// pinned, however often that row changed, and nothing while nothing changes. Generations are
/// held weakly: once no context or token references one, it is freed with its before-images.
///
/// Not thread-safe: the store calls it while holding its lock.
struct RowTableGenerations {
    private struct Weak {
        weak var generation: RowTableGeneration?
    }

    /// Incremented by every change of the table: the number of its current generation.
    private(set) var number: Int64 = 0
    private var live: [Weak] = []

    /// The number of generations some context or token still holds.
    var liveCount: Int { live.reduce(0) { $0 + ($1.generation == nil ? 0 : 1) } }

    /// The current generation, shared with any other live pin of the same, unchanged state.
    mutating func pin(host: any RowTableHost, storeIdentifier: String) -> RowTableGeneration {
        live.removeAll { $0.generation == nil }
        if let same = live.last?.generation, same.number == number { return same }
        let generation = RowTableGeneration(
            host: host, storeIdentifier: storeIdentifier, number: number)
        live.append(Weak(generation: generation))
        return generation
    }

    /// Records that `changes` is about to be applied to `table`.
    mutating func willApply(_ changes: StoreChangeSet, to table: RowTable) {
        number += 1
        live.removeAll { $0.generation == nil }
        guard !live.isEmpty else { return }
        var before: [ManagedObjectID: StoreRow?] = [:]
        for (id, _) in changes.deleted { before[id] = .some(table.row(for: id)) }
        for row in changes.updated { before[row.objectID] = .some(table.row(for: row.objectID)) }
        for patch in changes.patched {
            before[patch.objectID] = .some(table.row(for: patch.objectID))
        }
        for row in changes.inserted { before[row.objectID] = .some(table.row(for: row.objectID)) }
        for entry in live { entry.generation?.keep(before) }
    }

    /// Records a change already applied, given the before-images of what it touched.
    mutating func didChange(before: @autoclosure () -> [ManagedObjectID: StoreRow?]) {
        number += 1
        live.removeAll { $0.generation == nil }
        guard !live.isEmpty else { return }
        let images = before()
        for entry in live { entry.generation?.keep(images) }
    }

    /// Whether some generation is pinned (so a change must compute its before-images).
    var isPinned: Bool { live.contains { $0.generation != nil } }
}

extension RowTable {
    /// The before-images turning `self` into `new`: every row of `self` that `new` lacks or
    /// holds differently, and `nil` for every row only `new` has.
    ///
    /// - Complexity: O(rows of both tables).
    func beforeImages(becoming new: RowTable) -> [ManagedObjectID: StoreRow?] {
        var before: [ManagedObjectID: StoreRow?] = [:]
        for entity in model.entities {
            for row in rows(of: entity) where new.row(for: row.objectID) != row {
                before[row.objectID] = .some(row)
            }
            for row in new.rows(of: entity) where self.row(for: row.objectID) == nil {
                before[row.objectID] = .some(nil)
            }
        }
        return before
    }
}
