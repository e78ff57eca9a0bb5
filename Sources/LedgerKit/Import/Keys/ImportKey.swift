import Foundation
import ObjectGraph

/// Computes import keys: what makes importing the same export twice add nothing.
///
/// A row's identity is its date (`YYYY-MM-DD`), its signed amount in plain notation
/// (`-18`, `0.23`: trailing fraction zeros dropped, so `18.00` and `18` agree) and its
/// description cells after whitespace normalization, each in mapping order, all joined by
/// U+001F. Rows with the same identity in one file are told apart by their occurrence
/// index (0, 1, … in file order). The key is the first 16 bytes of the SHA-256 of
/// `identity U+001F index` (the index in decimal), as 32 lowercase hex digits.
struct ImportKeyMaker {
    /// Occurrences so far, by the full digest of each identity's first occurrence.
    private var seen: [SHA256.Digest: Int] = [:]

    init(expectedRows: Int = 0) { seen.reserveCapacity(expectedRows) }

    /// The key of the next row whose identity bytes are `identity` (left as they were).
    mutating func key(identity: inout [UInt8]) -> String {
        let length = identity.count
        defer { identity.removeSubrange(length...) }
        identity.append(0x1F)
        identity.append(UInt8(ascii: "0"))
        let first = identity.withUnsafeBytes(SHA256.hash)
        let index = seen[first] ?? 0
        seen[first] = index + 1
        guard index > 0 else { return first.hex(bytes: 16) }
        identity.removeLast()
        identity.append(contentsOf: String(index).utf8)
        return identity.withUnsafeBytes(SHA256.hash).hex(bytes: 16)
    }
}
