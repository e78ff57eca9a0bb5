import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Tracks which contexts the current thread may use right now.
///
/// A thread owns a context while it runs a block that `perform` or `performAndWait`
/// scheduled for it. `performAndWait` lends the caller's ownership to the block (the caller
/// is blocked until the block ends), so a child context's block may use its main-queue
/// parent when the chain started on the main queue, without a deadlock.
enum QueueOwnership {
    /// The key `DispatchQueue.main` carries, so the main queue can be recognised
    /// (`Thread.isMainThread` is false on the main queue under `swift test` on Linux).
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the current code runs on the main queue, or inside a block lent from it.
    ///
    /// Inside a block a scheduler runs, the real main queue does not count (the block stands
    /// for another queue): only the main marker, set on the scheduler's main lane, does.
    static var isOnMainQueue: Bool {
        let owned = current
        if owned.contains(mainMarker) { return true }
        return !owned.contains(scheduledMarker)
            && DispatchQueue.getSpecific(key: mainQueueKey) == true
    }

    /// An identifier standing for "the main queue" in ownership sets.
    static let mainMarker = ObjectIdentifier(MainMarker.self)
    private enum MainMarker {}

    /// An identifier marking code that runs as a step of a ``ContextScheduler``.
    static let scheduledMarker = ObjectIdentifier(ScheduledMarker.self)
    private enum ScheduledMarker {}

    /// The ownership of a block on a scheduler's main lane.
    static let scheduledMain: Set<ObjectIdentifier> = [mainMarker, scheduledMarker]
    /// The ownership of a block on a scheduler's private lane.
    static let scheduledPrivate: Set<ObjectIdentifier> = [scheduledMarker]

    /// The contexts (and possibly the main marker) the current thread owns.
    static var current: Set<ObjectIdentifier> {
        get { ThreadSlot.value?.owned ?? [] }
        set {
            if let box = ThreadSlot.value {
                box.owned = newValue
            } else {
                ThreadSlot.value = Box(newValue)
            }
        }
    }

    /// Runs `body` with `extra` added to the current thread's ownership set, replacing it
    /// with `inherited` plus `extra` for the duration.
    static func with<T>(
        _ inherited: Set<ObjectIdentifier>, adding extra: ObjectIdentifier,
        _ body: () throws -> T
    ) rethrows -> T {
        let saved = current
        var owned = inherited
        owned.insert(extra)
        current = owned
        defer { current = saved }
        return try body()
    }

    /// The ownership the caller lends to a block it waits for.
    static var lendable: Set<ObjectIdentifier> {
        var owned = current
        if !owned.contains(scheduledMarker), DispatchQueue.getSpecific(key: mainQueueKey) == true {
            owned.insert(mainMarker)
        }
        return owned
    }

    final class Box {
        var owned: Set<ObjectIdentifier>
        init(_ owned: Set<ObjectIdentifier>) { self.owned = owned }
    }

    /// A pthread-specific slot holding the current thread's `Box`.
    enum ThreadSlot {
        static let key: pthread_key_t = {
            var key = pthread_key_t()
            pthread_key_create(&key) { pointer in
                #if canImport(Darwin)
                    Unmanaged<Box>.fromOpaque(pointer).release()
                #else
                    if let pointer { Unmanaged<Box>.fromOpaque(pointer).release() }
                #endif
            }
            return key
        }()

        static var value: Box? {
            get {
                guard let raw = pthread_getspecific(key) else { return nil }
                return Unmanaged<Box>.fromOpaque(raw).takeUnretainedValue()
            }
            set {
                if let old = pthread_getspecific(key) { Unmanaged<Box>.fromOpaque(old).release() }
                pthread_setspecific(key, newValue.map { Unmanaged.passRetained($0).toOpaque() })
            }
        }
    }
}
