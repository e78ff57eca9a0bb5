import Foundation

/// A thread-safe counter for notification tests.
// Sendable: `count` is guarded by `lock`.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
