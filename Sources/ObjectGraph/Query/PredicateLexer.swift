import Foundation

/// Splits a predicate format string into tokens. Works on Unicode scalars; never traps.
struct PredicateLexer {
    let format: String
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(format: String) {
        self.format = format
        self.scalars = Array(format.unicodeScalars)
    }

    /// Every token of the string, ending with `.end`.
    static func tokens(of format: String) throws -> [PredicateToken] {
        var lexer = PredicateLexer(format: format)
        var tokens: [PredicateToken] = []
        tokens.reserveCapacity(lexer.scalars.count / 2 + 1)
        while true {
            let token = try lexer.next()
            tokens.append(token)
            if token.kind == .end { return tokens }
        }
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        let i = position + offset
        return i < scalars.count ? scalars[i] : nil
    }

    private func fail(_ reason: String, at offset: Int) -> ObjectGraphError {
        PredicateErrors.syntax(reason, format: format, scalarOffset: offset)
    }

    mutating func next() throws -> PredicateToken {
        while let c = peek(),
            c == " " || (c.isASCII ? c.value >= 9 && c.value <= 13 : c.properties.isWhitespace)
        {
            position += 1
        }
        let start = position
        guard let c = peek() else { return PredicateToken(kind: .end, start: start, end: start) }
        let kind: PredicateToken.Kind
        switch c {
        case "'", "\"": kind = .string(try lexString(quote: c))
        case "$":
            position += 1
            guard let name = lexName() else {
                throw fail("expected a variable name after '$'", at: start)
            }
            kind = .variable(name)
        case "@":
            position += 1
            guard let name = lexName() else {
                throw fail("expected a collection operator after '@'", at: start)
            }
            kind = .collectionOperator(name)
        case "#":
            position += 1
            guard let name = lexName() else { throw fail("expected a key after '#'", at: start) }
            kind = .identifier(name, escaped: true)
        case "%": kind = try lexSpecifier()
        case _ where Self.isDigit(c): kind = .number(try lexNumber())
        case "." where peek(1).map(Self.isDigit) ?? false: kind = .number(try lexNumber())
        default:
            if let name = lexName() {
                kind = peek() == ":" ? lexSelector(name) : keywordOrIdentifier(name, start: start)
            } else if let symbol = lexSymbol() {
                kind = .symbol(symbol)
            } else {
                throw fail(
                    "unexpected character '\(String(c).debugDescription.dropFirst().dropLast())'",
                    at: start)
            }
        }
        return PredicateToken(kind: kind, start: start, end: position)
    }

    private mutating func keywordOrIdentifier(_ name: String, start: Int) -> PredicateToken.Kind {
        if name.utf8.count == 3, name.uppercased() == "UTI" {
            for keyword in [PredicateKeyword.utiConformsTo, .utiEquals] {
                let rest = Array(keyword.rawValue.unicodeScalars.dropFirst(3))
                let end = position + rest.count
                if end <= scalars.count,
                    String(String.UnicodeScalarView(scalars[position..<end])).uppercased()
                        == String(String.UnicodeScalarView(rest))
                {
                    position = end
                    return .keyword(keyword)
                }
            }
        }
        if let keyword = PredicateKeyword.matching(name) { return .keyword(keyword) }
        return .identifier(name, escaped: false)
    }

