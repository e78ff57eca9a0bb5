import Foundation
import ObjectGraph

// The benchmark's model, written the way a user writes one: typed subclasses whose
// properties are declared with the property wrappers, and entity descriptions in code.
// Field types follow what the peers store (`amount` and `date` are REAL in SQLite).

/// A category of expenses: 20 of them, looked up by name in W3.
final class Category: ManagedObject {
    @Attribute var name: String?
    @Relationship var expenses: Set<Expense>
}

/// One expense: the dataset's row.
final class Expense: ManagedObject {
    @Attribute var id: UUID?
    @Attribute var title: String?
    @Attribute var amount: Double
    @Attribute var date: Date?
    @Attribute var note: String?
    @Relationship var category: Category?
}

/// An entity with a `Decimal` amount, used only by the micro-benchmarks to show what the
/// exact type costs against `Double`.
final class Tally: ManagedObject {
    @Attribute var amount: Decimal
    @Attribute var count: Int64
}

enum BenchModel {
    /// Category (name, unique) ⟷ Expense (id, title, amount, date, note?, category); a later
    /// version adds `extraExpenseAttributes` to Expense (default none).
    static func make(extraExpenseAttributes: [AttributeDescription] = []) throws
        -> ManagedObjectModel
    {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Category", managedObjectClass: Category.self,
                properties: [
                    AttributeDescription(name: "name", type: .string, isOptional: false),
                    RelationshipDescription(
                        name: "expenses", destination: "Expense",
                        inverse: "category", isToMany: true, deleteRule: .nullify),
                ], uniquenessConstraints: [["name"]]),
            EntityDescription(
                name: "Expense", managedObjectClass: Expense.self,
                properties: [
                    AttributeDescription(name: "id", type: .uuid, isOptional: false),
                    AttributeDescription(name: "title", type: .string, isOptional: false),
                    AttributeDescription(name: "amount", type: .double, isOptional: false),
                    AttributeDescription(name: "date", type: .date, isOptional: false),
                    AttributeDescription(name: "note", type: .string),
                    RelationshipDescription(
                        name: "category", destination: "Category",
                        inverse: "expenses", isOptional: false, deleteRule: .nullify),
                ] + extraExpenseAttributes),
            EntityDescription(
                name: "Tally", managedObjectClass: Tally.self,
                properties: [
                    AttributeDescription(name: "amount", type: .decimal, isOptional: false),
                    AttributeDescription(
                        name: "count", type: .integer64, isOptional: false, defaultValue: 0),
                ]),
        ])
    }
}
