import Foundation

/// Finds IDs by a unique prefix of their text, and the shortest prefixes that stay unique.
///
/// IDs are matched as 32 lowercase hex digits: the prefix may be given in any case, with
/// or without the dashes of the UUID form (`3f2a9c1e`, `3F2A9C1E-5B`).
public struct IDPrefixIndex: Sendable {
    /// The IDs' hex digits, in the order given.
    private let hex: [String]
    /// The IDs' positions, by their hex digits in ascending order.
    private let sorted: [Int]

    /// Indexes `ids`.
    ///
    /// - Complexity: O(n log n).
    public init(_ ids: [UUID]) {
        let hex = ids.map(Self.digits)
        self.hex = hex
        sorted = hex.indices.sorted { hex[$0] < hex[$1] }
    }

    /// The position of the one ID that starts with `prefix`.
    ///
    /// - Throws: ``ObjectGraphError`` `.coreData` (134060) when no ID starts with it or
    ///   several do (naming them by their shortest unique prefixes).
    /// - Complexity: O(log n) plus the matches.
    public func match(_ prefix: String) throws -> Int {
        let wanted = prefix.lowercased().replacingOccurrences(of: "-", with: "")
        guard !wanted.isEmpty, wanted.count <= 32, wanted.allSatisfy(\.isHexDigit) else {
            throw LedgerError.unknownID(prefix)
        }
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if hex[sorted[mid]] < wanted { low = mid + 1 } else { high = mid }
        }
        var matches: [Int] = []
        var i = low
        while i < sorted.count, hex[sorted[i]].hasPrefix(wanted) {
            matches.append(sorted[i])
            i += 1
        }
        switch matches.count {
        case 0: throw LedgerError.unknownID(prefix)
        case 1: return matches[0]
        default:
            let short = shortPrefixes(minimum: 8)
            throw LedgerError.ambiguousID(prefix, candidates: matches.map { short[$0] })
        }
    }

    /// For each ID, in the order given, the shortest prefix of its lowercase UUID text (at
    /// least `minimum` hex digits) that no other ID shares.
    ///
    /// - Complexity: O(n log n).
    public func shortPrefixes(minimum: Int = 8) -> [String] {
        var lengths = [Int](repeating: minimum, count: hex.count)
        for k in sorted.indices.dropFirst() {
            let a = hex[sorted[k - 1]], b = hex[sorted[k]]
            let common = zip(a, b).prefix { $0 == $1 }.count
            lengths[sorted[k]] = max(lengths[sorted[k]], common + 1)
            lengths[sorted[k - 1]] = max(lengths[sorted[k - 1]], common + 1)
        }
        return hex.indices.map { Self.uuidText(hex[$0], digits: min(32, lengths[$0])) }
    }

    private static func digits(_ id: UUID) -> String {
        id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
    }

    /// The first `digits` hex digits of `hex` in UUID form (dashes after 8, 12, 16, 20).
    private static func uuidText(_ hex: String, digits: Int) -> String {
        var text = ""
        for (i, c) in hex.prefix(digits).enumerated() {
            if [8, 12, 16, 20].contains(i) { text.append("-") }
            text.append(c)
        }
        return text
    }
}
