import Foundation

/// Case and diacritic folding for `[c]`, `[d]` and `[cd]`, through Foundation's
/// `folding(options:locale:)` with no locale; ASCII text takes a faster path with the same
/// result.
struct StringFolding: Hashable {
    let caseInsensitive: Bool
    let diacriticInsensitive: Bool

    init(_ options: FetchPredicate.Options) {
        caseInsensitive = options.contains(.caseInsensitive)
        diacriticInsensitive = options.contains(.diacriticInsensitive)
    }

    var isIdentity: Bool { !caseInsensitive && !diacriticInsensitive }

    func fold(_ s: String) -> String {
        if isIdentity { return s }
        if s.utf8.allSatisfy({ $0 < 0x80 }) { return caseInsensitive ? s.lowercased() : s }
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        return s.folding(options: options, locale: nil)
    }

    /// Whether `s` folds to `folded` (itself already folded); allocation-free when both are ASCII.
    func foldedEquals(_ s: String, _ folded: String) -> Bool {
        if isIdentity { return s == folded }
        if caseInsensitive, let result = Self.asciiCaseInsensitiveEquals(s, folded) {
            return result
        }
        return fold(s) == folded
    }

    /// Compares ASCII strings ignoring case; `nil` when either is not ASCII.
    private static func asciiCaseInsensitiveEquals(_ s: String, _ lowered: String) -> Bool? {
        var a = s.utf8.makeIterator()
        var b = lowered.utf8.makeIterator()
        var equal = true
        while true {
            switch (a.next(), b.next()) {
            case (nil, nil): return equal
            case (let x?, let y?):
                guard x < 0x80, y < 0x80 else { return nil }
                let lx = x >= 65 && x <= 90 ? x + 32 : x
                if lx != y { equal = false }
            case (let x?, nil):
                guard x < 0x80 else { return nil }
                equal = false
            case (nil, let y?):
                guard y < 0x80 else { return nil }
                equal = false
            }
        }
    }
}

/// A `LIKE` pattern: `*` matches any run of characters, `?` exactly one, `\` makes the next
/// character literal. Matched over whole characters (grapheme clusters).
struct LikePattern {
    enum Element: Equatable {
        case literal(Character)
        case one
        case many
    }

    let elements: [Element]

    init(_ pattern: String) {
        var elements: [Element] = []
        var escaped = false
        for c in pattern {
            if escaped {
                elements.append(.literal(c))
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "*" {
                if elements.last != .many { elements.append(.many) }
            } else if c == "?" {
                elements.append(.one)
            } else {
                elements.append(.literal(c))
            }
        }
        if escaped { elements.append(.literal("\\")) }
        self.elements = elements
    }

    /// Whether the whole of `s` matches. O(|s|·|pattern|) in the worst case.
    func matches(_ s: String) -> Bool {
        var i = s.startIndex
        var p = 0
        var star: (pattern: Int, text: String.Index)?
        while i < s.endIndex {
            if p < elements.count {
                switch elements[p] {
                case .one:
                    i = s.index(after: i)
                    p += 1
                    continue
                case .literal(let c) where c == s[i]:
                    i = s.index(after: i)
                    p += 1
                    continue
                case .many:
                    star = (p, i)
                    p += 1
                    continue
                case .literal:
                    break
                }
            }
            guard let last = star else { return false }
            let next = s.index(after: last.text)
            star = (last.pattern, next)
            p = last.pattern + 1
            i = next
        }
        while p < elements.count, elements[p] == .many { p += 1 }
        return p == elements.count
    }
}

/// Compiles `MATCHES` patterns: ICU regular expressions matched against the whole string.
enum RegularExpressionCache {
    /// Why `pattern` is not a valid regular expression, or `nil` when it is.
    static func problem(with pattern: String) -> String? {
        do {
            if !pattern.isEmpty { _ = try NSRegularExpression(pattern: pattern) }
            _ = try NSRegularExpression(pattern: anchored(pattern))
            return nil
        } catch {
            return "'\(pattern)' does not compile"
        }
    }

    /// The expression matching `pattern` against a whole string, or `nil` when invalid.
    static func wholeString(_ pattern: String, caseInsensitive: Bool) -> NSRegularExpression? {
        guard problem(with: pattern) == nil else { return nil }
        return try? NSRegularExpression(
            pattern: anchored(pattern),
            options: caseInsensitive ? [.caseInsensitive] : [])
    }

    private static func anchored(_ pattern: String) -> String { "\\A(?:" + pattern + ")\\z" }

    /// Whether `regex` (from ``wholeString(_:caseInsensitive:)``) matches all of `s`.
    static func matches(_ regex: NSRegularExpression, _ s: String) -> Bool {
        regex.firstMatch(in: s, options: [], range: NSRange(location: 0, length: s.utf16.count))
            != nil
    }
}
