/// The reference a context's objects hold to reach it: one per context, shared by every
/// object the context holds, naming the context until the context's `deinit` clears it.
///
/// `ManagedObject.managedObjectContext` was a weak reference: each object's weak store gave
/// the context a side table, and each load (a fault made ≈ 120 instructions, a fault fired
/// ≈ 143, `delete(_:)`'s precondition ≈ 145) went through it with atomic operations. An
/// object now holds this token strongly (a plain retain when it joins a context, a release
/// when it leaves or goes) and reads the context through it: a load of the token, a load of
/// its `context` and a retain. Asking whether an object is in a given context compares
/// tokens and touches no reference count (see `ManagedObject.isIn(_:)`).
///
/// What the unowned reference guarantees, and what it does not: the context sets `context`
/// in its initialisers and clears it first thing in its `deinit`, before any of its stored
/// properties (the objects it holds among them) are released; while the context is alive,
/// nothing else writes it. So on the context's queue, and for an object that outlives its
/// context, `context` names a live context or reads `nil`, whatever path took the object out
/// of the context (an object released by the context's own `deinit` reads `nil` in its
/// `deinit` too): no path has to clear anything. Off the context's queue there is no such
/// guarantee. The context's last reference may be dropped on any thread: a main-queue
/// context used directly, a `perform` caller or the engine's merge observer releasing it
/// elsewhere. An object whose `managedObjectContext` (or any property, whose debug queue
/// check reads it) is read on another thread while its context is being freed may read freed
/// memory: that is undefined, as it is in Core Data, whose
/// `NSManagedObject.managedObjectContext` is itself `unowned(unsafe)`. Objects are confined
/// to their context's queue; the weak reference this replaces tolerated the race.
///
/// The token also names the context's identity: two objects hold the same token exactly when
/// they were last put into the same context (the token lives while any object holds it, so
/// its address is not reused by another context's token meanwhile).
final class ContextToken {
    /// The context, or `nil` once it began to deinitialise.
    ///
    /// Written only by the context: set in its initialisers, cleared at the start of its
    /// `deinit`.
    @exclusivity(unchecked) unowned(unsafe) var context: ManagedObjectContext?

    /// Makes a token naming no context yet (the context sets itself once initialised).
    init() {}
}
