import Foundation
import ObjectGraph
import Testing

/// `context.changes(for:)`: Sendable snapshots of the results, the first at once, then one per
/// event that changes them.
@Suite struct ChangeStreamTests {
    @Test(arguments: StoreKind.all)
    func theStreamYieldsTheResultsThenOneElementPerChangingEvent(_ kind: StoreKind) async throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            StaffFixture.employee(context, "Bob", team: "Eng")
            try context.save()
        }
        let request = try StaffFixture.request("team", "name")
        var iterator = context.changes(for: request, sectionNameKeyPath: "team").makeAsyncIterator()
        let first = try #require(try await iterator.next())
        let bob = try context.performAndWait { try context.fetch(request)[0].objectID }
        #expect(first.objectIDs == [bob])
        #expect(first.snapshot.sectionIdentifiers == ["Eng"])
        #expect(first.difference.insertions.count == 1)

        let alice = try await context.perform {
            let alice = StaffFixture.employee(context, "Alice", team: "Eng")
            let carol = StaffFixture.employee(context, "Carol", team: "Sales")
            try context.obtainPermanentIDs(for: [alice, carol])
            return alice.objectID
        }
        let second = try #require(try await iterator.next())
        #expect(second.snapshot.sectionIdentifiers == ["Eng", "Sales"])
        #expect(second.objectIDs.prefix(2) == [alice, bob])
        #expect(first.objectIDs.applying(second.difference) == second.objectIDs)

        try await context.perform {
            StaffFixture.employee(context, "Nobody", team: nil).salary = 1
            let all = try context.fetch(StaffFixture.request("name"))
            context.delete(all.first { $0.name == "Nobody" }!)
        }  // an event that leaves the results alone yields nothing
        try await context.perform {
            try context.fetch(StaffFixture.request("name")).first { $0.name == "Bob" }!.salary = 9
        }
        let third = try #require(try await iterator.next())
        #expect(third.snapshot.reloadedItemIdentifiers == [bob])
        #expect(third.difference.isEmpty)
        #expect(third.objectIDs == second.objectIDs)
    }

    @Test func aRefusedRequestFinishesTheStreamWithTheError() async throws {
        let context = try StaffFixture.context(.inMemory)
        let stream = context.changes(for: FetchRequest<Employee>(entityName: "Employee"))
        await #expect(throws: ObjectGraphError.self) {
            for try await _ in stream {}
        }
    }

    @Test func cancellingTheConsumerStopsFollowingAndReleasesTheController() async throws {
        let context = try StaffFixture.context(.inMemory)
        weak var weakRequest: FetchRequest<Employee>?
        let received = Counter()
        let task: Task<Void, any Error>
        do {
            let request = UncheckedSendable(try StaffFixture.request("name"))
            weakRequest = request.value
            task = Task {
                for try await _ in context.changes(for: request.value) { received.add() }
            }
        }
        while received.value == 0 { await Task.yield() }
        task.cancel()
        _ = await task.result
        try await context.perform {}  // the stop queued by the cancellation has run
        try await context.perform { _ = StaffFixture.employee(context, "late", team: nil) }
        #expect(received.value == 1)
        // The follower let go of its controller, and with it the request and the observers.
        #expect(weakRequest == nil)
    }
}
