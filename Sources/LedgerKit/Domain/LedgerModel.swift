import Foundation
import ObjectGraph

/// A spending category: the Expense Tracker's `Category` entity.
public final class Category: ManagedObject {
    /// A stable identifier.
    @Attribute public var id: UUID?
    /// The name, 1–50 characters, unique in the ledger.
    @Attribute public var name: String?
    /// A `#RRGGBB` colour; default `#FFFFFF`.
    @Attribute public var colorHex: String?
    /// The transactions in this category.
    @Relationship public var transactions: Set<Transaction>
    /// The categorisation rules that give this category (model version 2).
    @Relationship public var rules: Set<CategorizationRule>
    /// The category's monthly budget, if any (model version 2).
    @Relationship public var budget: Budget?

    /// None: the model's rules say everything, so a save skips the per-key hook.
    public override class var validatedKeys: Set<String>? { [] }
}

/// Money in or out: the Expense Tracker's `Transaction` entity.
public final class Transaction: ManagedObject {
    /// A stable identifier.
    @Attribute public var id: UUID?
    /// The amount, always positive (at least 0.01); ``kind`` says which way it went.
    @Attribute public var amount: Decimal
    /// `"expense"` or `"income"`.
    @Attribute public var kind: String?
    /// The calendar date, at 00:00 UTC.
    @Attribute public var date: Date?
    /// A free-form note.
    @Attribute public var note: String?
    /// Who was paid, or who paid.
    @Attribute public var payee: String?
    /// Whether the transaction is reconciled with the bank. Default `false`.
    @Attribute public var isCleared: Bool
    /// The receipt file's path, beside the ledger file.
    @Attribute public var receiptPath: String?
    /// A hash identifying the CSV row this came from, so imports are idempotent.
    @Attribute public var importKey: String?
    /// The category, if any.
    @Relationship public var category: Category?

    /// None: the model's rules say everything, so a save skips the per-key hook.
    public override class var validatedKeys: Set<String>? { [] }

    /// Whether money came in.
    public var isIncome: Bool { kind == TransactionKind.income.rawValue }

    /// The receipt file: ``receiptPath`` when absolute, else relative to the directory of
    /// the ledger file (the store's URL); `nil` without a receipt.
    public var receiptURL: URL? {
        guard let receiptPath else { return nil }
        if receiptPath.hasPrefix("/") { return URL(fileURLWithPath: receiptPath) }
        let base =
            managedObjectContext?.persistentStoreCoordinator?.persistentStores.first?.url?
            .deletingLastPathComponent()
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return base.appendingPathComponent(receiptPath)
    }

    /// Removes the receipt file once the deletion is saved to the store, not before: a
    /// failed save or a discarded scratchpad keeps it. A child context's save only hands the
    /// deletion to its parent, so only a root context's save (no parent) removes the file.
    public override func didSave() {
        super.didSave()
        guard isDeleted, managedObjectContext?.parent == nil, let receiptURL else { return }
        try? FileManager.default.removeItem(at: receiptURL)
    }
}

/// Which way money went.
public enum TransactionKind: String, Sendable, CaseIterable {
    /// Money out.
    case expense
    /// Money in.
    case income
}

