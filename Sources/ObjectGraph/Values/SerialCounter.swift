import Foundation

/// A thread-safe counter: each ``next()`` returns a number (from 1) no earlier call returned.
final class SerialCounter: @unchecked Sendable {
    // Sendable: `value` is guarded by `lock`.
    private var value: Int64 = 0
    private let lock = NSLock()

    func next() -> Int64 {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value
    }
}
