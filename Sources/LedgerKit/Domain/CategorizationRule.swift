import Foundation
import ObjectGraph

/// A rule that gives imported transactions a category (ledger model version 2).
public final class CategorizationRule: ManagedObject {
    /// The text (or regular expression, with ``isRegex``) to look for, 1–200 characters.
    @Attribute public var pattern: String?
    /// Where to look: `"payee"`, `"note"` or `"any"` (default).
    @Attribute public var field: String?
    /// Whether ``pattern`` is a regular expression. Default `false`.
    @Attribute public var isRegex: Bool
    /// The rule's place among the rules: the first match, by ascending order, wins.
    @Attribute public var order: Int32
    /// The category the rule gives.
    @Relationship public var category: Category?

    /// None: the model's rules say everything, so a save skips the per-key hook.
    public override class var validatedKeys: Set<String>? { [] }
}

/// A category's monthly budget (ledger model version 2).
public final class Budget: ManagedObject {
    /// The amount budgeted per month, at least 0.01.
    @Attribute public var monthlyAmount: Decimal
    /// The budgeted category (one budget per category).
    @Relationship public var category: Category?

    /// None: the model's rules say everything, so a save skips the per-key hook.
    public override class var validatedKeys: Set<String>? { [] }
}
