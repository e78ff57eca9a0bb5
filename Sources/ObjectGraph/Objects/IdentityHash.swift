/// The hash `Set` and `Dictionary` use for managed objects and their IDs: the identity bits
/// mixed with the table's seed by a few multiplications, without `Hasher`.
///
/// A save builds sets of every object and ID it touches (the did-save and objects-did-change
/// notifications, to-many references): through `Hasher` (SipHash) each element cost about
/// 150 instructions of hashing; an object's identity needs only to be spread over the low
/// bits a table uses. The mix is splitmix64's finalizer, so nearby addresses (objects
/// allocated one after another) land in unrelated buckets, and the seed still varies the
/// layout from one table to the next (what `Hasher`'s per-table seed protects against:
/// quadratic copying between tables of different sizes).
enum IdentityHash {
    /// `bits` spread over all 64 bits, varied by `seed`.
    @inline(__always)
    static func mix(_ bits: UInt64, seed: Int) -> Int {
        var x = bits ^ (UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15)
        x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
        x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int(truncatingIfNeeded: x ^ (x >> 31))
    }

    /// The bits of an object's identity.
    @inline(__always)
    static func bits(_ object: AnyObject) -> UInt64 {
        UInt64(UInt(bitPattern: ObjectIdentifier(object)))
    }
}
