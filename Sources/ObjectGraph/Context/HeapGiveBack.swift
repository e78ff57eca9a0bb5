import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Gives the memory the C heap keeps free back to the system after a context lets go of many
/// objects at once by design: a ``ManagedObjectContext/reset()``, or a context freed, whose
/// registry table was large.
///
/// glibc keeps freed memory in its arenas for later allocations: after a context of 100,000
/// objects is reset, the process keeps ≈ 35–55 MB resident that nothing uses (the macro run's
/// RSS between workloads). `malloc_trim(0)` returns the free pages of every arena to the
/// system; it frees nothing in use and moves nothing (glibc's own call). It costs a walk of
/// the arenas' free chunks (1–7 ms on a 100 MB heap) and the pages it returns are faulted in
/// again when the heap grows, so it runs only where many objects went at once: the registry's
/// table had at least ``threshold`` slots (it is at most half full: a context that held more
/// than half as many objects at its largest; sweeps keep the table's size). Small contexts,
/// the fixture container's among them, pay one comparison.
///
/// On a system without glibc's `malloc_trim` (Darwin, musl) the system give-back does nothing.
struct HeapGiveBack: Sendable {
    /// The registry table size, in slots, from which a release gives memory back (see
    /// ``system``).
    let threshold: Int
    /// Gives the free memory back.
    let trim: @Sendable () -> Void

    /// The system's: a table of 65,536 slots or more (more than 16,384 objects registered at
    /// its largest, ≈ 6 MB of objects and values or more) gives back through `malloc_trim(0)`.
    static let system = HeapGiveBack(threshold: 65_536, trim: { SystemHeap.trim() })

    /// Gives memory back when a registry table of `tableSlots` slots was just released (its
    /// entries, and with them the objects only it held).
    ///
    /// - Complexity: O(1) below the threshold; ``SystemHeap/trim()`` above it.
    @inline(__always)
    func afterReleasing(tableSlots: Int) {
        if tableSlots >= threshold { trim() }
    }
}

/// The C heap of the process.
enum SystemHeap {
    #if canImport(Glibc)
        private typealias Trim = @convention(c) (Int) -> Int32
        /// glibc's `malloc_trim`, found once (Swift's Glibc module does not declare it); `nil`
        /// where the C library has none (musl).
        private static let mallocTrim: Trim? = {
            guard let handle = dlopen(nil, RTLD_NOW),
                let symbol = dlsym(handle, "malloc_trim")
            else { return nil }
            return unsafeBitCast(symbol, to: Trim.self)
        }()
    #endif

    /// Returns the free memory of every heap arena to the system (glibc's `malloc_trim(0)`);
    /// nothing elsewhere.
    static func trim() {
        #if canImport(Glibc)
            _ = mallocTrim?(0)
        #endif
    }
}
