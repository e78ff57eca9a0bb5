import Foundation
import ObjectGraph

/// A coordinator over one store of a kind, with a few categories and transactions saved, for
/// the query generation tests.
struct GenerationStack {
    let stack: Stack
    var coordinator: PersistentStoreCoordinator { stack.coordinator }

    init(_ kind: StoreKind) throws {
        stack = try Stack(try ExpenseModel.make(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            let food = Self.category("Food", in: context)
            let rent = Self.category("Rent", in: context)
            for (amount, note, category) in [
                (5, "bread", food), (7, "milk", food), (900, "may", rent),
            ] {
                let t = Transaction(context: context)
                t.id = UUID()
                t.amount = Decimal(amount)
                t.date = Date(timeIntervalSinceReferenceDate: 0)
                t.note = note
                t.category = category
            }
            try context.save()
        }
    }

    /// A new root context on the coordinator.
    func context() -> ManagedObjectContext { stack.context() }

    /// A new root context pinned to the current generation (by a first fetch).
    func pinnedContext() throws -> ManagedObjectContext {
        let pinned = context()
        try pinned.performAndWait { () throws in
            try pinned.setQueryGenerationFrom(.current)
            _ = try Self.names(pinned)
        }
        return pinned
    }

    /// Saves `change` from a fresh context (another writer).
    func save(_ change: @escaping (ManagedObjectContext) throws -> Void) throws {
        let other = context()
        try other.performAndWait {
            try change(other)
            try other.save()
        }
    }

    @discardableResult
    static func category(_ name: String, in context: ManagedObjectContext) -> Category {
        let c = Category(context: context)
        c.id = UUID()
        c.name = name
        return c
    }

    /// The category names `context` fetches, sorted.
    static func names(_ context: ManagedObjectContext) throws -> [String] {
        try context.fetch(Category.fetchRequest()).compactMap(\.name).sorted()
    }

    /// The transaction notes `context` fetches, sorted.
    static func notes(_ context: ManagedObjectContext) throws -> [String] {
        try context.fetch(Transaction.fetchRequest()).compactMap(\.note).sorted()
    }

    /// The first object of `entity` whose `key` is `value`, fetched in `context`.
    static func first<T: ManagedObject>(
        _ type: T.Type, _ key: String, _ value: String, in context: ManagedObjectContext
    ) throws -> T {
        let request = FetchRequest<T>(entityName: "\(type)")
        request.predicate = try FetchPredicate(format: "%K == %@", key, value)
        return try context.fetch(request)[0]
    }
}
