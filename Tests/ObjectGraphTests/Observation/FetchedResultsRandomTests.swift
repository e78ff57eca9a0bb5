import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// Many changes per event, chosen by a seeded generator: after every event the controller's
/// results and sections equal a fresh fetch of the same request, and replaying its delegate
/// calls as a table view would gives the same sections.
@Suite struct FetchedResultsRandomTests {
    static let teams: [String?] = [nil, "Design", "Eng", "Ops", "Sales", "Support"]

    struct Config: Sendable, CustomTestStringConvertible {
        let kind: StoreKind
        let sections: String?
        let predicate: String?
        var testDescription: String {
            "\(kind.name) sections=\(sections ?? "-") predicate=\(predicate ?? "-")"
        }
    }

    static let configs: [Config] = StoreKind.all.flatMap { kind in
        [
            Config(kind: kind, sections: "team", predicate: "salary >= 10"),
            Config(kind: kind, sections: nil, predicate: nil),
        ]
    }

    @Test(arguments: configs)
    func theControllerAgreesWithAFreshFetchAfterEveryEvent(_ config: Config) throws {
        var random = SeededRandomNumberGenerator(seed: 19)
        let context = try StaffFixture.context(config.kind)
        let other = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        let request = try StaffFixture.request("team", "salary", "seq", predicate: config.predicate)
        let frc = FetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: config.sections, cacheName: nil)
        let replay = TableReplay()
        var seq: Int64 = 0
        var staff: [Employee] = []
        try context.performAndWait {
            for _ in 0..<40 {
                seq += 1
                staff += [
                    StaffFixture.employee(
                        context, "e\(seq)", team: Self.teams.randomElement(using: &random)!,
                        salary: Int32.random(in: 0..<50, using: &random), seq: seq)
                ]
            }
            try context.save()
            frc.delegate = replay
            try frc.performFetch()
            replay.load(frc)
        }
        let steps = 1_000
        for step in 0..<steps {
            if step % 97 == 96 {
                // Another context saves; the save is merged in.
                try mergeBackgroundSave(into: context, from: other, using: &random)
            } else {
                try context.performAndWait {
                    for _ in 0..<Int.random(in: 1...4, using: &random) {
                        seq += 1
                        change(&staff, context, seq: seq, using: &random)
                    }
                    if step % 50 == 49 {
                        try context.save()
                    } else {
                        context.processPendingChanges()
                    }
                }
            }
            try context.performAndWait {
                try expectAgreement(frc, replay, request, context, step: step)
            }
            if !replay.problems.isEmpty { break }
        }
        #expect(replay.problems.isEmpty)
    }

    /// One change to the staff: an insert, a delete, or an edit of a sort key, the section
    /// key or another attribute.
    private func change(
        _ staff: inout [Employee], _ context: ManagedObjectContext, seq: Int64,
        using random: inout SeededRandomNumberGenerator
    ) {
        let pick = Int.random(in: 0..<max(1, staff.count), using: &random)
        switch Int.random(in: 0..<10, using: &random) {
        case _ where staff.isEmpty, 0...2:
            staff.append(
                StaffFixture.employee(
                    context, "e\(seq)", team: Self.teams.randomElement(using: &random)!,
                    salary: Int32.random(in: 0..<50, using: &random), seq: seq))
        case 3...4:
            context.delete(staff.remove(at: pick))
        case 5...6:
            staff[pick].salary = Int32.random(in: 0..<50, using: &random)
        case 7:
            staff[pick].team = Self.teams.randomElement(using: &random)!
        default:
            staff[pick].name = "renamed \(seq)"
        }
    }

    private func mergeBackgroundSave(
        into context: ManagedObjectContext, from other: ManagedObjectContext,
        using random: inout SeededRandomNumberGenerator
    ) throws {
        let salary = Int32.random(in: 0..<50, using: &random)
        let pick = Int.random(in: 0..<1000, using: &random)
        final class Box { var note: Notification? }
        let saved = UncheckedSendable(Box())
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: other, queue: nil
        ) { saved.value.note = $0 }
        defer { NotificationCenter.default.removeObserver(token) }
        try other.performAndWait {
            let all = try other.fetch(StaffFixture.request("seq"))
            guard !all.isEmpty else { return }
            all[pick % all.count].salary = salary
            try other.save()
        }
        guard let note = saved.value.note else { return }
        context.performAndWait { context.mergeChanges(fromContextDidSave: note) }
    }

    /// Checks the controller against a fresh fetch and the replayed table. Plain comparisons
    /// first: `#expect` over large arrays is slow, so it runs only to report a difference.
    private func expectAgreement(
        _ frc: FetchedResultsController<Employee>, _ replay: TableReplay,
        _ request: FetchRequest<Employee>, _ context: ManagedObjectContext, step: Int
    ) throws {
        let fetched = try context.fetch(request)
        let fresh = fetched.map(ObjectIdentifier.init)
        let objects = try #require(frc.fetchedObjects)
        let sections = try #require(frc.sections)
        let controllerSections = sections.map { $0.results.map(ObjectIdentifier.init) }
        var expectedNames: [String] = []
        var expectedCounts: [Int] = []
        if frc.sectionNameKeyPath != nil {
            for e in fetched {
                let name = e.team ?? ""
                if expectedNames.last == name {
                    expectedCounts[expectedCounts.count - 1] += 1
                } else {
                    expectedNames.append(name)
                    expectedCounts.append(1)
                }
            }
        } else {
            expectedNames = [""]
            expectedCounts = [fresh.count]
        }
        let sameObjects = objects.map(ObjectIdentifier.init) == fresh
        let sameSections =
            sections.map(\.name) == expectedNames
            && sections.map(\.numberOfObjects) == expectedCounts
        let sameReplay = replay.sections == controllerSections
        var pathsRoundTrip = true
        for object in objects.enumerated().filter({ $0.offset % 7 == 0 }).map(\.element) {
            let path = frc.indexPath(forObject: object)
            if path.map({ frc.object(at: $0) }) !== object { pathsRoundTrip = false }
        }
        if !sameObjects { #expect(objects.map(ObjectIdentifier.init) == fresh, "step \(step)") }
        if !sameSections {
            #expect(sections.map(\.name) == expectedNames, "step \(step)")
            #expect(sections.map(\.numberOfObjects) == expectedCounts, "step \(step)")
        }
        if !sameReplay {
            #expect(replay.sections == controllerSections, "step \(step): replayed calls differ")
        }
        #expect(pathsRoundTrip, "step \(step): indexPath(forObject:) and object(at:) disagree")
    }
}
