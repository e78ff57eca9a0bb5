import Foundation

/// Splits large encoding and decoding jobs across the machine's cores.
///
/// Used only above ``threshold`` items (a save of many rows, a compaction, a reopen), where
/// the work dwarfs the cost of threads; results come back in chunk order.
enum ParallelChunks {
    /// Below this many items, work stays on the calling thread.
    static let threshold = 16_384

    /// How many chunks to split `count` items into: one per active core (at most 8), or 1 below
    /// `minimum` items.
    static func chunkCount(for count: Int, minimum: Int = threshold) -> Int {
        guard count >= minimum else { return 1 }
        return max(1, min(8, ProcessInfo.processInfo.activeProcessorCount, count))
    }

    /// How many parts to split one reading job into (a line's checksum, a large array's rows)
    /// so that the cores finish together: ``partsPerCore`` for each of the cores
    /// ``chunkCount(for:minimum:)`` counts, or 1 on one core.
    ///
    /// `DispatchQueue.concurrentPerform` hands out its iterations one at a time to whichever
    /// thread is free, and the calling thread starts on the first at once, while a pool thread
    /// may wake milliseconds later. With one part per core the early thread then idled at the
    /// end of each job for as long as the late one started after it; with many small parts the
    /// early thread takes more of them and at most about one part's time is idle.
    /// - Complexity: each part costs the job a little (a row boundary found, a codec copied,
    ///   a checksum combined: a few thousand instructions), not a pass over its bytes.
    static func balancedPartCount() -> Int {
        let cores = chunkCount(for: Int.max)
        return cores > 1 ? cores * partsPerCore : 1
    }

    /// How many parts of a reading job each core gets on average (``balancedPartCount()``).
    static let partsPerCore = 8

    /// The bounds of chunk `index` of `chunks` over `0..<count`.
    static func range(_ index: Int, of chunks: Int, count: Int) -> Range<Int> {
        (count * index / chunks)..<(count * (index + 1) / chunks)
    }

    /// Runs `body` for each chunk index concurrently and returns the results in order.
    static func map<T: Sendable>(_ chunks: Int, _ body: @Sendable (Int) -> T) -> [T] {
        if chunks == 1 { return [body(0)] }
        let results = ResultSlots<T>(count: chunks)
        DispatchQueue.concurrentPerform(iterations: chunks) { index in
            results.set(index, body(index))
        }
        return results.values
    }
}

/// One result slot per chunk, filled from concurrent threads.
private final class ResultSlots<T: Sendable>: @unchecked Sendable {
    // Sendable: `slots` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var slots: [T?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ value: T) {
        lock.lock()
        slots[index] = value
        lock.unlock()
    }

    var values: [T] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0! }
    }
}

/// Read-only bytes shared with worker threads for the duration of one parallel job.
struct SharedBytes: @unchecked Sendable {
    // Sendable: the memory is only read, and the owner keeps it alive until the job returns.
    let bytes: UnsafeRawBufferPointer
}
