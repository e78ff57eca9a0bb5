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
/// Why the unowned reference is safe: the context sets `context` in its initialisers and
/// clears it first thing in its `deinit`, before any of its stored properties (the objects it
/// holds among them) are released; while the context is alive, nothing else writes it. So
/// `context` names a live context or is `nil`, whichever object reads it and whatever path
/// took the object out of the context: an object that outlives its context reads `nil`, as it
/// did with the weak reference, with no path having to clear anything. Contexts and their
/// objects are confined to the context's queue; the `deinit` may run on any thread, but only
/// once the last reference to the context is gone, and every use of the context's objects on
/// its queue runs inside work that holds the context (a `perform` block, or a caller of a
/// main-queue context holding it). An object read off its context's queue while the context
/// is being freed elsewhere breaks that confinement (the weak reference tolerated it).
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
