/// Parses the common subset of ICU regular expressions into ``PatternNode``s: literals,
/// escapes (`\d \w \s \D \W \S`, control and hex escapes, escaped punctuation, `\Q…\E`), `.`,
/// classes with ranges and negation, groups (capturing, `(?:…)`, `(?<name>…)`), alternation,
/// quantifiers (`? * + {m} {m,} {m,n}`, lazy or not) and anchors (`^ $ \A \z \Z`).
///
/// Anything else throws ``UnsupportedPattern`` naming the construct and its position.
struct PatternParser {
    let scalars: [Unicode.Scalar]
    var position = 0

    /// Parses `pattern`.
    static func parse(_ pattern: String) throws(UnsupportedPattern) -> PatternNode {
        var parser = PatternParser(scalars: Array(pattern.unicodeScalars))
        let node = try parser.alternation()
        if parser.position < parser.scalars.count {
            throw parser.unsupported(String(parser.scalars[parser.position]), "an unbalanced ')'")
        }
        return node
    }

    private init(scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    var current: Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    func peek(_ offset: Int) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    func unsupported(_ part: String, _ what: String, at: Int? = nil) -> UnsupportedPattern {
        UnsupportedPattern(part: part, position: (at ?? position) + 1, what: what)
    }

    private mutating func alternation() throws(UnsupportedPattern) -> PatternNode {
        var branches = [try sequence()]
        while current == "|" {
            position += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence() throws(UnsupportedPattern) -> PatternNode {
        var parts: [PatternNode] = []
        while let c = current, c != "|", c != ")" {
            let start = position
            if c == "\\", peek(1) == "Q" {
                // \Q…\E quotes literally; a quantifier after it applies to its last character.
                var literals = quoted()
                guard let last = literals.popLast() else { continue }
                parts += literals
                parts.append(try quantified(last, start: start))
                continue
            }
            let atom = try self.atom()
            parts.append(try quantified(atom, start: start))
        }
        return parts.count == 1 ? parts[0] : .sequence(parts)
    }

    private mutating func quantified(_ atom: PatternNode, start: Int) throws(UnsupportedPattern)
        -> PatternNode
    {
        var node = atom
        while let c = current, c == "?" || c == "*" || c == "+" || c == "{" {
            let at = position
            if atom == .start || atom == .end {
                throw unsupported(String(c), "a quantifier on an anchor")
            }
            let bounds: (Int, Int?)
            switch c {
            case "?":
                bounds = (0, 1)
                position += 1
            case "*":
                bounds = (0, nil)
                position += 1
            case "+":
                bounds = (1, nil)
                position += 1
            default: bounds = try braces()
            }
            if current == "+" {
                throw unsupported(
                    String(scalars[at..<position + 1].map(Character.init)),
                    "a possessive quantifier", at: at)
            }
            if current == "?" { position += 1 }  // lazy: the same strings match in full
            if case .repetition = node {
                throw unsupported(String(c), "a quantifier applied to a quantifier", at: at)
            }
            node = .repetition(node, min: bounds.0, max: bounds.1)
        }
        return node
    }

    private mutating func braces() throws(UnsupportedPattern) -> (Int, Int?) {
        let at = position
        position += 1
        func number() -> Int? {
            var digits = ""
            while let c = current, ("0"..."9").contains(c) {
                digits.unicodeScalars.append(c)
                position += 1
            }
            return digits.isEmpty ? nil : Int(digits)
        }
        guard let low = number() else {
            throw unsupported("{", "a '{' that does not start a {m,n} quantifier", at: at)
        }
        var high: Int? = low
        if current == "," {
            position += 1
            high = number()
        }
        guard current == "}", low <= 10_000, high.map({ $0 >= low && $0 <= 10_000 }) ?? true else {
            throw unsupported(
                "{", "a {m,n} quantifier that is malformed or larger than 10000", at: at)
        }
        position += 1
        return (low, high)
    }

    private mutating func atom() throws(UnsupportedPattern) -> PatternNode {
        let c = scalars[position]
        switch c {
        case "(": return try group()
        case "[": return try characterClass()
        case ".":
            position += 1
            return .set(.printable)
        case "^":
            position += 1
            return .start
        case "$":
            position += 1
            return .end
        case "\\": return try escape()
        case "*", "+", "?", "{": throw unsupported(String(c), "a quantifier with nothing to repeat")
        default:
            position += 1
            return .literal(c)
        }
    }

    private mutating func group() throws(UnsupportedPattern) -> PatternNode {
        let at = position
        position += 1
        if current == "?" {
            switch (peek(1), peek(2)) {
            case (":", _): position += 2
            case ("<", let n?) where n.properties.isAlphabetic:
                position += 2
                while let c = current, c != ">" { position += 1 }
                guard current == ">" else {
                    throw unsupported("(?<", "an unterminated group name", at: at)
                }
                position += 1
            case ("=", _): throw unsupported("(?=", "a lookahead", at: at)
            case ("!", _): throw unsupported("(?!", "a negative lookahead", at: at)
            case ("<", "="): throw unsupported("(?<=", "a lookbehind", at: at)
            case ("<", "!"): throw unsupported("(?<!", "a negative lookbehind", at: at)
            case (">", _): throw unsupported("(?>", "an atomic group", at: at)
            case ("#", _): throw unsupported("(?#", "a comment group", at: at)
            default:
                throw unsupported(
                    "(?" + (peek(1).map { String($0) } ?? ""), "a flag setting", at: at)
            }
        }
        let inner = try alternation()
        guard current == ")" else { throw unsupported("(", "an unclosed group", at: at) }
        position += 1
        return inner
    }
}
