import Foundation

/// A recursive-descent parser for the predicate format language.
///
/// Precedence, loosest first: `OR`, `AND`, `NOT`, comparison, `+ -`, `* / %%`, `**`
/// (right-associative), unary minus, postfix (`.key`, `[index]`). Every recursive entry
/// counts against ``maxDepth`` so that no input can exhaust the stack.
struct PredicateParser {
    /// The deepest nesting a format string may have (parentheses, `NOT`s, braces, calls).
    static let maxDepth = 100

    let format: String
    let tokens: [PredicateToken]
    let arguments: [Any]
    var index = 0
    var argumentIndex = 0
    var depth = 0

    init(format: String, arguments: [Any]) throws {
        self.format = format
        self.tokens = try PredicateLexer.tokens(of: format)
        self.arguments = arguments
    }

    /// A predicate, or (inside parentheses) an expression still waiting for its operator.
    enum Parsed {
        case predicate(FetchPredicate)
        case expression(FetchExpression)
    }

    // MARK: Entry points

    mutating func parseWholePredicate() throws -> FetchPredicate {
        guard case .predicate(let predicate) = try parseOr(allowBare: false) else {
            throw fail("expected a comparison", at: current)
        }
        try finish()
        return predicate
    }

    mutating func parseWholeExpression() throws -> FetchExpression {
        let expression = try parseAdditive(seed: nil)
        try finish()
        return expression
    }

    /// Requires the end of the string. Arguments beyond those the string uses are ignored,
    /// as by Core Data (a quoted `'%@'` takes none).
    private mutating func finish() throws {
        guard current.kind == .end else {
            throw fail("unexpected \(describe(current))", at: current)
        }
    }

    // MARK: Token helpers

    var current: PredicateToken { tokens[min(index, tokens.count - 1)] }

    mutating func advance() { if index < tokens.count - 1 { index += 1 } }

    mutating func take(_ symbol: PredicateSymbol) -> Bool {
        guard current.kind == .symbol(symbol) else { return false }
        advance()
        return true
    }

    mutating func take(_ keyword: PredicateKeyword) -> Bool {
        guard current.kind == .keyword(keyword) else { return false }
        advance()
        return true
    }

    mutating func expect(_ symbol: PredicateSymbol, _ context: String) throws {
        guard take(symbol) else {
            throw fail(
                "expected '\(symbol.rawValue)' \(context), found \(describe(current))", at: current)
        }
    }

    func fail(_ reason: String, at token: PredicateToken) -> ObjectGraphError {
        PredicateErrors.syntax(reason, format: format, scalarOffset: token.start)
    }

    /// An argument that is missing or does not fit its specifier, at the specifier's token.
    func failArgument(_ reason: String, at token: PredicateToken) -> ObjectGraphError {
        PredicateErrors.syntax(
            reason, format: format, scalarOffset: token.start, kind: .predicateArgument)
    }

    func fail(_ reason: String, offset: Int) -> ObjectGraphError {
        PredicateErrors.syntax(reason, format: format, scalarOffset: offset)
    }

    func describe(_ token: PredicateToken) -> String {
        switch token.kind {
        case .end: "end of string"
        case .string: "a string"
        case .number(let text): "number \(EchoedText.capped(text))"
        case .keyword(let k): "'\(k.rawValue)'"
        case .identifier(let name, _), .selector(let name): "'\(EchoedText.capped(name))'"
        case .variable(let name): "'$\(EchoedText.capped(name))'"
        case .collectionOperator(let name): "'@\(EchoedText.capped(name))'"
        case .argument: "a format argument"
        case .symbol(let s): "'\(s.rawValue)'"
        }
    }

    /// Counts one level of nesting; throws past ``maxDepth``.
    mutating func enter() throws {
        depth += 1
        guard depth <= Self.maxDepth else {
            throw fail("nested more than \(Self.maxDepth) levels deep", at: current)
        }
    }

    mutating func leave() { depth -= 1 }

    // MARK: Predicates

    mutating func parseOr(allowBare: Bool) throws -> Parsed {
        try parseChain(
            allowBare: allowBare, keyword: .or, symbol: .or,
            next: { try $0.parseAnd(allowBare: $1) },
            make: { FetchPredicate(.or($0)) })
    }

    private mutating func parseAnd(allowBare: Bool) throws -> Parsed {
        try parseChain(
            allowBare: allowBare, keyword: .and, symbol: .and,
            next: { try $0.parseNot(allowBare: $1) },
            make: { FetchPredicate(.and($0)) })
    }

    private mutating func parseChain(
        allowBare: Bool, keyword: PredicateKeyword, symbol: PredicateSymbol,
        next: (inout PredicateParser, Bool) throws -> Parsed,
        make: ([FetchPredicate]) -> FetchPredicate
    ) throws -> Parsed {
        let first = try next(&self, allowBare)
        guard current.kind == .keyword(keyword) || current.kind == .symbol(symbol) else {
            return first
        }
        guard case .predicate(let p) = first else {
            throw fail("expected a comparison operator", at: current)
        }
        var items = [p]
        while take(keyword) || take(symbol) {
            let operandToken = current
            guard case .predicate(let q) = try next(&self, false) else {
                throw fail("expected a comparison", at: operandToken)
            }
            items.append(q)
        }
        return .predicate(make(items))
    }

