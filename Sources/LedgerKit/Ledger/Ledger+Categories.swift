import Foundation
import ObjectGraph

/// What to do with a category's transactions when the category is deleted.
public enum CategoryDeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Keep the transactions, uncategorised (the model's own delete rule).
    case nullify
    /// Delete the transactions too (and their receipts, once saved).
    case cascade
    /// Refuse while the category has transactions.
    case deny
}

/// What deleting a category did.
public struct CategoryDeletion: Sendable, Hashable {
    /// The deleted category's name.
    public var name: String
    /// The rule applied.
    public var rule: CategoryDeleteRule
    /// How many transactions were left uncategorised (nullify) or deleted (cascade).
    public var transactions: Int
}

extension Ledger {
    /// Every category with its totals, by name (ignoring case).
    ///
    /// - Throws: store errors.
    /// - Complexity: O(categories + transactions).
    public func categories() throws -> [CategoryRecord] {
        try read { context in
            try Self.allCategories(in: context).map(CategoryRecord.init)
                .sorted { ($0.name.lowercased(), $0.name) < ($1.name.lowercased(), $1.name) }
        }
    }

    /// Adds a category.
    ///
    /// - Parameters:
    ///   - name: 1–50 characters (surrounding spaces are trimmed); no other category may
    ///     have it, ignoring case.
    ///   - colorHex: `#RRGGBB`; `nil` for the model's default `#FFFFFF`.
    /// - Throws: ``LedgerError`` `.duplicateCategory` when the name is taken (ignoring case);
    ///   the model's validation errors as `ObjectGraphError`s (1660/1670 name length, 1680
    ///   colour pattern).
    public func addCategory(name: String, colorHex: String? = nil) throws -> CategoryRecord {
        let name = name.trimmingCharacters(in: .whitespaces)
        return try change("category add") { draft in
            if let existing = try Self.category(matching: name, in: draft) {
                throw LedgerErrors.duplicateCategory(name, existing: existing.name ?? name)
            }
            let category = Category(context: draft)
            category.id = configuration.newID()
            category.name = name
            if let colorHex { category.colorHex = colorHex }
            return CategoryRecord(category)
        }
    }

    /// Renames the category `old` (matched as ``category(named:)`` does) to `new`.
    ///
    /// - Throws: ``LedgerError`` — `.unknownCategory`, `.duplicateCategory` when another
    ///   category has the new name (ignoring case); the model's validation errors as
    ///   `ObjectGraphError`s for a bad name.
    public func renameCategory(_ old: String, to new: String) throws -> CategoryRecord {
        let new = new.trimmingCharacters(in: .whitespaces)
        return try change("category rename") { draft in
            let category = try Self.requireCategory(old, in: draft)
            if let other = try Self.category(matching: new, in: draft), other !== category {
                throw LedgerErrors.duplicateCategory(new, existing: other.name ?? new)
            }
            category.name = new
            return CategoryRecord(category)
        }
    }

    /// Deletes the category `name`, applying `rule` to its transactions.
    ///
    /// - Throws: ``LedgerError`` — `.unknownCategory`; `.categoryInUse` under `.deny` while it
    ///   has transactions (nothing is deleted).
    public func deleteCategory(_ name: String, rule: CategoryDeleteRule = .nullify) throws
        -> CategoryDeletion
    {
        try change("category delete") { draft in
            let category = try Self.requireCategory(name, in: draft)
            let members = category.transactions
            let actualName = category.name ?? name
            switch rule {
            case .deny where !members.isEmpty:
                throw LedgerErrors.deleteDenied(actualName, transactions: members.count)
            case .cascade:
                for transaction in members { draft.delete(transaction) }
            case .deny, .nullify:
                break
            }
            draft.delete(category)
            return CategoryDeletion(name: actualName, rule: rule, transactions: members.count)
        }
    }

    /// The category whose name is `name`: an exact match, else the one match ignoring case.
    ///
    /// - Throws: store errors.
    public func category(named name: String) throws -> CategoryRecord? {
        try read { try Self.category(matching: name, in: $0).map(CategoryRecord.init) }
    }

    // MARK: Lookups (on the given context's queue)

    static func allCategories(in context: ManagedObjectContext) throws -> [Category] {
        try context.fetch(FetchRequest<Category>(entityName: "Category"))
    }

    /// An exact name match, else the single case-insensitive one, else `nil`.
    static func category(matching name: String, in context: ManagedObjectContext) throws
        -> Category?
    {
        let all = try allCategories(in: context)
        if let exact = all.first(where: { $0.name == name }) { return exact }
        let folded = all.filter { $0.name?.lowercased() == name.lowercased() }
        return folded.count == 1 ? folded[0] : nil
    }

    static func requireCategory(_ name: String, in context: ManagedObjectContext) throws -> Category
    {
        guard let category = try category(matching: name, in: context) else {
            throw LedgerErrors.unknownCategory(name)
        }
        return category
    }
}
