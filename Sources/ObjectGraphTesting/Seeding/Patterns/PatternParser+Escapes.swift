/// Escapes and bracketed classes.
extension PatternParser {
    /// An escape outside a class: a set, an anchor, or a literal.
    mutating func escape() throws(UnsupportedPattern) -> PatternNode {
        let at = position
        guard let c = peek(1) else { throw unsupported("\\", "a '\\' at the end of the pattern") }
        switch c {
        case "A":
            position += 2
            return .start
        case "z", "Z":
            position += 2
            return .end
        default:
            let set = try escapedSet(at: at)
            if set.count == 1, let only = set.scalar(at: 0), !Self.isClassEscape(c) {
                return .literal(only)
            }
            return .set(set)
        }
    }

    /// The literals of `\Q…\E` (position is at the backslash of `\Q`); an unterminated
    /// `\Q` quotes the rest of the pattern.
    mutating func quoted() -> [PatternNode] {
        position += 2
        var literals: [PatternNode] = []
        while let s = current, !(s == "\\" && peek(1) == "E") {
            literals.append(.literal(s))
            position += 1
        }
        if current != nil { position += 2 }
        return literals
    }

    private static func isClassEscape(_ c: Unicode.Scalar) -> Bool {
        "dDwWsS".unicodeScalars.contains(c)
    }

    /// The scalars an escape stands for (inside or outside a class); advances past it.
    mutating func escapedSet(at: Int) throws(UnsupportedPattern) -> ScalarSet {
        guard let c = peek(1) else {
            throw unsupported("\\", "a '\\' at the end of the pattern", at: at)
        }
        position += 2
        func one(_ value: UInt32) -> ScalarSet { ScalarSet([value...value]) }
        switch c {
        case "d": return .digits
        case "D": return ScalarSet.digits.complement(in: .printable)
        case "w": return .word
        case "W": return ScalarSet.word.complement(in: .printable)
        case "s": return .whitespace
        case "S": return ScalarSet.whitespace.complement(in: .printable)
        case "t": return one(0x09)
        case "n": return one(0x0A)
        case "r": return one(0x0D)
        case "f": return one(0x0C)
        case "a": return one(0x07)
        case "e": return one(0x1B)
        case "x", "u", "U": return one(try hexScalar(c, at: at))
        case "b", "B": throw unsupported("\\" + String(c), "a word boundary", at: at)
        case "1"..."9", "k": throw unsupported("\\" + String(c), "a backreference", at: at)
        case "p", "P": throw unsupported("\\" + String(c), "a Unicode property class", at: at)
        case "0": throw unsupported("\\0", "an octal escape", at: at)
        default:
            guard !c.properties.isAlphabetic && !("0"..."9").contains(c) else {
                throw unsupported("\\" + String(c), "an escape the generator does not know", at: at)
            }
            return one(c.value)
        }
    }

    /// `\xhh`, `\x{h…}`, `\uhhhh` or `\Uhhhhhhhh` (position is just after the letter).
    private mutating func hexScalar(_ kind: Unicode.Scalar, at: Int) throws(UnsupportedPattern)
        -> UInt32
    {
        var digits = ""
        if kind == "x", current == "{" {
            position += 1
            while let c = current, c != "}" {
                digits.unicodeScalars.append(c)
                position += 1
            }
            position += 1
        } else {
            let width = kind == "x" ? 2 : kind == "u" ? 4 : 8
            for _ in 0..<width {
                guard let c = current else { break }
                digits.unicodeScalars.append(c)
                position += 1
            }
        }
        guard let value = UInt32(digits, radix: 16), Unicode.Scalar(value) != nil else {
            throw unsupported(
                "\\" + String(kind) + digits, "a malformed hexadecimal escape", at: at)
        }
        return value
    }

    /// `[…]`: ranges, escapes and negation. Nested sets, POSIX classes and set operations
    /// are not supported.
    mutating func characterClass() throws(UnsupportedPattern) -> PatternNode {
        let at = position
        position += 1
        var negated = false
        if current == "^" {
            negated = true
            position += 1
        }
        var set = ScalarSet()
        var first = true
        while let c = current, c != "]" || first {
            first = false
            let itemAt = position
            if c == "[" {
                throw unsupported("[", "a nested set or POSIX class inside [...]", at: itemAt)
            }
            if c == "&" && peek(1) == "&" {
                throw unsupported("&&", "a set intersection", at: itemAt)
            }
            if c == "-" && peek(1) == "-" {
                throw unsupported("--", "a set difference", at: itemAt)
            }
            let low: ScalarSet
            if c == "\\" {
                low = try escapedSet(at: itemAt)
            } else {
                position += 1
                low = ScalarSet([c.value...c.value])
            }
            if current == "-", let next = peek(1), next != "]" {
                guard low.count == 1, let from = low.scalar(at: 0) else {
                    throw unsupported("-", "a range that starts with a class escape", at: position)
                }
                position += 1
                let high: ScalarSet
                if next == "\\" {
                    high = try escapedSet(at: position)
                } else {
                    position += 1
                    high = ScalarSet([next.value...next.value])
                }
                guard high.count == 1, let to = high.scalar(at: 0), from.value <= to.value else {
                    throw unsupported(
                        "-", "a range whose end is not a single character after its start",
                        at: itemAt)
                }
                set.insert(from.value...to.value)
            } else {
                set.formUnion(low)
            }
        }
        guard current == "]" else { throw unsupported("[", "an unclosed class", at: at) }
        position += 1
        set = set.intersection(ScalarSet([0...0xD7FF, 0xE000...0x10FFFF]))
        if negated { set = set.complement(in: .printable) }
        guard !set.isEmpty else {
            throw unsupported(
                String(scalars[at..<position].map(Character.init)),
                "a class that matches no printable character", at: at)
        }
        return .set(set)
    }
}
