import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct DeterminismTests {
    @Test func theRandomGeneratorIsSplitMix64() {
        var random = SeededRandomNumberGenerator(seed: 0)
        #expect(random.next() == 0xe220_a839_7b1d_cdaf)
        #expect(random.next() == 0x6e78_9e6a_a1b9_65f4)
    }

    @Test func namedStreamsAreIndependentAndRepeatable() {
        var a = SeededRandomNumberGenerator(seed: 9, stream: "a")
        var a2 = SeededRandomNumberGenerator(seed: 9, stream: "a")
        var b = SeededRandomNumberGenerator(seed: 9, stream: "b")
        let first = (0..<4).map { _ in a.next() }
        #expect(first == (0..<4).map { _ in a2.next() })
        #expect(first != (0..<4).map { _ in b.next() })
    }

    @Test func boundedDrawsStayInRange() {
        var random = SeededRandomNumberGenerator(seed: 1)
        for _ in 0..<2000 {
            #expect((-3...3).contains(random.int(in: -3...3)))
        }
        _ = random.int64(in: Int64.min...Int64.max)
        #expect(random.int(in: 5...5) == 5)
        let u = random.uniform()
        #expect(u >= 0 && u < 1)
    }

    @Test func theClockTicksFromItsStart() {
        let clock = DeterministicClock(start: Date(timeIntervalSince1970: 100), tick: 0.5)
        #expect(clock.now() == Date(timeIntervalSince1970: 100))
        #expect(clock.reading() == Date(timeIntervalSince1970: 100.5))
        #expect(clock.readingCount == 2)
        let frozen = DeterministicClock(start: Date(timeIntervalSince1970: 7), tick: 0)
        #expect(frozen.now() == frozen.now())
    }

    @Test func uuidsRepeatForTheSameSeedOnly() {
        let a = SeededUUIDGenerator(seed: 5)
        let b = SeededUUIDGenerator(seed: 5)
        let c = SeededUUIDGenerator(seed: 6)
        let first = (0..<3).map { _ in a.next() }
        #expect(first == (0..<3).map { _ in b.next() })
        #expect(first != (0..<3).map { _ in c.next() })
        #expect(Set(first).count == 3)
        #expect(first.allSatisfy { $0.uuidString.dropFirst(14).first == "4" }, "version 4")
    }

    @Test func theEnvironmentFixesTheStoreIdentifier() throws {
        let environment = DeterministicEnvironment(seed: 42)
        #expect(environment.storeIdentifier == DeterministicEnvironment(seed: 42).storeIdentifier)
        #expect(environment.storeIdentifier != DeterministicEnvironment(seed: 43).storeIdentifier)
        #expect(UUID(uuidString: environment.storeIdentifier) != nil)
        let model = try ProjectFixtures.model("ExpenseTracker")
        let container = try environment.makeContainer(name: "T", model: model)
        #expect(
            container.persistentStoreCoordinator.persistentStores.first?.identifier
                == environment.storeIdentifier)
        #expect(
            container.persistentStoreCoordinator.clock()
                == DeterministicEnvironment.defaultStartDate)
        let coordinator = try environment.makeCoordinator(model: model)
        #expect(coordinator.persistentStores.first?.identifier == environment.storeIdentifier)
        let options = environment.storeOptions(clock: environment.makeClock())
        #expect(options.storeIdentifier == environment.storeIdentifier)
        #expect(options.clock() == DeterministicEnvironment.defaultStartDate)
    }

    @Test func twoLoadsOfTheSameFixtureGiveIdenticalRows() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let url = ProjectFixtures.fixtureURL("expenses")
        let first = try FixtureProvider(
            model: model, fixtureFiles: [url], environment: DeterministicEnvironment(seed: 1))
        let second = try FixtureProvider(
            model: model, fixtureFiles: [url], environment: DeterministicEnvironment(seed: 1))
        for entity in model.entities {
            #expect(first.snapshot.rows(of: entity) == second.snapshot.rows(of: entity))
        }
        #expect(first.snapshot.totalRowCount == 9)
        let writer = FixtureWriter()
        #expect(
            try writer.fixtureData(from: first.makeCoordinator())
                == writer.fixtureData(from: second.makeCoordinator()))
    }

    @Test func fetchesWithoutSortDescriptorsGoEntityByEntityInPrimaryKeyOrder() throws {
        let model = try ProjectFixtures.model("Library")
        let json = #"""
            {"Shelf": [{"_ref": "s", "name": "A", "position": 1}],
             "Film": [{"title": "F1", "code": "FLM-0001", "addedOn": "2020-01-01", "shelf": "s", "minutes": 90},
                      {"title": "F2", "code": "FLM-0002", "addedOn": "2020-01-01", "shelf": "s", "minutes": 95}],
             "Author": [{"_ref": "a", "name": "Ann", "email": "ann@example.com"}],
             "Book": [{"title": "B1", "code": "BOK-0001", "addedOn": "2020-01-01", "shelf": "s", "isbn": "978-0000000001",
                       "pages": 10, "authors": ["a"]}]}
            """#
        let fixtures = try FixtureProvider(model: model, fixtureData: Data(json.utf8))
        let titles = try withContext(fixtures.makeCoordinator()) { context in
            try fetchAll("Item", in: context).map {
                "\($0.entity.name):\($0.objectID.primaryKey):\($0.value(forKey: "title") as? String ?? "")"
            }
        }
        // Model order puts Book before Film, so books are inserted (and numbered) first.
        #expect(titles == ["Book:1:B1", "Film:2:F1", "Film:3:F2"])
    }
}