    private mutating func parseNot(allowBare: Bool) throws -> Parsed {
        guard take(.not) || take(.bang) else {
            return try parsePrimaryPredicate(allowBare: allowBare)
        }
        try enter()
        defer { leave() }
        guard case .predicate(let p) = try parseNot(allowBare: false) else {
            throw fail("expected a comparison after NOT", at: current)
        }
        return .predicate(.not(p))
    }

    private mutating func parsePrimaryPredicate(allowBare: Bool) throws -> Parsed {
        if take(.truePredicate) { return .predicate(.truePredicate) }
        if take(.falsePredicate) { return .predicate(.falsePredicate) }
        if current.kind == .symbol(.leftParen) {
            advance()
            try enter()
            let inner = try parseOr(allowBare: true)
            leave()
            try expect(.rightParen, "to close '('")
            switch inner {
            case .predicate(let p): return .predicate(p)
            case .expression(let e):
                let left = try parseAdditive(seed: e)
                return try parseComparisonTail(left: left, modifier: nil, allowBare: allowBare)
            }
        }
        var modifier: (FetchPredicate.Modifier, negated: Bool)?
        if take(.any) || take(.some) {
            modifier = (.any, false)
        } else if take(.all) {
            modifier = (.all, false)
        } else if take(.none) {
            modifier = (.any, true)
        }
        let left = try parseAdditive(seed: nil)
        return try parseComparisonTail(left: left, modifier: modifier, allowBare: allowBare)
    }

    private mutating func parseComparisonTail(
        left: FetchExpression, modifier: (FetchPredicate.Modifier, negated: Bool)?, allowBare: Bool
    ) throws -> Parsed {
        let operatorToken = current
        guard let op = try parseOperator() else {
            if allowBare && modifier == nil { return .expression(left) }
            throw fail(
                "expected a comparison operator, found \(describe(operatorToken))",
                at: operatorToken)
        }
        let options = try parseOptions()
        let rightToken = current
        let right = try parseAdditive(seed: nil)
        try check(op, right: right, at: rightToken)
        let comparison = FetchPredicate.comparison(
            left, op, right, modifier: modifier?.0 ?? .direct,
            options: options)
        return .predicate(modifier?.negated == true ? .not(comparison) : comparison)
    }

    private mutating func parseOperator() throws -> FetchPredicate.Operator? {
        let token = current
        let op: FetchPredicate.Operator? =
            switch token.kind {
            case .symbol(.equal): .equalTo
            case .symbol(.notEqual): .notEqualTo
            case .symbol(.less): .lessThan
            case .symbol(.lessEqual): .lessThanOrEqualTo
            case .symbol(.greater): .greaterThan
            case .symbol(.greaterEqual): .greaterThanOrEqualTo
            case .keyword(.in): .in
            case .keyword(.like): .like
            case .keyword(.matches): .matches
            case .keyword(.contains): .contains
            case .keyword(.beginsWith): .beginsWith
            case .keyword(.endsWith): .endsWith
            case .keyword(.between): .between
            case .keyword(.utiConformsTo), .keyword(.utiEquals):
                throw fail(
                    "UTI-CONFORMS-TO and UTI-EQUALS are not supported (no uniform type identifiers here)",
                    at: token)
            default: nil
            }
        if op != nil { advance() }
        return op
    }

    private mutating func parseOptions() throws -> FetchPredicate.Options {
        guard current.kind == .symbol(.leftBracket) else { return [] }
        advance()
        let token = current
        guard case .identifier(let letters, escaped: false) = token.kind else {
            throw fail("expected comparison options such as [c], [d] or [cd]", at: token)
        }
        var options: FetchPredicate.Options = []
        for (offset, letter) in letters.unicodeScalars.enumerated() {
            switch letter {
            case "c", "C": options.insert(.caseInsensitive)
            case "d", "D": options.insert(.diacriticInsensitive)
            case "n", "N": options.insert(.normalized)
            case "l", "L": break
            default:
                throw fail(
                    "unknown comparison option '\(letter)' (use c, d, n or l)",
                    offset: token.start + offset)
            }
        }
        advance()
        try expect(.rightBracket, "to close the comparison options")
        return options
    }

    /// Checks what can be checked before compiling: BETWEEN bounds and constant patterns.
    private func check(
        _ op: FetchPredicate.Operator, right: FetchExpression, at token: PredicateToken
    ) throws {
        switch (op, right.kind) {
        case (.between, .aggregate(let bounds)) where bounds.count != 2:
            throw fail("BETWEEN needs two bounds, {lower, upper}; found \(bounds.count)", at: token)
        case (.between, .constant(let value)) where !value.isNull:
            throw fail("BETWEEN needs two bounds, {lower, upper}", at: token)
        case (.matches, .constant(.string(let pattern))):
            if let problem = RegularExpressionCache.problem(with: pattern) {
                throw fail("invalid regular expression for MATCHES: \(problem)", at: token)
            }
        default: break
        }
    }
}
