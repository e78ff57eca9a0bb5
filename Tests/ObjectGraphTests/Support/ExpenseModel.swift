import Foundation
import ObjectGraph

final class Category: ManagedObject {
    @Attribute var id: UUID?
    @Attribute var name: String?
    @Attribute var colorHex: String?
    @Relationship var transactions: Set<Transaction>
}

final class Transaction: ManagedObject {
    @Attribute var id: UUID?
    @Attribute var amount: Decimal
    @Attribute var date: Date?
    @Attribute var note: String?
    @Attribute var isCleared: Bool
    @Relationship var category: Category?
    // Records lifecycle calls so tests can assert them.
    nonisolated(unsafe) static var didSaveDeleted: [String] = []
    override func didSave() {
        super.didSave()
        if isDeleted, let note { Transaction.didSaveDeleted.append(note) }
    }
}

/// The Expense Tracker model (as Fixtures/ExpenseTracker.xcdatamodeld), built fresh for each
/// test.
enum ExpenseModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Category", managedObjectClass: Category.self,
                properties: [
                    AttributeDescription(name: "id", type: .uuid, isOptional: false),
                    AttributeDescription(
                        name: "name", type: .string, isOptional: false, minLength: 1, maxLength: 50),
                    AttributeDescription(
                        name: "colorHex", type: .string, isOptional: false,
                        defaultValue: "#FFFFFF", pattern: "^#[0-9A-Fa-f]{6}$"),
                    RelationshipDescription(
                        name: "transactions", destination: "Transaction",
                        inverse: "category", isToMany: true, deleteRule: .nullify),
                ], uniquenessConstraints: [["name"]]),
            EntityDescription(
                name: "Transaction", managedObjectClass: Transaction.self,
                properties: [
                    AttributeDescription(name: "id", type: .uuid, isOptional: false),
                    AttributeDescription(
                        name: "amount", type: .decimal, isOptional: false, minValue: 0.01),
                    AttributeDescription(name: "date", type: .date, isOptional: false),
                    AttributeDescription(name: "note", type: .string),
                    AttributeDescription(name: "isCleared", type: .boolean, defaultValue: false),
                    RelationshipDescription(
                        name: "category", destination: "Category",
                        inverse: "transactions", deleteRule: .nullify),
                ]),
        ])
    }

    /// A coordinator with one RAM store.
    static func coordinator() throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try make())
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return coordinator
    }

    /// A coordinator with one store of `kind` (a fresh file for the file store).
    static func coordinator(_ kind: StoreKind) throws -> PersistentStoreCoordinator {
        let model = try make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return coordinator
    }
}
