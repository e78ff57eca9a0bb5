import Foundation
import ObjectGraph

/// A clock that reads a fixed start date, then moves forward by a fixed tick on every reading.
///
/// Inject it wherever ObjectGraph reads the time (``StoreOptions/clock`` for a store's header
/// and transactions, `PersistentStoreCoordinator.clock` for save timestamps) so that dates
/// and the bytes of saved files are the same on every run.
///
/// ```swift
/// let clock = DeterministicClock(start: Date(timeIntervalSince1970: 1_704_067_200), tick: 1)
/// coordinator.clock = clock.reading
/// ```
///
/// Thread-safe: readings from several threads each get their own tick, in the order the
/// threads reach the clock.
///
/// - Note: No Core Data counterpart (Core Data always reads the system clock).
public final class DeterministicClock: @unchecked Sendable {
    // Sendable: `readings` is read and written only while holding `lock`.
    /// The first reading.
    public let start: Date
    /// Seconds added after each reading.
    public let tick: TimeInterval
    private let lock = NSLock()
    private var readings: Int64 = 0

    /// A clock whose first reading is `start` and which advances by `tick` seconds per reading.
    ///
    /// - Parameters:
    ///   - start: The first date returned.
    ///   - tick: The step in seconds; `0` gives a frozen clock. Default 1.
    public init(start: Date, tick: TimeInterval = 1) {
        self.start = start
        self.tick = tick
    }

    /// The current reading; the next one is `tick` seconds later.
    public func now() -> Date {
        lock.withLock {
            let date = start.addingTimeInterval(Double(readings) * tick)
            readings += 1
            return date
        }
    }

    /// How many times ``now()`` has been read.
    public var readingCount: Int64 { lock.withLock { readings } }

    /// The clock as a closure, for ``StoreOptions/clock`` and `PersistentStoreCoordinator.clock`.
    public var reading: @Sendable () -> Date { { [self] in now() } }
}
