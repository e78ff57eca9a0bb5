import Foundation
import ObjectGraph

/// A compiled date pattern: a strftime subset, or ISO 8601 when no pattern is given.
///
/// Directives: `%Y` four-digit year; `%y` two-digit year (00–68 → 20xx, 69–99 → 19xx);
/// `%m` month and `%d` day, one or two digits; `%b` and `%B` an English month name, full or
/// abbreviated (`Sep` and `Sept` too), any case; `%H` `%M` `%S` hour, minute, second, one or
/// two digits (checked, then dropped: a transaction has a calendar date); `%%` a percent
/// sign. A space in the pattern matches one or more spaces or tabs; any other character
/// matches itself. The whole cell (trimmed) must match.
///
/// Without a pattern, `YYYY-MM-DD` or `YYYYMMDD`, optionally followed by `T` or a space
/// and `HH:MM[:SS[.fraction]]` with an optional `Z` or `±HH[:MM]`; the date is the one
/// written, whatever the offset.
struct DateFormat: Hashable {
    enum Token: Hashable {
        case literal(UInt8)
        case space
        case year4, year2, month, day, monthName, hour, minute, second
    }

    /// The pattern's tokens, or `nil` for ISO 8601.
    let tokens: [Token]?

    /// ISO 8601.
    static let iso8601 = DateFormat(tokens: nil)

    /// Compiles a strftime pattern.
    ///
    /// - Throws: the reason when a directive is unknown or the pattern reads no full date.
    init(pattern: String) throws(ImportProblem) {
        var tokens: [Token] = []
        var iterator = pattern.utf8.makeIterator()
        while let b = iterator.next() {
            guard b == UInt8(ascii: "%") else {
                tokens.append(b == 0x20 ? .space : .literal(b))
                continue
            }
            switch iterator.next().map(Unicode.Scalar.init) {
            case "Y": tokens.append(.year4)
            case "y": tokens.append(.year2)
            case "m": tokens.append(.month)
            case "d": tokens.append(.day)
            case "b", "B": tokens.append(.monthName)
            case "H": tokens.append(.hour)
            case "M": tokens.append(.minute)
            case "S": tokens.append(.second)
            case "%": tokens.append(.literal(b))
            case let other?:
                throw .dateFormat(
                    "--date-format \"\(EchoedText.capped(pattern))\": %\(Character(other)) is not one of "
                        + "%Y %y %m %d %b %B %H %M %S %%")
            case nil:
                throw .dateFormat(
                    "--date-format \"\(EchoedText.capped(pattern))\" ends in a lone %")
            }
        }
        let hasYear = tokens.contains(.year4) || tokens.contains(.year2)
        let hasMonth = tokens.contains(.month) || tokens.contains(.monthName)
        guard hasYear, hasMonth, tokens.contains(.day) else {
            throw .dateFormat(
                "--date-format \"\(EchoedText.capped(pattern))\" needs a year (%Y or %y), a month "
                    + "(%m, %b or %B) and a day (%d)")
        }
        self.tokens = tokens
    }

    private init(tokens: [Token]?) { self.tokens = tokens }
}
