import Foundation

/// Shortcuts for comparing an attribute with a constant, decided when a test is built:
/// the shapes that dominate real fetches (`amount > 500`, `name == 'Food'`,
/// `date >= %@`). Each gives exactly the answer of the general path.
enum PredicateFastTest {
    /// No shortcut: use the general comparison.
    case none
    /// `== != < <= > >=` against a number.
    case number(PredicateFastNumber)
    /// `== != < <= > >=` against a date, as seconds since the reference date.
    case date(Double)
    /// `==` or `!=` against a string, without folding.
    case string(String)

    init(_ op: FetchPredicate.Operator, _ folding: StringFolding, _ operand: PredicateOperand) {
        switch (op, operand) {
        case (.equalTo, .number(let n)), (.notEqualTo, .number(let n)), (.lessThan, .number(let n)),
            (.lessThanOrEqualTo, .number(let n)), (.greaterThan, .number(let n)),
            (.greaterThanOrEqualTo, .number(let n)):
            self = .number(PredicateFastNumber(n))
        case (.equalTo, .date(let t)), (.notEqualTo, .date(let t)), (.lessThan, .date(let t)),
            (.lessThanOrEqualTo, .date(let t)), (.greaterThan, .date(let t)),
            (.greaterThanOrEqualTo, .date(let t)):
            self = .date(t)
        case (.equalTo, .string(let s)) where folding.isIdentity,
            (.notEqualTo, .string(let s)) where folding.isIdentity:
            self = .string(s)
        default:
            self = .none
        }
    }
}

/// A numeric constant in every form the fast comparison needs.
struct PredicateFastNumber {
    let number: PredicateNumber
    let integer: Int64?
    /// The constant's decimal parts, when decimals can be read directly.
    let parts: DecimalParts?
    /// The nearest double, for comparing with doubles.
    let double: Double
    /// The integer constant as a double, when the double holds it exactly (then comparing
    /// a double with it orders exactly as comparing with the integer).
    let exactDouble: Double?

    init(_ number: PredicateNumber) {
        self.number = number
        self.double = number.doubleValue
        switch number {
        case .integer(let i):
            integer = i
            exactDouble = i.magnitude <= 1 << 53 ? Double(i) : nil
            parts = DecimalParts.isReadable ? DecimalParts(i) : nil
        case .decimal(let d):
            integer = nil
            exactDouble = nil
            parts = DecimalParts(d)
        case .double:
            integer = nil
            exactDouble = nil
            parts = nil
        }
    }

    /// How `value` orders against the constant (`.unordered` for nil and non-numbers).
    @inline(__always)
    func order(of value: AttributeValue) -> PredicateOrder {
        switch value {
        case .integer(let i): return order(integer: i)
        case .decimal(let d):
            if let constant = parts, let p = DecimalParts.readKnownLayout(d) {
                return DecimalParts.compare(p, constant)
            }
            return PredicateNumber.compare(.decimal(d), number)
        case .double(let x): return order(double: x)
        case .float(let f): return order(double: Double(f))
        case .boolean(let b): return order(integer: b ? 1 : 0)
        default: return .unordered
        }
    }

    private func order(integer i: Int64) -> PredicateOrder {
        if let c = integer { return PredicateNumber.order(i, c) }
        if let c = parts { return DecimalParts.compare(DecimalParts(i), c) }
        return PredicateNumber.compare(.integer(i), number)
    }

    private func order(double x: Double) -> PredicateOrder {
        if let c = exactDouble { return PredicateNumber.order(x, c) }
        if let c = integer { return PredicateNumber.compare(c, x).reversed }
        return PredicateNumber.order(x, double)
    }
}
