import ObjectGraph

/// How many partners one object may have through one relationship: `lo ... hi`.
struct DegreeBounds {
    var lo: Int
    var hi: Int
    /// An optional to-many with a minimum count: it may also hold nothing.
    var mayDropToZero: Bool

    static let unbounded = DegreeBounds(lo: 0, hi: .max, mayDropToZero: false)

    /// The bounds `r` imposes, capped by `available` partners; optional to-manys with a
    /// minimum are kept empty with probability 0.15 (and always when the minimum cannot be met).
    static func of(
        _ r: RelationshipDescription, available: Int, random: inout SeededRandomNumberGenerator
    ) -> DegreeBounds {
        if !r.isToMany {
            return DegreeBounds(
                lo: r.isOptional ? 0 : 1, hi: min(1, available), mayDropToZero: false)
        }
        let hi = min(r.maxCount > 0 ? r.maxCount : .max, available)
        if !r.isOptional {
            return DegreeBounds(lo: max(r.minCount, 1), hi: hi, mayDropToZero: false)
        }
        if r.minCount == 0 { return DegreeBounds(lo: 0, hi: hi, mayDropToZero: false) }
        if r.minCount > hi || random.chance(0.15) {
            return DegreeBounds(lo: 0, hi: 0, mayDropToZero: false)
        }
        return DegreeBounds(lo: r.minCount, hi: hi, mayDropToZero: true)
    }

    /// A plausible number of partners to aim for.
    func target(isToMany: Bool, random: inout SeededRandomNumberGenerator) -> Int {
        guard hi > 0 else { return 0 }
        guard lo <= hi else { return hi }
        if !isToMany { return lo == 1 || random.chance(0.85) ? 1 : 0 }
        return random.int(in: lo...min(hi, lo + 3))
    }
}
