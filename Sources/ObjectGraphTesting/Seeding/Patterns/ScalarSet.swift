/// A set of Unicode scalars as sorted, disjoint, non-adjacent ranges of code points.
struct ScalarSet: Equatable {
    private(set) var ranges: [ClosedRange<UInt32>] = []

    /// Printable ASCII (space to `~`): what `.` and negated classes generate from.
    static let printable = ScalarSet([0x20...0x7E])
    static let digits = ScalarSet([0x30...0x39])
    static let word = ScalarSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    static let whitespace = ScalarSet([0x09...0x0D, 0x20...0x20])

    init(_ ranges: [ClosedRange<UInt32>] = []) {
        for r in ranges { insert(r) }
    }

    var isEmpty: Bool { ranges.isEmpty }

    /// The number of scalars in the set.
    var count: Int { ranges.reduce(0) { $0 + Int($1.upperBound - $1.lowerBound) + 1 } }

    mutating func insert(_ range: ClosedRange<UInt32>) {
        var merged = range
        var kept: [ClosedRange<UInt32>] = []
        for r in ranges {
            if r.upperBound + 1 < merged.lowerBound || merged.upperBound + 1 < r.lowerBound {
                kept.append(r)
            } else {
                merged = min(r.lowerBound, merged.lowerBound)...max(r.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        ranges = kept.sorted { $0.lowerBound < $1.lowerBound }
    }

    mutating func formUnion(_ other: ScalarSet) {
        for r in other.ranges { insert(r) }
    }

    /// The scalars of `universe` not in this set.
    func complement(in universe: ScalarSet) -> ScalarSet {
        var result = ScalarSet()
        for u in universe.ranges {
            var start = u.lowerBound
            for r in ranges where r.upperBound >= start && r.lowerBound <= u.upperBound {
                if r.lowerBound > start { result.insert(start...(r.lowerBound - 1)) }
                start = r.upperBound &+ 1
                if r.upperBound >= u.upperBound { break }
            }
            if start <= u.upperBound && start >= u.lowerBound {
                result.insert(start...u.upperBound)
            }
        }
        return result
    }

    /// The scalars in both sets.
    func intersection(_ other: ScalarSet) -> ScalarSet {
        var result = ScalarSet()
        for a in ranges {
            for b in other.ranges where a.overlaps(b) {
                result.insert(max(a.lowerBound, b.lowerBound)...min(a.upperBound, b.upperBound))
            }
        }
        return result
    }

    /// The scalar at `offset` (0 ..< count) in code-point order; skips surrogates' gap by
    /// construction (sets never hold surrogates).
    func scalar(at offset: Int) -> Unicode.Scalar? {
        var remaining = offset
        for r in ranges {
            let size = Int(r.upperBound - r.lowerBound) + 1
            if remaining < size { return Unicode.Scalar(r.lowerBound + UInt32(remaining)) }
            remaining -= size
        }
        return nil
    }
}
