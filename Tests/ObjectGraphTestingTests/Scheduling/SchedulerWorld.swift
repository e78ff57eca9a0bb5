import Foundation
import ObjectGraph
import ObjectGraphTesting

/// The expenses fixture and helpers of the scheduler's tests.
enum SchedulerWorld {
    static var fixtures: FixtureProvider { ProjectFixtures.expenseProvider }

    /// The fixture's transactions total 1,409.50.
    static let fixtureTotal = Decimal(string: "1409.50")!

    /// Inserts a transaction of `amount` in `context` (on its queue).
    @discardableResult
    static func insertTransaction(_ amount: Decimal, in context: ManagedObjectContext)
        -> ManagedObject
    {
        let transaction = context.insertNewObject(forEntityName: "Transaction")
        transaction.setValue(UUID(), forKey: "id")
        transaction.setValue(amount, forKey: "amount")
        transaction.setValue(Date(timeIntervalSinceReferenceDate: 0), forKey: "date")
        return transaction
    }

    /// Deletes the object fixture reference `ref` names, in a new background context, and
    /// saves, without waiting.
    static func deleteInBackground(_ ref: String, from container: PersistentContainer) {
        let deleter = container.newBackgroundContext()
        deleter.perform {
            if let object = try? fixtures.references.object(ref, in: deleter) {
                deleter.delete(object)
            }
            try? deleter.save()
        }
    }

    /// The sum of every transaction `context` fetches (on its queue).
    static func total(in context: ManagedObjectContext) throws -> Decimal {
        try context.fetch(FetchRequest<ManagedObject>(entityName: "Transaction"))
            .reduce(Decimal(0)) { $0 + ($1.value(forKey: "amount") as? Decimal ?? 0) }
    }
}

/// A log that blocks on any lane may append to.
final class StepLog: @unchecked Sendable {
    // Sendable: `entries` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var entries: [String] = []

    func append(_ entry: String) { lock.withLock { entries.append(entry) } }
    var all: [String] { lock.withLock { entries } }
}

/// A failure an exploration's body throws.
struct ExplorationCheckFailed: Error, CustomStringConvertible {
    let description: String
}
