import Foundation

/// One store's part of a save over several stores, checked and ready to write: the
/// coordinator writes every store's part, takes back the parts already written when a later
/// one fails, and applies them all to the rows only once every part is written, so that such a
/// save is all or nothing (see ``PersistentStoreCoordinator``'s `commit`).
///
/// Its steps run while the store still holds the locks its
/// ``StagedCommitting/withStagedCommit(_:_:)`` took, in this order: ``write`` once; then
/// either ``apply`` once, or ``undo`` once if the write succeeded (a failed write takes itself
/// back).
struct StagedCommit {
    /// Writes the part (the file store appends and syncs its line); on failure it takes
    /// itself back (see ``keptAfterFailedWrite``). Throws the store's write error (134030).
    var write: () throws -> Void
    /// After ``write`` threw: whether the part stayed written all the same (the file store
    /// could not cut its file back, and refuses saves until reopened).
    var keptAfterFailedWrite: () -> Bool
    /// Takes back what ``write`` wrote; `false` when that failed (the store then refuses
    /// saves until reopened).
    var undo: () -> Bool
    /// Applies the written part to the store's rows (and its history, counters, notices).
    var apply: () -> Void

    /// The part of a store with nothing to write.
    static var nothing: StagedCommit {
        StagedCommit(write: {}, keptAfterFailedWrite: { false }, undo: { true }, apply: {})
    }
}

/// A store whose commit runs in steps (check, write, apply), so that the coordinator can make
/// a save over several stores all or nothing: the built-in stores. A store that is not one
/// (one written outside this module) commits in one step, last, and when it fails after
/// another store committed, the save fails with 134040 (`NSPersistentStoreIncompleteSaveError`).
protocol StagedCommitting: PersistentStore {
    /// Takes the store's locks, checks `changes` against its rows as ``PersistentStore/commit(_:)``
    /// does, prepares them, and runs `body` with the steps that write and apply them, still
    /// holding the locks; a change set that changes nothing gets ``StagedCommit/nothing``.
    ///
    /// - Throws: what ``PersistentStore/commit(_:)`` throws before writing (a closed,
    ///   read-only or unusable store, 134050 for a conflict, 1550 for a dangling reference);
    ///   what `body` throws.
    func withStagedCommit<R>(_ changes: StoreChangeSet, _ body: (StagedCommit) throws -> R)
        throws -> R

    /// ``PersistentStore/commit(_:)`` of a change set the caller hands over: the inserted rows
    /// are moved into the store's rows (``RowTable/insertNew(moving:)``), not copied, so that
    /// neither is a row retained on the way in nor released when the change set goes (two
    /// calls each a row). `changes` is as given when this throws; its inserted rows are gone
    /// once it returns, the rest as given.
    func commit(movingRows changes: inout StoreChangeSet) throws
}
