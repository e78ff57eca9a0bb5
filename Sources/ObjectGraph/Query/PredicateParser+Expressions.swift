import Foundation

extension PredicateParser {
    /// `a + b`, `a - b`; `seed`, when given, is an already parsed leftmost operand.
    mutating func parseAdditive(seed: FetchExpression?) throws -> FetchExpression {
        var left = try parseMultiplicative(seed: seed)
        while true {
            if take(.plus) {
                left = .function(.add, [left, try parseMultiplicative(seed: nil)])
            } else if take(.minus) {
                left = .function(.subtract, [left, try parseMultiplicative(seed: nil)])
            } else {
                return left
            }
        }
    }

    private mutating func parseMultiplicative(seed: FetchExpression?) throws -> FetchExpression {
        var left = try parsePower(seed: seed)
        while true {
            if take(.star) {
                left = .function(.multiply, [left, try parsePower(seed: nil)])
            } else if take(.slash) {
                left = .function(.divide, [left, try parsePower(seed: nil)])
            } else if take(.percent) {
                left = .function(.modulus, [left, try parsePower(seed: nil)])
            } else {
                return left
            }
        }
    }

    private mutating func parsePower(seed: FetchExpression?) throws -> FetchExpression {
        let base = try parseUnary(seed: seed)
        guard take(.power) else { return base }
        try enter()
        defer { leave() }
        return .function(.power, [base, try parsePower(seed: nil)])
    }

    private mutating func parseUnary(seed: FetchExpression?) throws -> FetchExpression {
        if let seed { return try parsePostfix(seed) }
        guard take(.minus) else { return try parsePostfix(try parsePrimary()) }
        if case .number(let text) = current.kind {
            let token = current
            advance()
            return try parsePostfix(try number(text, negative: true, at: token))
        }
        try enter()
        defer { leave() }
        return .function(.negate, [try parseUnary(seed: nil)])
    }

    private mutating func parsePostfix(_ base: FetchExpression) throws -> FetchExpression {
        var expression = base
        while true {
            if take(.dot) {
                expression = appending(try parseKeyComponents(), to: expression)
            } else if take(.leftBracket) {
                try enter()
                defer { leave() }
                if case .identifier(let word, escaped: false) = current.kind,
                    tokens[min(index + 1, tokens.count - 1)].kind == .symbol(.rightBracket),
                    let symbolic: FetchFunction =
                        switch word.uppercased() {
                        case "FIRST": .first
                        case "LAST": .last
                        case "SIZE": .size
                        default: nil
                        }
                {
                    advance()
                    expression = .function(symbolic, [expression])
                } else {
                    expression = .function(.index, [expression, try parseAdditive(seed: nil)])
                }
                try expect(.rightBracket, "to close '['")
            } else {
                return expression
            }
        }
    }

    private func appending(_ components: [String], to expression: FetchExpression)
        -> FetchExpression
    {
        if case .keyPath(let base, let existing) = expression.kind {
            return .init(.keyPath(base: base, components: existing + components))
        }
        return .init(.keyPath(base: expression, components: components))
    }

    /// The key components after a `.`: a name, `#name`, `@operator`, or `%K`.
    private mutating func parseKeyComponents() throws -> [String] {
        let token = current
        switch token.kind {
        case .identifier(let name, _):
            advance()
            return [name]
        case .collectionOperator(let name):
            advance()
            return [try collectionOperator(name, at: token)]
        case .argument(.keyPath):
            advance()
            return try keyPathArgument(at: token)
        case .keyword(let keyword):
            throw fail(
                "'\(keyword.rawValue)' is a reserved word; write #\(keyword.rawValue.lowercased()) "
                    + "to use it as a key", at: token)
        default:
            throw fail("expected a key after '.', found \(describe(token))", at: token)
        }
    }

    private func collectionOperator(_ name: String, at token: PredicateToken) throws -> String {
        let lower = name.lowercased()
        guard ["count", "sum", "avg", "min", "max"].contains(lower) else {
            throw fail(
                "unsupported collection operator '@\(name)' (use @count, @sum, @avg, @min or @max)",
                at: token)
        }
        return "@" + lower
    }

