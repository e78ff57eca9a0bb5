import Foundation
import ObjectGraph
import Observation
import Testing

/// The Observation-framework results: current objects and sections, one change per event.
@Suite struct ObservableFetchResultsTests {
    /// Counts the changes `withObservationTracking` reports for `read`, re-registering after
    /// each, while `events` run.
    final class Watch: @unchecked Sendable {
        // Sendable: used on the context's queue only (onChange runs where the change is made).
        let counter = Counter()
        func track(_ read: @escaping () -> Void) {
            withObservationTracking(read) { [counter] in counter.add() }
        }
    }

    @Test(arguments: StoreKind.all)
    func anObserverSeesExactlyOneChangePerEventThatChangesTheResults(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            StaffFixture.employee(context, "Alice", team: "Eng", salary: 10)
            try context.save()
            let results = try ObservableFetchResults(
                fetchRequest: try StaffFixture.request("team", "name", predicate: "salary > 5"),
                managedObjectContext: context, sectionNameKeyPath: "team")
            #expect(results.objects.map(\.name) == ["Alice"])
            let watch = Watch()
            watch.track {
                _ = results.objects
                _ = results.sections
            }
            // Three changes, one event.
            StaffFixture.employee(context, "Bob", team: "Eng", salary: 20)
            StaffFixture.employee(context, "Carol", team: "Sales", salary: 30)
            results.objects[0].salary = 11
            context.processPendingChanges()
            #expect(watch.counter.value == 1)
            #expect(results.objects.map(\.name) == ["Alice", "Bob", "Carol"])
            #expect(results.sections.map(\.name) == ["Eng", "Sales"])
            // An event that leaves the results alone is no change.
            watch.track { _ = results.objects }
            StaffFixture.employee(context, "Dan", team: "Eng", salary: 1)
            context.processPendingChanges()
            #expect(watch.counter.value == 1)
            // A delete is one more.
            context.delete(results.objects[0])
            context.processPendingChanges()
            #expect(watch.counter.value == 2)
            #expect(results.objects.map(\.name) == ["Bob", "Carol"])
        }
    }

    @Test(arguments: StoreKind.all)
    func afterResetTheResultsAreFetchedAgainAndObserversTold(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            StaffFixture.employee(context, "Alice", team: nil)
            try context.save()
            let results = try ObservableFetchResults(
                fetchRequest: try StaffFixture.request("name"), managedObjectContext: context)
            StaffFixture.employee(context, "Unsaved", team: nil)
            context.processPendingChanges()
            #expect(results.objects.count == 2)
            let watch = Watch()
            watch.track { _ = results.objects }
            context.reset()
            #expect(watch.counter.value == 1)
            #expect(results.objects.map(\.name) == ["Alice"])
            #expect(results.objects[0].managedObjectContext === context)
            #expect(results.fetchError == nil)
        }
    }

    @Test func changingTheRequestAndFetchingAgainPublishesTheNewResults() throws {
        let context = try StaffFixture.context(.inMemory)
        try context.performAndWait {
            for (name, salary) in [("a", 1), ("b", 2), ("c", 3)] {
                StaffFixture.employee(context, name, team: nil, salary: Int32(salary))
            }
            let results = try ObservableFetchResults(
                fetchRequest: try StaffFixture.request("name"), managedObjectContext: context)
            let watch = Watch()
            watch.track { _ = results.objects }
            results.fetchRequest.sortDescriptors = [
                FetchSortDescriptor(key: "salary", ascending: false)
            ]
            try results.performFetch()
            #expect(watch.counter.value == 1)
            #expect(results.objects.map(\.name) == ["c", "b", "a"])
        }
    }

    @Test func aMainQueueContextPublishesAtTheEndOfTheTurn() async throws {
        let model = try StaffFixture.model()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(InMemoryStore(model: model))
        let view = ManagedObjectContext(concurrencyType: .mainQueue, coordinator: coordinator)
        let results = try await MainActor.run {
            UncheckedSendable(
                try ObservableFetchResults(
                    fetchRequest: try StaffFixture.request("name"), managedObjectContext: view))
        }
        let watch = Watch()
        await MainActor.run {
            watch.track { _ = results.value.objects }
            StaffFixture.employee(view, "a", team: nil)
            StaffFixture.employee(view, "b", team: nil)
            #expect(watch.counter.value == 0)  // not before the turn ends
        }
        await MainActor.run {
            #expect(watch.counter.value == 1)
            #expect(results.value.objects.map(\.name) == ["a", "b"])
        }
    }
}
