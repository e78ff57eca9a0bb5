import Foundation

/// Finds IDs by a unique prefix of their text, and the shortest prefixes that stay unique.
///
/// IDs are matched as 32 lowercase hex digits: the prefix may be given in any case, with
/// or without the dashes of the UUID form (`3f2a9c1e`, `3F2A9C1E-5B`). IDs are kept as
/// 128-bit numbers in order, so matching is a binary search and the digits two IDs share
/// come from the leading zeros of their difference.
public struct IDPrefixIndex: Sendable {
    /// A UUID as a 128-bit number, most significant half first (so number order is text order).
    private struct Key: Comparable {
        var high: UInt64
        var low: UInt64

        static func < (a: Key, b: Key) -> Bool { (a.high, a.low) < (b.high, b.low) }

        /// How many leading hex digits `a` and `b` share (32 when equal).
        static func commonDigits(_ a: Key, _ b: Key) -> Int {
            if a.high != b.high { return (a.high ^ b.high).leadingZeroBitCount / 4 }
            if a.low != b.low { return 16 + (a.low ^ b.low).leadingZeroBitCount / 4 }
            return 32
        }
    }

    private let ids: [UUID]
    private let keys: [Key]
    /// The IDs' positions, by key in ascending order.
    private let sorted: [Int]

    /// Indexes `ids`.
    ///
    /// - Complexity: O(n log n).
    public init(_ ids: [UUID]) {
        let keys = ids.map(Self.key)
        self.ids = ids
        self.keys = keys
        sorted = keys.indices.sorted { keys[$0] < keys[$1] }
    }

    /// The position of the one ID that starts with `prefix`.
    ///
    /// - Throws: ``LedgerError`` `.unknownTransaction` when no ID starts with it, `.ambiguousID`
    ///   when several do (naming them by their shortest unique prefixes).
    /// - Complexity: O(log n) plus the matches.
    public func match(_ prefix: String) throws -> Int {
        let digits = prefix.lowercased().filter { $0 != "-" }
        guard !digits.isEmpty, digits.count <= 32, digits.allSatisfy(\.isHexDigit) else {
            throw LedgerErrors.unknownID(prefix)
        }
        let low = Self.key(hex: digits.padding(toLength: 32, withPad: "0", startingAt: 0))
        let high = Self.key(hex: digits.padding(toLength: 32, withPad: "f", startingAt: 0))
        var first = 0
        var last = sorted.count
        while first < last {
            let mid = (first + last) / 2
            if keys[sorted[mid]] < low { first = mid + 1 } else { last = mid }
        }
        var matches: [Int] = []
        while first < sorted.count, !(high < keys[sorted[first]]) {
            matches.append(sorted[first])
            first += 1
        }
        switch matches.count {
        case 0: throw LedgerErrors.unknownID(prefix)
        case 1: return matches[0]
        default:
            let short = shortPrefixes(minimum: 8)
            throw LedgerErrors.ambiguousID(prefix, candidates: matches.map { short[$0] })
        }
    }

    /// For each ID, in the order given, the shortest prefix of its lowercase UUID text (at
    /// least `minimum` hex digits) that no other ID shares.
    ///
    /// - Complexity: O(n).
    public func shortPrefixes(minimum: Int = 8) -> [String] {
        zip(ids, prefixLengths(minimum: minimum)).map { Self.uuidText($0, digits: $1) }
    }

    /// The shortest unique prefixes of the IDs in `wanted` that the index holds, by ID.
    ///
    /// - Complexity: O(n) plus the wanted IDs.
    public func shortPrefixes(of wanted: [UUID], minimum: Int = 8) -> [UUID: String] {
        let wantedSet = Set(wanted)
        var result: [UUID: String] = [:]
        for (id, length) in zip(ids, prefixLengths(minimum: minimum)) where wantedSet.contains(id) {
            result[id] = Self.uuidText(id, digits: length)
        }
        return result
    }

    /// For each ID, in the order given, how many hex digits make it unique (at least
    /// `minimum`, at most 32).
    private func prefixLengths(minimum: Int) -> [Int] {
        var lengths = [Int](repeating: min(32, minimum), count: ids.count)
        for k in sorted.indices.dropFirst() {
            let a = sorted[k - 1]
            let b = sorted[k]
            let needed = min(32, Key.commonDigits(keys[a], keys[b]) + 1)
            lengths[a] = max(lengths[a], needed)
            lengths[b] = max(lengths[b], needed)
        }
        return lengths
    }

    private static func key(_ id: UUID) -> Key {
        withUnsafeBytes(of: id.uuid) { bytes in
            Key(
                high: bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) },
                low: bytes.suffix(8).reduce(0) { $0 << 8 | UInt64($1) })
        }
    }

    /// The key of 32 hex digits.
    private static func key(hex: String) -> Key {
        let value = hex.map { UInt64($0.hexDigitValue ?? 0) }
        return Key(
            high: value.prefix(16).reduce(0) { $0 << 4 | $1 },
            low: value.suffix(16).reduce(0) { $0 << 4 | $1 })
    }

    /// The first `digits` hex digits of `id` in lowercase UUID form (dashes after 8, 12, 16
    /// and 20 digits).
    private static func uuidText(_ id: UUID, digits: Int) -> String {
        let text = id.uuidString.lowercased()
        let dashes = [8, 12, 16, 20].filter { $0 < digits }.count
        return String(text.prefix(digits + dashes))
    }
}
