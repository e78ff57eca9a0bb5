import Foundation

/// A source of UUIDs that gives the same sequence for the same seed.
///
/// ```swift
/// let ids = SeededUUIDGenerator(seed: 7)
/// category.id = ids.next()   // the same UUID on every run
/// ```
///
/// Thread-safe; the UUIDs carry version-4 and RFC 4122 variant bits.
///
/// - Note: No Core Data counterpart.
public final class SeededUUIDGenerator: @unchecked Sendable {
    // Sendable: `random` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var random: SeededRandomNumberGenerator

    /// A generator for `seed` (and the named stream, so that several generators of one seed differ).
    public init(seed: UInt64, stream: String = "uuid") {
        self.random = SeededRandomNumberGenerator(seed: seed, stream: stream)
    }

    /// The next UUID of the sequence.
    public func next() -> UUID {
        lock.withLock { random.uuid() }
    }
}
