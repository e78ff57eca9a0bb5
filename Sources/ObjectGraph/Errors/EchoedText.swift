import Foundation

/// Input repeated in a message — an argument, a predicate, a file's value or column names —
/// cut to a length a person can read, so a 200 KB argument gives a one-line error.
///
/// The one place that decides how much of an input messages show: the engine's error
/// factories (predicates, model and store files) and the command-line tools use it.
package enum EchoedText {
    /// The most characters of one echoed value a message shows.
    package static let limit = 200
    /// The most characters of one line of a message a command-line tool prints.
    package static let lineLimit = 1_000

    /// `text` when it has at most `limit` characters; else its first `limit` characters,
    /// `…`, and how many characters it had.
    ///
    /// - Complexity: O(`limit`) when `text` is short; O(`text`) to count a long one.
    package static func capped(_ text: some StringProtocol, limit: Int = limit) -> String {
        let limit = max(1, limit)
        guard let cut = text.index(text.startIndex, offsetBy: limit, limitedBy: text.endIndex),
            cut < text.endIndex
        else { return String(text) }
        return String(text[..<cut]) + "… (\(text.count) characters)"
    }

    /// `values` for a message: each value capped, at most `count` of them, then how many more.
    package static func list(
        _ values: [String], count: Int = 20, quoted: Bool = true, limit: Int = 60
    ) -> String {
        var shown = values.prefix(count).map { value -> String in
            let text = capped(value, limit: limit)
            return quoted ? "\"\(text)\"" : text
        }
        if values.count > count { shown.append("and \(values.count - count) more") }
        return shown.joined(separator: ", ")
    }

    /// Every line of `message` capped to `lineLimit` characters (a last line of defence for
    /// messages that echo input).
    package static func cappedLines(_ message: String, limit: Int = lineLimit) -> String {
        guard message.utf8.count > limit else { return message }
        return message.split(separator: "\n", omittingEmptySubsequences: false)
            .map { capped($0, limit: limit) }.joined(separator: "\n")
    }

    /// The part of `text` around the 1-based character `column` that a message shows under a
    /// caret: at most `limit` characters, cut ends marked `…`, and the column within it.
    package static func window(_ text: String, column: Int, limit: Int = limit)
        -> (text: String, column: Int)
    {
        let length = text.count
        guard length > limit else { return (text, column) }
        let half = limit / 2
        let start = min(max(0, column - 1 - half), max(0, length - limit))
        let end = min(length, start + limit)
        let lower = text.index(text.startIndex, offsetBy: start)
        let upper = text.index(lower, offsetBy: end - start)
        let head = start > 0 ? "…" : ""
        let tail = end < length ? "…" : ""
        return (head + text[lower..<upper] + tail, column - start + head.count)
    }
}
