import Foundation

/// A small, fast, seeded random number generator (SplitMix64) whose output depends only on
/// its seed: the same seed gives the same sequence on every run, platform and toolchain.
///
/// Use it wherever a test or a preview needs "random" data that must not change between
/// runs. Named streams (`init(seed:stream:)`) derive independent sequences from one seed, so
/// adding draws to one stream does not shift another.
///
/// ```swift
/// var random = SeededRandomNumberGenerator(seed: 42)
/// let dice = random.int(in: 1...6)
/// ```
///
/// The helpers below (`int(in:)`, `uniform()`) use their own algorithms rather than the
/// standard library's `random(in:using:)`, whose way of consuming the generator is not
/// guaranteed to stay the same across Swift releases.
///
/// - Note: Not cryptographically secure. No Core Data counterpart.
public struct SeededRandomNumberGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator seeded with `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// A generator for the stream named `stream` of `seed`: independent of other streams.
    ///
    /// - Parameters:
    ///   - seed: The run's seed.
    ///   - stream: Any label, e.g. `"Transaction.amount"`; hashed with FNV-1a (stable across runs).
    public init(seed: UInt64, stream: String) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in stream.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        var mixer = SeededRandomNumberGenerator(seed: seed ^ hash)
        self.state = mixer.next()
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// A uniformly distributed integer in `range`.
    public mutating func int(in range: ClosedRange<Int>) -> Int {
        Int(int64(in: Int64(range.lowerBound)...Int64(range.upperBound)))
    }

    /// A uniformly distributed 64-bit integer in `range` (any range, including the full one).
    public mutating func int64(in range: ClosedRange<Int64>) -> Int64 {
        let span = UInt64(bitPattern: range.upperBound &- range.lowerBound)
        if span == .max { return Int64(bitPattern: next()) }
        return range.lowerBound &+ Int64(bitPattern: bounded(span + 1))
    }

    /// A uniformly distributed `Double` in `0 ..< 1`, with 53 random bits.
    public mutating func uniform() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// A number in `0 ..< n` without modulo bias (Lemire's method). `n` must be positive.
    private mutating func bounded(_ n: UInt64) -> UInt64 {
        var m = next().multipliedFullWidth(by: n)
        if m.low < n {
            let threshold = (0 &- n) % n
            while m.low < threshold { m = next().multipliedFullWidth(by: n) }
        }
        return m.high
    }
}

extension SeededRandomNumberGenerator {
    /// `true` with probability `p`.
    mutating func chance(_ p: Double) -> Bool { uniform() < p }

    /// A uniformly chosen element of a non-empty array.
    mutating func pick<T>(_ items: [T]) -> T { items[int(in: 0...(items.count - 1))] }

    /// Shuffles `items` in place (Fisher–Yates, this generator's draws only).
    mutating func shuffle<T>(_ items: inout [T]) {
        guard items.count > 1 else { return }
        for i in stride(from: items.count - 1, to: 0, by: -1) {
            items.swapAt(i, int(in: 0...i))
        }
    }

    /// A version-4 UUID (RFC 4122 variant) made of the next 128 bits.
    ///
    /// ```swift
    /// var random = SeededRandomNumberGenerator(seed: 7)
    /// let id = random.uuid()   // the same UUID on every run
    /// ```
    public mutating func uuid() -> UUID {
        let a = next()
        let b = next()
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: a >> (56 - 8 * i))
            bytes[8 + i] = UInt8(truncatingIfNeeded: b >> (56 - 8 * i))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