    static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value &- 48 < 10 }

    static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v == 95 || (v | 0x20) &- 97 < 26 }
        return c.properties.isAlphabetic
    }

    static func isNameContinuation(_ c: Unicode.Scalar) -> Bool {
        let v = c.value
        if v < 0x80 { return v == 95 || (v | 0x20) &- 97 < 26 || v &- 48 < 10 }
        if c.properties.isAlphabetic { return true }
        switch c.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }

    private mutating func lexName() -> String? {
        guard let c = peek(), Self.isNameStart(c) else { return nil }
        let start = position
        while let c = peek(), Self.isNameContinuation(c) { position += 1 }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    /// `name:` and any further `part:` right after it: Core Data's spelling of a function
    /// (`sum:(x)`, `add:to:(a, b)`).
    private mutating func lexSelector(_ name: String) -> PredicateToken.Kind {
        var selector = name + ":"
        position += 1
        while true {
            let save = position
            guard let part = lexName(), peek() == ":" else {
                position = save
                break
            }
            selector += part + ":"
            position += 1
        }
        return .selector(selector)
    }

    private mutating func lexSymbol() -> PredicateSymbol? {
        guard let c = peek() else { return nil }
        let next = peek(1)
        let pair: PredicateSymbol? =
            switch (c, next) {
            case ("*", "*"): .power
            case ("=", "="): .equal
            case ("!", "="), ("<", ">"): .notEqual
            case ("<", "="), ("=", "<"): .lessEqual
            case (">", "="), ("=", ">"): .greaterEqual
            case ("&", "&"): .and
            case ("|", "|"): .or
            default: nil
            }
        if let pair {
            position += 2
            return pair
        }
        let one: PredicateSymbol? =
            switch c {
            case "(": .leftParen
            case ")": .rightParen
            case "{": .leftBrace
            case "}": .rightBrace
            case "[": .leftBracket
            case "]": .rightBracket
            case ",": .comma
            case ".": .dot
            case "+": .plus
            case "-": .minus
            case "*": .star
            case "/": .slash
            case "=": .equal
            case "<": .less
            case ">": .greater
            case "!": .bang
            default: nil
            }
        if one != nil { position += 1 }
        return one
    }

    private mutating func lexSpecifier() throws -> PredicateToken.Kind {
        let start = position
        position += 1
        if peek() == "%" {
            position += 1
            return .symbol(.percent)
        }
        if peek() == "@" {
            position += 1
            return .argument(.object)
        }
        if peek() == "K" {
            position += 1
            return .argument(.keyPath)
        }
        while let c = peek(), "hlqLzjt".unicodeScalars.contains(c), position - start < 4 {
            position += 1
        }
        guard let c = peek() else { throw fail("incomplete format specifier", at: start) }
        position += 1
        switch c {
        case "d", "i", "u", "o", "x", "X", "D", "U", "O": return .argument(.integer)
        case "f", "F", "e", "E", "g", "G", "a", "A": return .argument(.floatingPoint)
        default:
            let text = String(String.UnicodeScalarView(scalars[start..<position]))
            throw fail(
                "unsupported format specifier '\(text)' (use %@, %K, %d, %i, %ld, %f, %lf or %%)",
                at: start)
        }
    }

    private mutating func lexNumber() throws -> String {
        let start = position
        if peek() == "0", let p = peek(1), "xXoObB".unicodeScalars.contains(p) {
            position += 2
            let digitsStart = position
            while let c = peek(), c.properties.isASCIIHexDigit || c == "_" { position += 1 }
            if position == digitsStart { throw fail("expected digits after '0\(p)'", at: start) }
        } else {
            while let c = peek(), Self.isDigit(c) { position += 1 }
            if peek() == ".", let d = peek(1), Self.isDigit(d) {
                position += 1
                while let c = peek(), Self.isDigit(c) { position += 1 }
            }
            if let e = peek(), e == "e" || e == "E" {
                var look = 1
                if let s = peek(1), s == "+" || s == "-" { look = 2 }
                if let d = peek(look), Self.isDigit(d) {
                    position += look
                    while let c = peek(), Self.isDigit(c) { position += 1 }
                }
            }
        }
        if let c = peek(), Self.isNameContinuation(c) {
            throw fail("unexpected '\(c)' in a number", at: position)
        }
        return String(String.UnicodeScalarView(scalars[start..<position]))
    }

    private mutating func lexString(quote: Unicode.Scalar) throws -> String {
        let start = position
        position += 1
        var text = String.UnicodeScalarView()
        while true {
            guard let c = peek() else { throw fail("unterminated string", at: start) }
            position += 1
            if c == quote { return String(text) }
            guard c == "\\" else {
                text.append(c)
                continue
            }
            guard let e = peek() else { throw fail("unterminated string", at: start) }
            position += 1
            switch e {
            case "\\", "'", "\"": text.append(e)
            case "n": text.append("\n")
            case "t": text.append("\t")
            case "r": text.append("\r")
            case "0": text.append("\0")
            case "u": text.append(try lexUnicodeEscape(escapeStart: position - 2))
            default: throw fail("unknown escape '\\\(e)' in a string", at: position - 2)
            }
        }
    }

    private mutating func lexUnicodeEscape(escapeStart: Int) throws -> Unicode.Scalar {
        var value: UInt32 = 0
        if peek() == "{" {
            position += 1
            var count = 0
            while let c = peek(), c != "}" {
                guard let digit = c.hexValue, count < 8 else {
                    throw fail("bad \\u{…} escape in a string", at: escapeStart)
                }
                value = value &* 16 &+ digit
                count += 1
                position += 1
            }
            guard peek() == "}", count > 0 else {
                throw fail("bad \\u{…} escape in a string", at: escapeStart)
            }
            position += 1
        } else {
            for _ in 0..<4 {
                guard let digit = peek()?.hexValue else {
                    throw fail("\\u needs four hex digits in a string", at: escapeStart)
                }
                value = value * 16 + digit
                position += 1
            }
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw fail("\\u escape is not a Unicode scalar", at: escapeStart)
        }
        return scalar
    }
}

extension Unicode.Scalar {
    fileprivate var hexValue: UInt32? {
        switch self {
        case "0"..."9": value - 48
        case "a"..."f": value - 87
        case "A"..."F": value - 55
        default: nil
        }
    }
}