    private mutating func parsePrimary() throws -> FetchExpression {
        let token = current
        switch token.kind {
        case .number(let text):
            advance()
            return try number(text, negative: false, at: token)
        case .string(let text):
            advance()
            return .constant(.string(text))
        case .keyword(.true), .keyword(.yes):
            advance()
            return .constant(.boolean(true))
        case .keyword(.false), .keyword(.no):
            advance()
            return .constant(.boolean(false))
        case .keyword(.nil), .keyword(.null):
            advance()
            return .constant(.null)
        case .keyword(.self):
            advance()
            return .evaluatedObject
        case .variable(let name):
            advance()
            return .variable(name)
        case .argument(let kind):
            advance()
            return try argument(kind, at: token)
        case .collectionOperator(let name):
            advance()
            return .init(
                .keyPath(
                    base: .evaluatedObject, components: [try collectionOperator(name, at: token)]))
        case .symbol(.leftBrace):
            advance()
            try enter()
            defer { leave() }
            var elements: [FetchExpression] = []
            if !take(.rightBrace) {
                repeat { elements.append(try parseAdditive(seed: nil)) } while take(.comma)
                try expect(.rightBrace, "to close '{'")
            }
            return .aggregate(elements)
        case .symbol(.leftParen):
            advance()
            try enter()
            defer { leave() }
            let inner = try parseAdditive(seed: nil)
            try expect(.rightParen, "to close '('")
            return inner
        case .identifier(let name, let escaped):
            advance()
            if !escaped && current.kind == .symbol(.leftParen) {
                return try parseCall(name, at: token)
            }
            return .init(.keyPath(base: .evaluatedObject, components: [name]))
        case .selector(let selector):
            advance()
            guard current.kind == .symbol(.leftParen) else {
                throw fail("expected '(' after the function \(selector)", at: current)
            }
            // Core Data's own spelling, `sum:(amount)`: the selector names the function.
            let lower = selector.lowercased()
            guard
                let function = FetchFunction.allCases.first(where: {
                    $0.rawValue.lowercased() == lower
                })
            else {
                throw fail("unknown function '\(EchoedText.capped(selector))'", at: token)
            }
            return try parseCall(
                function.name ?? (function == .cast ? "CAST" : selector), at: token,
                function: function)
        default:
            throw fail("expected an expression, found \(describe(token))", at: token)
        }
    }

    /// A call: `SUBQUERY`, `TERNARY`, `CAST`, or the function called `name` (or `function`,
    /// when Core Data's selector spelling named it).
    private mutating func parseCall(
        _ name: String, at token: PredicateToken, function selected: FetchFunction? = nil
    ) throws -> FetchExpression {
        advance()
        try enter()
        defer { leave() }
        switch name.uppercased() {
        case "SUBQUERY":
            let collection = try parseAdditive(seed: nil)
            try expect(.comma, "after the SUBQUERY collection")
            guard case .variable(let variable) = current.kind else {
                throw fail("expected a $variable as the second SUBQUERY argument", at: current)
            }
            advance()
            try expect(.comma, "after the SUBQUERY variable")
            guard case .predicate(let predicate) = try parseOr(allowBare: false) else {
                throw fail("expected a predicate as the third SUBQUERY argument", at: current)
            }
            try expect(.rightParen, "to close SUBQUERY(")
            return .subquery(collection, variable: variable, predicate: predicate)
        case "TERNARY":
            guard case .predicate(let condition) = try parseOr(allowBare: false) else {
                throw fail("expected a predicate as the first TERNARY argument", at: current)
            }
            try expect(.comma, "after the TERNARY condition")
            let whenTrue = try parseAdditive(seed: nil)
            try expect(.comma, "after the second TERNARY argument")
            let whenFalse = try parseAdditive(seed: nil)
            try expect(.rightParen, "to close TERNARY(")
            return .init(.conditional(condition, whenTrue, whenFalse))
        case "CAST":
            let operand = try parseAdditive(seed: nil)
            try expect(.comma, "after the CAST operand")
            let typeToken = current
            guard case .string(let typeName) = typeToken.kind else {
                throw fail("expected the CAST type as a string, such as 'NSDate'", at: typeToken)
            }
            advance()
            try expect(.rightParen, "to close CAST(")
            return try cast(operand, to: typeName, at: typeToken)
        case "FUNCTION", "FETCH":
            throw fail(
                "\(name.uppercased())() is not supported: it runs Objective-C methods; "
                    + "use the built-in functions", at: token)
        default:
            guard let function = selected ?? FetchFunction.named(name) else {
                throw fail("unknown function '\(EchoedText.capped(name))'", at: token)
            }
            var arguments: [FetchExpression] = []
            if !take(.rightParen) {
                repeat { arguments.append(try parseAdditive(seed: nil)) } while take(.comma)
                try expect(.rightParen, "to close \(name)(")
            }
            guard arguments.count == function.arity else {
                throw fail(
                    "\(name)() takes \(function.arity) argument(s), not \(arguments.count)",
                    at: token)
            }
            return .function(function, arguments)
        }
    }
}
