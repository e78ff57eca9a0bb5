import Foundation

extension FetchExpression: CustomStringConvertible {
    /// The expression in the format language; parsing it gives back an equal expression.
    ///
    /// - Note: Mirrors `NSExpression.description`.
    public var description: String { text(level: 0) }

    /// Binding strength: 1 `+ -`, 2 `* / %%`, 3 `**`, 4 unary minus, 5 postfix and primary.
    private var level: Int {
        guard case .function(let f, _) = kind else { return 5 }
        switch f {
        case .add, .subtract: return 1
        case .multiply, .divide, .modulus: return 2
        case .power: return 3
        case .negate: return 4
        default: return 5
        }
    }

    /// The text, parenthesised when it binds more loosely than `level` requires.
    private func text(level required: Int) -> String {
        let body = bareText
        return level < required ? "(\(body))" : body
    }

    private var bareText: String {
        switch kind {
        case .constant(let v): return Self.literal(v)
        case .object(let id):
            return
                "CAST(\(Self.quoted(id.uriRepresentation().absoluteString)), \"NSManagedObjectID\")"
        case .objectURI(let url):
            return "CAST(\(Self.quoted(url.absoluteString)), \"NSManagedObjectID\")"
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .keyPath(let base, let components):
            let path = components.map(Self.keyText).joined(separator: ".")
            if case .evaluatedObject = base.kind { return components.isEmpty ? "SELF" : path }
            return base.text(level: 5) + (components.isEmpty ? "" : "." + path)
        case .aggregate(let items):
            return "{" + items.map { $0.text(level: 0) }.joined(separator: ", ") + "}"
        case .subquery(let collection, let variable, let predicate):
            return "SUBQUERY(\(collection.text(level: 0)), $\(variable), \(predicate.description))"
        case .conditional(let p, let a, let b):
            return "TERNARY(\(p.description), \(a.text(level: 0)), \(b.text(level: 0)))"
        case .function(let f, let args):
            return Self.call(f, args)
        }
    }

    private static func call(_ f: FetchFunction, _ args: [FetchExpression]) -> String {
        func arg(_ i: Int, _ level: Int) -> String {
            i < args.count ? args[i].text(level: level) : "nil"
        }
        switch f {
        case .add: return "\(arg(0, 1)) + \(arg(1, 2))"
        case .subtract: return "\(arg(0, 1)) - \(arg(1, 2))"
        case .multiply: return "\(arg(0, 2)) * \(arg(1, 3))"
        case .divide: return "\(arg(0, 2)) / \(arg(1, 3))"
        case .modulus: return "\(arg(0, 2)) %% \(arg(1, 3))"
        case .power: return "\(arg(0, 4)) ** \(arg(1, 3))"
        case .negate: return "-(\(arg(0, 0)))"
        case .index: return "\(arg(0, 5))[\(arg(1, 0))]"
        case .first: return "\(arg(0, 5))[FIRST]"
        case .last: return "\(arg(0, 5))[LAST]"
        case .size: return "\(arg(0, 5))[SIZE]"
        case .cast: return "CAST(\(arg(0, 0)), \(arg(1, 0)))"
        default:
            return "\(f.name ?? f.rawValue)("
                + args.map { $0.text(level: 0) }.joined(separator: ", ") + ")"
        }
    }

    /// A key written so that it reads back as a key: reserved words get a `#`.
    private static func keyText(_ key: String) -> String {
        PredicateKeyword.isReserved(key) ? "#" + key : key
    }

    /// The literal form of a constant.
    static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "nil"
        case .boolean(let b): return b ? "YES" : "NO"
        case .integer(let i): return String(i)
        case .decimal(let d):
            if d.isNaN { return "CAST(\"NaN\", \"NSDecimalNumber\")" }
            let text = d.description
            return text.contains(".") ? text : text + ".0"
        case .double(let d):
            return d.isFinite ? doubleLiteral(d) : "CAST(\(quoted(d.description)), \"Double\")"
        case .float(let f): return "CAST(\(quoted(f.description)), \"Float\")"
        case .string(let s): return quoted(s)
        case .date(let d):
            return "CAST(\(doubleLiteral(d.timeIntervalSinceReferenceDate)), \"NSDate\")"
        case .uuid(let u): return "CAST(\(quoted(u.uuidString)), \"NSUUID\")"
        case .uri(let u): return "CAST(\(quoted(u.absoluteString)), \"NSURL\")"
        case .data(let d): return "CAST(\(quoted(d.base64EncodedString())), \"NSData\")"
        case .transformable(let d):
            return "CAST(\(quoted(d.base64EncodedString())), \"Transformable\")"
        }
    }

    /// A finite double in its shortest exact form, always with an exponent (`0.5e0`), which
    /// is what makes a literal a double rather than a decimal.
    private static func doubleLiteral(_ d: Double) -> String {
        let text = d.description
        return text.contains("e") ? text : text + "e0"
    }

    /// `s` in double quotes, with `\`, `"` and control characters escaped.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            case "\0": out += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
