import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// One provider shared by every test of the suite, loaded once.
private let sharedFixtures = ProjectFixtures.expenseProvider

@Suite struct FixtureProviderTests {
    /// Changes the world of one container and checks it sees exactly its own changes.
    private static func mutateAndCheck(_ fixtures: FixtureProvider, worker: Int) throws {
        let container = fixtures.makeContainer(name: "worker-\(worker)")
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let food = try fixtures.references.object("food", in: context)
            food.setValue("Food \(worker)", forKey: "name")
            context.delete(try fixtures.references.object("coffee", in: context))
            let mine = context.insertNewObject(forEntityName: "Category")
            mine.setValue(UUID(), forKey: "id")
            mine.setValue("Mine \(worker)", forKey: "name")
            try context.save()
        }
        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let names = try fetchAll("Category", in: reader).compactMap {
                $0.value(forKey: "name") as? String
            }
            #expect(names == ["Food \(worker)", "Travel", "Rent", "Mine \(worker)"])
            #expect(try fetchAll("Transaction", in: reader).count == 4)
        }
    }

    @Test(arguments: 0..<8)
    func parallelTestsEachGetAnIsolatedWorld(worker: Int) throws {
        try Self.mutateAndCheck(sharedFixtures, worker: worker)
        // A container made afterwards still starts from the pristine fixture.
        try withContext(sharedFixtures.makeCoordinator()) { context in
            let names = try fetchAll("Category", in: context).compactMap {
                $0.value(forKey: "name") as? String
            }
            #expect(names == ["Food", "Travel", "Rent"])
        }
    }

    @Test func containersMutatedOnManyThreadsAtOnceStayApart() throws {
        let fixtures = try FixtureProvider(
            model: ProjectFixtures.model("ExpenseTracker"),
            fixtureFiles: [ProjectFixtures.fixtureURL("expenses")])
        let failures = UncheckedSendable(FailureBox())
        DispatchQueue.concurrentPerform(iterations: 16) { worker in
            do { try Self.mutateAndCheck(fixtures, worker: worker) } catch {
                failures.value.add("\(worker): \(error)")
            }
        }
        #expect(failures.value.messages.isEmpty)
        #expect(fixtures.snapshot.totalRowCount == 9, "the snapshot itself never changes")
    }

    @Test func everyContainerHasTheFixtureStoreIdentifierAndItsOwnClock() throws {
        let environment = DeterministicEnvironment(seed: 8, tick: 2)
        let fixtures = try FixtureProvider(
            model: ProjectFixtures.model("ExpenseTracker"),
            fixtureFiles: [ProjectFixtures.fixtureURL("expenses")], environment: environment)
        let a = fixtures.makeContainer()
        let b = fixtures.makeContainer()
        #expect(
            a.persistentStoreCoordinator.persistentStores.map(\.identifier) == [
                environment.storeIdentifier
            ])
        #expect(a.persistentStoreDescriptions.isEmpty)
        // Loading saved once (one reading); each container's clock continues from there.
        let next = environment.startDate.addingTimeInterval(2)
        #expect(a.persistentStoreCoordinator.clock() == next)
        #expect(a.persistentStoreCoordinator.clock() == next.addingTimeInterval(2))
        #expect(b.persistentStoreCoordinator.clock() == next)
        #expect(fixtures.references["food"]?.storeIdentifier == environment.storeIdentifier)
    }

    @Test func aProviderCanSnapshotAnythingMadeInCode() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let fixtures = try FixtureProvider(model: model) { coordinator in
            try withContext(coordinator) { context in
                let c = context.insertNewObject(forEntityName: "Category")
                c.setValue(UUID(), forKey: "id")
                c.setValue("Code", forKey: "name")
                try context.save()
            }
            return FixtureReferences()
        }
        #expect(fixtures.snapshot.totalRowCount == 1)
        #expect(fixtures.makeStore().snapshot().totalRowCount == 1)
    }

    @Test func anInvalidFixtureFailsTheProvider() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let e = objectGraphError {
            _ = try FixtureProvider(
                model: model, fixtureData: Data(#"{"X": []}"#.utf8), file: "x.json")
        }
        #expect(e?.message == "fixture x.json at X: the model has no entity X")
    }
}

/// Collects failure messages from several threads.
final class FailureBox: @unchecked Sendable {
    // Sendable: `messages` is guarded by `lock`.
    private let lock = NSLock()
    private var stored: [String] = []
    func add(_ message: String) { lock.withLock { stored.append(message) } }
    var messages: [String] { lock.withLock { stored } }
}
