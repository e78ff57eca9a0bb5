import Foundation

extension PredicateParser {
    /// A number literal: decimal integers are `Int64`; `0x`, `0o`, `0b` integers too; a
    /// fraction makes an exact decimal; an exponent makes a double.
    func number(_ text: String, negative: Bool, at token: PredicateToken) throws -> FetchExpression
    {
        let sign = negative ? "-" : ""
        let lower = text.lowercased()
        if let radix = lower.hasPrefix("0x")
            ? 16 : lower.hasPrefix("0o") ? 8 : lower.hasPrefix("0b") ? 2 : nil
        {
            guard let magnitude = UInt64(text.dropFirst(2), radix: radix) else {
                throw fail("invalid or too large number \(EchoedText.capped(text))", at: token)
            }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else {
                    throw fail("number -\(EchoedText.capped(text)) is too small", at: token)
                }
                return .constant(.integer(Int64(bitPattern: 0 &- magnitude)))
            }
            guard magnitude <= UInt64(Int64.max) else {
                throw fail("number \(EchoedText.capped(text)) is too large", at: token)
            }
            return .constant(.integer(Int64(magnitude)))
        }
        if lower.contains("e") {
            guard let d = Double(sign + text), d.isFinite else {
                throw fail("number \(EchoedText.capped(text)) is out of range", at: token)
            }
            return .constant(.double(d))
        }
        if lower.contains(".") {
            guard let d = PredicateNumber.decimal(fromLiteral: sign + text) else {
                throw fail("number \(EchoedText.capped(text)) is out of range", at: token)
            }
            return .constant(.decimal(d))
        }
        guard let i = Int64(sign + text) else {
            throw fail(
                "integer \(sign)\(EchoedText.capped(text)) does not fit in 64 bits", at: token)
        }
        return .constant(.integer(i))
    }

    /// The expression for a format specifier, taking the next argument.
    mutating func argument(_ kind: PredicateArgumentKind, at token: PredicateToken) throws
        -> FetchExpression
    {
        if kind == .keyPath {
            return .init(
                .keyPath(base: .evaluatedObject, components: try keyPathArgument(at: token)))
        }
        let (position, value) = try nextArgument(at: token)
        switch kind {
        case .object:
            guard let expression = PredicateArgument.expression(from: value) else {
                throw failArgument(
                    "argument \(position) (\(type(of: value))) cannot be used in a predicate; pass numbers, "
                        + "strings, dates, UUIDs, URLs, data, objects, object IDs, nil, or collections of them",
                    at: token)
            }
            return expression
        case .integer:
            guard let i = PredicateArgument.integer(from: value) else {
                throw failArgument(
                    "argument \(position) (\(type(of: value))) is not an integer for this specifier",
                    at: token)
            }
            return .constant(.integer(i))
        case .floatingPoint:
            guard let d = PredicateArgument.double(from: value) else {
                throw failArgument(
                    "argument \(position) (\(type(of: value))) is not a number for this specifier",
                    at: token)
            }
            return .constant(.double(d))
        case .keyPath:
            return .evaluatedObject
        }
    }

    private mutating func nextArgument(at token: PredicateToken) throws -> (
        position: Int, value: Any
    ) {
        guard argumentIndex < arguments.count else {
            throw failArgument(
                "missing argument \(argumentIndex + 1): the format string needs more than the "
                    + "\(arguments.count) given", at: token)
        }
        argumentIndex += 1
        return (argumentIndex, arguments[argumentIndex - 1])
    }

    /// The components of a `%K` argument: names separated by dots, each a valid key or a
    /// collection operator.
    mutating func keyPathArgument(at token: PredicateToken) throws -> [String] {
        let (position, value) = try nextArgument(at: token)
        guard let path = PredicateArgument.string(from: value) else {
            throw failArgument(
                "argument \(position) for %K must be a key path string, not \(type(of: value))",
                at: token)
        }
        var components: [String] = []
        for component in path.split(separator: ".", omittingEmptySubsequences: false) {
            let name = component.hasPrefix("@") ? component.dropFirst() : component
            guard let first = name.unicodeScalars.first, PredicateLexer.isNameStart(first),
                name.unicodeScalars.allSatisfy(PredicateLexer.isNameContinuation)
            else {
                throw failArgument(
                    "argument \(position) for %K is not a key path: '\(EchoedText.capped(path))'",
                    at: token)
            }
            if component.hasPrefix("@") {
                let op = component.lowercased()
                guard ["@count", "@sum", "@avg", "@min", "@max"].contains(op) else {
                    throw failArgument(
                        "unsupported collection operator '\(component)' in %K argument", at: token)
                }
                components.append(op)
            } else {
                components.append(String(component))
            }
        }
        return components
    }

    /// `CAST(operand, "Type")`: folded to a constant when the operand is one.
    func cast(_ operand: FetchExpression, to typeName: String, at token: PredicateToken) throws
        -> FetchExpression
    {
        guard let type = PredicateCast.named(typeName) else {
            throw fail(
                "unknown CAST type '\(typeName)' (use NSDate, NSNumber, NSDecimalNumber, Double, Float, "
                    + "NSString, NSUUID, NSURL, NSData or NSManagedObjectID)", at: token)
        }
        guard case .constant(let value) = operand.kind else {
            guard type != .objectID else {
                throw fail("CAST to NSManagedObjectID needs a URI string", at: token)
            }
            return .function(.cast, [operand, .constant(.string(type.rawValue))])
        }
        if type == .objectID {
            guard case .string(let uri) = value, uri.hasPrefix("x-coredata://"),
                let url = URL(string: uri)
            else {
                throw fail(
                    "CAST to NSManagedObjectID needs a URI such as \"x-coredata://STORE/Entity/p1\"",
                    at: token)
            }
            return .init(.objectURI(url))
        }
        let converted = type.convert(value)
        guard !converted.isNull || value.isNull else {
            throw fail(
                "cannot convert \(PredicateCast.text(of: value) ?? "the value") to \(type.rawValue)",
                at: token)
        }
        return .constant(converted)
    }
}
