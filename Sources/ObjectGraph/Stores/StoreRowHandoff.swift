import Foundation

/// Lets the saver's objects that share patched rows with a store let go of them while the
/// store patches them, and take the patched rows back: a row shared with an object is copied
/// whole by the store's write (≈ 256 bytes for the bench's expense, a second copy of every
/// updated row at the save's peak), one held only by the store is changed in place.
///
/// A store knows nothing of objects: the saver gives two closures, indexed by a patch's
/// position in the change set's ``StoreChangeSet/patched`` and given the patch's object ID,
/// which they check against the object's (a patch moved to another position finds no object
/// and is applied as without a hand-off). Only the engine's own stores (``InMemoryStore``,
/// ``JSONLinesStore``) get one: the coordinator clears it for any other store, which then
/// commits as if there were none, and the saver converts its objects' overlays after the
/// save. ``RowTable/applyUnchecked(_:)`` uses it, once the change set is checked and written
/// (nothing can fail any more), on the thread that commits (the saving context's queue,
/// under the coordinator's lock): for a row the table has, `lend(k, id)` right before patch
/// `k` changes it and, when that lent the row, `take(k, id, row)` right after, with the row's
/// new values, with nothing between that can fail or skip the second. A hand-off is used
/// once: the first ``claim()`` succeeds, later ones fail, and ``end()`` drops the closures
/// (and with them the objects).
final class StoreRowHandoff: @unchecked Sendable {
    // Sendable: the closures touch the saving context's objects; `claim()` is serialised by
    // `lock`, and the engine's stores call the claimed closures only inside `commit(_:)`, on
    // the thread that called it (the context's queue), under the coordinator's lock.

    /// Called right before patch `k` (of object `id`) is applied to a row the table has: its
    /// object lets go of the row; returns whether it did (`false`: no such object at `k`, or
    /// another object's ID, and the row is patched without a hand-off).
    typealias Lend = (_ k: Int, _ id: ManagedObjectID) -> Bool
    /// Called right after patch `k` (of object `id`) is applied, when `lend` lent the row,
    /// with the row's new values: its object takes them.
    typealias Take = (_ k: Int, _ id: ManagedObjectID, _ row: [StoreValue]) -> Void

    /// The lending closure until the application that claimed it ends; `nil` after.
    private var lendRow: Lend?
    /// The taking closure until the application that claimed it ends; `nil` after.
    private var takeRow: Take?
    /// Whether an application claimed the hand-off.
    private var claimed = false
    /// Serialises ``claim()``.
    private let lock = NSLock()

    /// A hand-off calling `lend` and `take` (see the type's summary).
    init(lend: @escaping Lend, take: @escaping Take) {
        lendRow = lend
        takeRow = take
    }

    /// Whether the caller may use the hand-off: `true` the first time only (a second
    /// application of the change set, or one on another table, hands nothing off). The
    /// caller ends its use with ``end()``.
    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }

    /// Patch `k` (of object `id`) is about to change its row: its object lends it (see
    /// ``Lend``). Called directly (closures passed on per patch were re-abstracted, two
    /// allocations a patch).
    ///
    /// - Precondition: the caller claimed the hand-off.
    func lend(_ k: Int, _ id: ManagedObjectID) -> Bool { lendRow?(k, id) ?? false }

    /// Patch `k` (of object `id`) changed the row it lent: its object takes `row` (see
    /// ``Take``).
    ///
    /// - Precondition: ``lend(_:_:)`` returned `true` for `k`.
    func take(_ k: Int, _ id: ManagedObjectID, _ row: [StoreValue]) { takeRow?(k, id, row) }

    /// Ends the claimed use: the closures (and with them the objects) are dropped.
    func end() {
        lendRow = nil
        takeRow = nil
    }
}
