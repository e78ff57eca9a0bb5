import Foundation

/// Computes import keys: what makes importing the same export twice add nothing.
///
/// A row's identity is its date (`YYYY-MM-DD`), its signed amount in plain notation
/// (`-18`, `0.23`: trailing fraction zeros dropped, so `18.00` and `18` agree) and its
/// description cells after whitespace normalization, each in mapping order, joined by
/// U+001F. Rows with the same identity in one file are told apart by their occurrence
/// index (0, 1, … in file order). The key is the first 16 bytes of the SHA-256 of
/// `identity U+001F index`, as 32 lowercase hex digits.
struct ImportKeyMaker {
    private var occurrences: [String: Int] = [:]

    /// The key of the next row with this identity.
    mutating func key(date: String, signedAmount: String, descriptions: [String]) -> String {
        var identity = date + "\u{1F}" + signedAmount
        for description in descriptions { identity += "\u{1F}" + description }
        let index = occurrences[identity, default: 0]
        occurrences[identity] = index + 1
        return SHA256.hex((identity + "\u{1F}" + String(index)).utf8, bytes: 16)
    }
}
