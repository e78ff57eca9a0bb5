import Foundation

@testable import ObjectGraph

/// Closes a store after a number of lock attempts by another opener.
final class ReleaseAfterAttempts: @unchecked Sendable {
    // Sendable: `count` and `store` are guarded by `lock`.
    private let lock = NSLock()
    private var store: JSONLinesStore?
    private let attempts: Int
    private(set) var count = 0

    init(store: JSONLinesStore, attempts: Int) {
        self.store = store
        self.attempts = attempts
    }

    func attempted() {
        lock.lock()
        count += 1
        let release = count == attempts ? store : nil
        if release != nil { store = nil }
        lock.unlock()
        release?.close()
    }
}
