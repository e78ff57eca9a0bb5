import Foundation
import Testing

@testable import ObjectGraph

/// Sort keys and section names through a to-one, as `performFetch()` reads them: from the
/// fetched rows, each destination once for all the objects naming it. What it reads must be
/// what a per-object read of the key path gives: the destination's unsaved values (Apple,
/// `includesPendingChanges`: the fetch "matches against currently unsaved changes in the
/// managed object context"), a nil to-one as the empty-named section (Apple,
/// `sectionNameKeyPath`; ../shared/reference/coredata-semantics.md (l)), and destinations that
/// share a value in one section.
@Suite struct FetchedResultsKeyPathTests {
    /// Saved teams Design, Ops and a second Ops (a different object with the same name), and
    /// 60 employees spread over them and no team; then a fresh context that has loaded
    /// nothing, so the fetched employees and their teams are faults.
    private func freshContext(_ kind: StoreKind) throws -> ManagedObjectContext {
        let writer = try StaffFixture.context(kind)
        try writer.performAndWait {
            let teams: [Team?] =
                ["Design", "Ops", "Ops"].map { name in
                    let team = Team(context: writer)
                    team.name = name
                    return team
                } + [nil]
            for i in 0..<60 {
                let e = StaffFixture.employee(
                    writer, "e\(i)", team: nil, salary: Int32((i * 37) % 100), seq: Int64(i))
                e.unit = teams[i % 4]
            }
            try writer.save()
        }
        return ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: writer.persistentStoreCoordinator!)
    }

    private func controller(_ context: ManagedObjectContext, _ keys: String...) throws
        -> FetchedResultsController<Employee>
    {
        let request = FetchRequest<Employee>(entityName: "Employee")
        request.sortDescriptors = keys.map { FetchSortDescriptor(key: $0) }
        return FetchedResultsController(
            fetchRequest: request, managedObjectContext: context,
            sectionNameKeyPath: "unit.name", cacheName: nil)
    }

    /// Every object sits in the section its own `unit?.name` names, in salary order.
    private func expectSectionsFollowEachObject(_ frc: FetchedResultsController<Employee>) {
        for (s, section) in (frc.sections ?? []).enumerated() {
            let objects = section.results
            #expect(objects.allSatisfy { ($0.unit?.name ?? "") == section.name })
            #expect(objects.map(\.salary) == objects.map(\.salary).sorted())
            for (i, object) in objects.enumerated() {
                #expect(frc.indexPath(forObject: object) == IndexPath(item: i, section: s))
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func destinationsWithTheSameNameShareOneSectionAndANilToOneIsTheEmptySection(
        _ kind: StoreKind
    ) throws {
        let context = try freshContext(kind)
        try context.performAndWait {
            let frc = try controller(context, "unit.name", "salary")
            let recorder = ControllerRecorder()
            frc.delegate = recorder
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["", "Design", "Ops"])
            #expect(frc.sections?.map(\.numberOfObjects) == [15, 15, 30])
            // The Ops section holds both Ops teams' members, merged by salary.
            let ops = frc.sections?[2].results ?? []
            #expect(Set(ops.compactMap { $0.unit.map(ObjectIdentifier.init) }).count == 2)
            expectSectionsFollowEachObject(frc)
        }
    }

    @Test(arguments: StoreKind.all)
    func anUnsavedRenameOfADestinationShowsInTheSectionNames(_ kind: StoreKind) throws {
        let context = try freshContext(kind)
        try context.performAndWait {
            let teams = try context.fetch(FetchRequest<Team>(entityName: "Team"))
            let design = try #require(teams.first { $0.name == "Design" })
            design.name = "Admin"  // still sorts before Ops: the fetch's order holds
            let frc = try controller(context, "unit.name", "salary")
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["", "Admin", "Ops"])
            #expect(frc.sections?.map(\.numberOfObjects) == [15, 15, 30])
            expectSectionsFollowEachObject(frc)
        }
    }

    @Test(arguments: StoreKind.all)
    func anUnsavedMoveToAnotherDestinationPlacesTheObjectByItsNewTeam(_ kind: StoreKind) throws {
        let context = try freshContext(kind)
        try context.performAndWait {
            let teams = try context.fetch(FetchRequest<Team>(entityName: "Team"))
            let design = try #require(teams.first { $0.name == "Design" })
            let moved = try #require(
                try context.fetch(FetchRequest<Employee>(entityName: "Employee")).first {
                    $0.unit == nil
                })
            moved.unit = design
            let frc = try controller(context, "unit.name", "salary")
            let recorder = ControllerRecorder()
            frc.delegate = recorder
            try frc.performFetch()
            #expect(frc.sections?.map(\.numberOfObjects) == [14, 16, 30])
            #expect(frc.indexPath(forObject: moved)?.section == 1)
            let fetched = try context.fetch(frc.fetchRequest)
            #expect(
                frc.fetchedObjects?.map { ObjectIdentifier($0) }
                    == fetched.map { ObjectIdentifier($0) })
            expectSectionsFollowEachObject(frc)
        }
    }

    /// The row reader against the per-object reader, object by object, for keys through the
    /// to-one in every position (first, second and a third descriptor), a section key that is
    /// not the first sort key, loaded and fault objects, and loaded and fault destinations.
    @Test(arguments: StoreKind.all)
    func readingEachDestinationOnceGivesThePerObjectPlacements(_ kind: StoreKind) throws {
        let context = try freshContext(kind)
        try context.performAndWait {
            // Load a few employees and rename a team, unsaved; the other objects stay faults.
            // (An unsaved change to an employee makes the fetch hand over no rows: every
            // object is then read as it is, see `anUnsavedMoveToAnotherDestination…`.)
            let all = try context.fetch(FetchRequest<Employee>(entityName: "Employee"))
            for e in all.prefix(10) { _ = e.name }
            let teams = try context.fetch(FetchRequest<Team>(entityName: "Team"))
            teams.first { $0.name == "Design" }?.name = "Admin"
            let entity = try #require(
                context.persistentStoreCoordinator?.managedObjectModel
                    .entitiesByName["Employee"])
            for (keys, section) in [
                (["unit.name", "salary"], "unit.name"),
                (["salary", "unit.name", "seq"], "team"),
                (["seq", "name", "unit.name"], "unit.name"),
            ] {
                let request = FetchRequest<Employee>(entityName: "Employee")
                request.sortDescriptors = keys.map { FetchSortDescriptor(key: $0) }
                let reader = FetchedKeyReader(
                    sorts: try request.sortDescriptors.map { try $0.compile(for: entity) },
                    sectionKey: try FetchSortDescriptor(key: section).compile(for: entity))
                var rows: [StoreRow]?
                let objects = try context.fetch(request, rows: &rows)
                let fetchedRows = try #require(rows)
                var rowReader = FetchedRowKeyReader(reader, context: context)
                for (i, object) in objects.enumerated() {
                    for readsRowAlways in [false, true] {
                        let memoised = rowReader.placement(
                            of: object, row: fetchedRows[i].values, sequence: i,
                            readsRowAlways: readsRowAlways)
                        let single = reader.placement(
                            of: object, row: fetchedRows[i].values, sequence: i,
                            readsRowAlways: readsRowAlways)
                        #expect(memoised.section == single.section)
                        for k in keys.indices {
                            #expect(
                                reader.sorts[k].compareValues(memoised.key(k), single.key(k))
                                    == .orderedSame)
                        }
                    }
                }
            }
        }
    }
}
