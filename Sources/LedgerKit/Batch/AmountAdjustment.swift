import Foundation
import ObjectGraph

/// How `ledger adjust` changes the amounts it selects: a factor or a fixed amount, the
/// result rounded to cents with halves away from zero.
///
/// ```swift
/// AmountAdjustment.multiply(1.2).expression.description   // "round(amount * 1.2, 2)"
/// AmountAdjustment.add(-5).expression.description         // "round(amount + -5, 2)"
/// ```
public enum AmountAdjustment: Sendable, Hashable {
    /// Multiplies each amount by a factor above 0 (`1.2` adds 20%).
    case multiply(Decimal)
    /// Adds an amount to each (a negative one subtracts).
    case add(Decimal)

    /// The batch update's expression for `amount`: `round(amount * F, 2)` or
    /// `round(amount + A, 2)` (see the predicate language's `round(x, scale)`).
    public var expression: FetchExpression {
        let amount = FetchExpression.keyPath("amount")
        let changed: FetchExpression =
            switch self {
            case .multiply(let factor): .function(.multiply, [amount, .constant(.decimal(factor))])
            case .add(let delta): .function(.add, [amount, .constant(.decimal(delta))])
            }
        return .function(.round, [changed, .constant(.integer(2))])
    }

    /// `× 1.2` or `+ 5.00` / `- 5.00`, for messages.
    public var summary: String {
        switch self {
        case .multiply(let factor): "× \(factor)"
        case .add(let delta): delta < 0 ? "- \(Money.format(-delta))" : "+ \(Money.format(delta))"
        }
    }
}

/// One amount `ledger adjust` changes (or would change).
public struct AmountChange: Sendable, Hashable {
    /// The transaction's stable identifier.
    public var id: UUID
    /// The amount before.
    public var before: Decimal
    /// The amount after.
    public var after: Decimal

    /// `{id, before, after}` with amounts as `"12.50"`.
    public var jsonObject: [String: Any] {
        [
            "id": id.uuidString.lowercased(), "before": Money.format(before),
            "after": Money.format(after),
        ]
    }
}

/// What `ledger adjust` changed (or, with `--dry-run`, would change).
public struct LedgerAdjustment: Sendable {
    /// Each selected transaction's amount before and after, in the store's order.
    public var changes: [AmountChange]
    /// Whether nothing was written (`--dry-run`).
    public var isDryRun: Bool

    /// How many transactions the adjustment selects.
    public var count: Int { changes.count }
    /// The selected amounts' total before.
    public var totalBefore: Decimal { changes.reduce(0) { $0 + $1.before } }
    /// The selected amounts' total after.
    public var totalAfter: Decimal { changes.reduce(0) { $0 + $1.after } }

    /// The object `adjust --json` prints: `{dryRun, count, totalBefore, totalAfter,
    /// changes: [{id, before, after}]}`.
    public var jsonObject: [String: Any] {
        [
            "dryRun": isDryRun, "count": count, "totalBefore": Money.format(totalBefore),
            "totalAfter": Money.format(totalAfter), "changes": changes.map(\.jsonObject),
        ]
    }
}
