import Foundation

/// Lets the saver's objects that share patched rows with a store let go of them while the
/// store patches them, and take the patched rows back: a row shared with an object is copied
/// whole by the store's write (≈ 256 bytes for the bench's expense, a second copy of every
/// updated row at the save's peak), one held only by the store is changed in place.
///
/// A store knows nothing of objects: the saver gives two closures, indexed by a patch's
/// position in the change set's ``StoreChangeSet/patched``. ``RowTable/applyUnchecked(_:)``
/// calls them, once the change set is checked and written (nothing can fail any more):
/// `release(k)` right before patch `k` is applied, `retake(k, row)` right after, with the
/// row's new values. A store that applies patches otherwise never calls them, and the saver
/// then finds its objects still holding their rows.
final class StoreRowHandoff: @unchecked Sendable {
    // Sendable: the closures touch the saving context's objects; a store calls them only
    // inside `commit(_:)`, on the thread that called it (the context's queue), which the
    // coordinator's lock serialises.
    /// Called right before patch `k` is applied: its object lets go of the row.
    let release: (Int) -> Void
    /// Called right after patch `k` is applied, with the row's values: its object takes them.
    let retake: (Int, [StoreValue]) -> Void

    /// A handoff calling `release` and `retake` (see the type's summary).
    init(release: @escaping (Int) -> Void, retake: @escaping (Int, [StoreValue]) -> Void) {
        self.release = release
        self.retake = retake
    }
}