/// The ledger's model: the Expense Tracker (Fixtures/ExpenseTracker.xcdatamodeld), with the
/// ledger's additions (kind, payee, importKey) and, from version 2, categorisation rules
/// and budgets.
///
/// Version 2 adds `CategorizationRule` (a pattern matched against a transaction's payee,
/// note or either, as text or as a regular expression, in `order`, giving a category) and
/// `Budget` (a category's monthly amount, one per category). A version-1 file opens by
/// migrating it (lightweight: two entities and two relationships added, nothing else).
public enum LedgerModel {
    /// Builds the current model (version 2).
    ///
    /// - Throws: never in practice; the model is a constant checked by tests.
    public static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: [
                category(version: 2), transaction(),
                EntityDescription(
                    name: "CategorizationRule", managedObjectClass: CategorizationRule.self,
                    properties: [
                        AttributeDescription(
                            name: "pattern", type: .string, isOptional: false, minLength: 1,
                            maxLength: 200),
                        AttributeDescription(
                            name: "field", type: .string, isOptional: false, defaultValue: "any",
                            pattern: "^(payee|note|any)$"),
                        AttributeDescription(
                            name: "isRegex", type: .boolean, isOptional: false, defaultValue: false),
                        AttributeDescription(
                            name: "order", type: .integer32, isOptional: false, defaultValue: 0,
                            minValue: 0),
                        RelationshipDescription(
                            name: "category", destination: "Category", inverse: "rules",
                            isOptional: false, deleteRule: .nullify),
                    ]),
                EntityDescription(
                    name: "Budget", managedObjectClass: Budget.self,
                    properties: [
                        AttributeDescription(
                            name: "monthlyAmount", type: .decimal, isOptional: false,
                            minValue: 0.01),
                        RelationshipDescription(
                            name: "category", destination: "Category", inverse: "budget",
                            isOptional: false, deleteRule: .nullify),
                    ]),
            ], versionIdentifiers: ["ledger 2"])
    }

    /// Builds version 1 (categories and transactions), the model of files written before
    /// version 2.
    ///
    /// - Throws: never in practice.
    public static func makeVersion1() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: [category(version: 1), transaction()], versionIdentifiers: ["ledger 1"])
    }

    /// The earlier versions a ledger file may have, oldest first (for
    /// `StoreOptions.modelVersions`).
    ///
    /// - Throws: never in practice.
    public static func earlierVersions() throws -> [ManagedObjectModel] { [try makeVersion1()] }

    private static func category(version: Int) -> EntityDescription {
        var properties: [PropertyDescription] = [
            AttributeDescription(name: "id", type: .uuid, isOptional: false),
            AttributeDescription(
                name: "name", type: .string, isOptional: false, minLength: 1, maxLength: 50),
            AttributeDescription(
                name: "colorHex", type: .string, isOptional: false,
                defaultValue: "#FFFFFF", pattern: "^#[0-9A-Fa-f]{6}$"),
            RelationshipDescription(
                name: "transactions", destination: "Transaction",
                inverse: "category", isToMany: true, deleteRule: .nullify),
        ]
        if version >= 2 {
            properties += [
                RelationshipDescription(
                    name: "rules", destination: "CategorizationRule", inverse: "category",
                    isToMany: true, deleteRule: .cascade),
                RelationshipDescription(
                    name: "budget", destination: "Budget", inverse: "category",
                    deleteRule: .cascade),
            ]
        }
        return EntityDescription(
            name: "Category", managedObjectClass: Category.self, properties: properties,
            uniquenessConstraints: [["name"]])
    }

    private static func transaction() -> EntityDescription {
        EntityDescription(
            name: "Transaction", managedObjectClass: Transaction.self,
            properties: [
                // What `ledger watch` shows of a deleted transaction stays in its tombstone.
                AttributeDescription(
                    name: "id", type: .uuid, isOptional: false,
                    preservesValueInHistoryOnDeletion: true),
                AttributeDescription(
                    name: "amount", type: .decimal, isOptional: false, minValue: 0.01,
                    preservesValueInHistoryOnDeletion: true),
                AttributeDescription(
                    name: "kind", type: .string, isOptional: false, defaultValue: "expense",
                    pattern: "^(expense|income)$", preservesValueInHistoryOnDeletion: true),
                AttributeDescription(
                    name: "date", type: .date, isOptional: false,
                    preservesValueInHistoryOnDeletion: true),
                AttributeDescription(
                    name: "note", type: .string, preservesValueInHistoryOnDeletion: true),
                AttributeDescription(
                    name: "payee", type: .string, preservesValueInHistoryOnDeletion: true),
                AttributeDescription(name: "isCleared", type: .boolean, defaultValue: false),
                AttributeDescription(name: "receiptPath", type: .string),
                AttributeDescription(name: "importKey", type: .string),
                RelationshipDescription(
                    name: "category", destination: "Category",
                    inverse: "transactions", deleteRule: .nullify),
            ], uniquenessConstraints: [["importKey"]])
    }
}
