import Foundation

/// Random (version 4) UUIDs whose bytes come from the system's random source a block at a
/// time: the default `newID` of ``LedgerConfiguration`` and the command-line environment.
///
/// Foundation's `UUID()` on Linux opens, reads and closes `/dev/urandom` for every UUID: three
/// system calls and a file descriptor per transaction, about 5 % of a 100,000-row import's
/// CPU samples. This source reads 4,096 bytes (256 UUIDs) per refill from the same file
/// (`SystemRandomNumberGenerator` where it cannot be read), then sets the
/// version and variant bits as RFC 9562 §5.4 asks, as `UUID()` does. Thread-safe (one lock
/// around the block); the bytes are as unpredictable as `UUID()`'s, from the same kernel
/// source.
final class RandomUUIDSource: @unchecked Sendable {
    /// The process-wide source.
    static let shared = RandomUUIDSource()

    private let lock = NSLock()
    private var block = [UInt8](repeating: 0, count: 4_096)
    private var position = 4_096

    /// A new random UUID (version 4, RFC 9562 variant).
    func next() -> UUID {
        lock.lock()
        defer { lock.unlock() }
        if position + 16 > block.count {
            refill()
            position = 0
        }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { target in
            block.withUnsafeBytes { source in
                target.copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: source[position..<position + 16]))
            }
            target[6] = target[6] & 0x0F | 0x40  // version 4
            target[8] = target[8] & 0x3F | 0x80  // variant 10xx
        }
        position += 16
        return UUID(uuid: bytes)
    }

    /// Fills the block from `/dev/urandom` in one read, falling back to the standard
    /// library's generator where that file cannot be read.
    private func refill() {
        if let handle = FileHandle(forReadingAtPath: "/dev/urandom") {
            defer { try? handle.close() }
            if let data = try? handle.read(upToCount: block.count), data.count == block.count {
                block.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
                return
            }
        }
        var generator = SystemRandomNumberGenerator()
        block.withUnsafeMutableBytes { buffer in
            for offset in stride(from: 0, to: buffer.count, by: 8) {
                buffer.storeBytes(of: generator.next(), toByteOffset: offset, as: UInt64.self)
            }
        }
    }
}
