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
/// once: the first ``claim()`` takes its closures (and with them the objects), later ones
/// get `nil`.
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

    /// The closures until the first ``claim()``; `nil` after it.
    private var closures: (lend: Lend, take: Take)?
    /// Serialises ``claim()``.
    private let lock = NSLock()

    /// A hand-off calling `lend` and `take` (see the type's summary).
    init(lend: @escaping Lend, take: @escaping Take) {
        closures = (lend, take)
    }

    /// The closures, the first time only (a second application of the change set, or one on
    /// another table, hands nothing off); the hand-off then holds no object.
    func claim() -> (lend: Lend, take: Take)? {
        lock.withLock {
            defer { closures = nil }
            return closures
        }
    }
}
