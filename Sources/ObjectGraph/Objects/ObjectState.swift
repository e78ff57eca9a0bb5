import Foundation

/// The flags of an object's life in its context, packed in one byte (seven `Bool`s took
/// seven; with the field last in `ManagedObject`, a subclass's wrappers start right after it).
struct ObjectState {
    private var bits: UInt8 = 0

    private static let inserted: UInt8 = 1 << 0
    private static let deleted: UInt8 = 1 << 1
    private static let processed: UInt8 = 1 << 2
    private static let pending: UInt8 = 1 << 3
    private static let willSave: UInt8 = 1 << 4
    private static let unannounced: UInt8 = 1 << 5
    private static let resolvedRow: UInt8 = 1 << 6

    /// Whether `flag` is set.
    private subscript(flag: UInt8) -> Bool {
        get { bits & flag != 0 }
        set { bits = newValue ? bits | flag : bits & ~flag }
    }

    /// Inserted and not yet saved.
    var isInserted: Bool {
        get { self[Self.inserted] }
        set { self[Self.inserted] = newValue }
    }
    /// Deleted, the deletion not yet saved (or deleted elsewhere).
    var isDeleted: Bool {
        get { self[Self.deleted] }
        set { self[Self.deleted] = newValue }
    }
    /// `prepareForDeletion` and delete rules already ran for the current deletion.
    var deletionProcessed: Bool {
        get { self[Self.processed] }
        set { self[Self.processed] = newValue }
    }
    /// The object is in its context's pending list (kept by `PendingObjects`).
    var isPending: Bool {
        get { self[Self.pending] }
        set { self[Self.pending] = newValue }
    }
    /// `willSave()` already ran in the save under way (set and cleared by `save()`).
    var willSaveCalled: Bool {
        get { self[Self.willSave] }
        set { self[Self.willSave] = newValue }
    }
    /// The object is among the inserted, updated or deleted objects waiting for the next
    /// objects-did-change notification (kept by `ChangeAnnouncement`).
    var isUnannounced: Bool {
        get { self[Self.unannounced] }
        set { self[Self.unannounced] = newValue }
    }
    /// The object keeps its store row with the row's relationship values resolved beside it
    /// (it left its context keeping its row, or it is a saved insert): its slots hold them, or
    /// `faultSource` holds the only one (see `resolveRelationshipsBeforeLeaving(_:)` and
    /// `moveSlotsIntoSavedRow(of:_:)`). Meaningful only while the object keeps a row.
    var keepsResolvedRelationships: Bool {
        get { self[Self.resolvedRow] }
        set { self[Self.resolvedRow] = newValue }
    }

    /// Forgets every list of a context the object was on (pending, unannounced, the save under
    /// way) with its insertion and deletion: for an object that has no context (its context
    /// was freed, or it never had one), whose flags no live context's lists match.
    @inline(__always)
    mutating func leaveContextLists() {
        bits &=
            ~(Self.inserted | Self.deleted | Self.processed | Self.pending | Self.willSave
            | Self.unannounced)
    }

    /// Forgets insertion and deletion; pending-list membership is `PendingObjects`' business.
    @inline(__always)
    mutating func clearLifecycle() {
        bits &= ~(Self.inserted | Self.deleted | Self.processed)
    }
}
