import Foundation

/// A payee's name reduced to what stays the same from one bank statement line to the next,
/// so `MARKET HALL 0231 *4411 12/03` and `Market Hall #889` both read `market hall`.
///
/// Case is ignored; digits, dates and card-number or reference noise go:
/// - a piece after `*` or `#` that holds a digit (`*4411`, `#889`, `*2K4RT5`);
/// - a piece with two digits or more (`12/03/2026`, `x1234`, `REF8F3K2`);
/// - any other digit (`7-ELEVEN` reads `eleven`);
/// - punctuation, which separates words.
///
/// A payee left with no letters has no key.
enum PayeeKey {
    /// The key of `payee`, or `nil` when nothing but noise remains.
    ///
    /// - Complexity: O(characters).
    static func of(_ payee: String?) -> String? {
        guard let payee else { return nil }
        var words: [String] = []
        for token in payee.lowercased().split(whereSeparator: \.isWhitespace) {
            var afterMark = false
            var piece = ""
            var digits = 0
            func flush() {
                if digits < 2, !(afterMark && digits > 0) {
                    words += piece.split(whereSeparator: { !$0.isLetter }).map(String.init)
                }
                piece = ""
                digits = 0
            }
            for character in token {
                if character == "*" || character == "#" {
                    flush()
                    afterMark = true
                } else {
                    if character.isNumber { digits += 1 }
                    piece.append(character.isLetter ? character : " ")
                }
            }
            flush()
        }
        return words.isEmpty ? nil : words.joined(separator: " ")
    }
}
