import Foundation
import ObjectGraph
import Testing

/// The fetched results controller's results and sections. Scenarios follow FreeCoreData's
/// Tests/NSFetchedResultsControllerTests.m (written against Apple's documented behaviour and
/// run against Apple's Core Data) and Apple's NSFetchedResultsController documentation.
@Suite struct FetchedResultsControllerTests {
    func controller(
        _ context: ManagedObjectContext, _ request: FetchRequest<Employee>, sections: String? = nil
    ) -> FetchedResultsController<Employee> {
        FetchedResultsController(
            fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: sections,
            cacheName: nil)
    }

    // Apple, init(fetchRequest:managedObjectContext:sectionNameKeyPath:cacheName:): "The fetch
    // request must have at least one sort descriptor."
    @Test(arguments: StoreKind.all)
    func performFetchThrowsWithoutASortDescriptor(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        context.performAndWait {
            let frc = controller(context, FetchRequest<Employee>(entityName: "Employee"))
            #expect(frc.fetchedObjects == nil)
            let error = #expect(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.map { $0 as NSError }?.code == 134060)
            #expect(error?.message.contains("sort descriptor") == true)
            #expect(frc.fetchedObjects == nil)
        }
    }

    @Test(arguments: StoreKind.all)
    func performFetchReturnsSortedObjectsInOneSectionWithoutAKeyPath(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            StaffFixture.employee(context, "Carol", team: "Sales")
            StaffFixture.employee(context, "Alice", team: "Engineering")
            StaffFixture.employee(context, "Bob", team: "Engineering")
            try context.save()
            let frc = controller(context, try StaffFixture.request("name"))
            try frc.performFetch()
            #expect(frc.fetchedObjects?.map(\.name) == ["Alice", "Bob", "Carol"])
            #expect(frc.sections?.count == 1)
            #expect(frc.sections?[0].name == "")
            #expect(frc.sections?[0].numberOfObjects == 3)
            #expect(frc.object(at: IndexPath(item: 2, section: 0)).name == "Carol")
        }
    }

    @Test(arguments: StoreKind.all)
    func anEmptyResultWithoutAKeyPathStillHasOneSection(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            let frc = controller(context, try StaffFixture.request("name"))
            try frc.performFetch()
            #expect(frc.fetchedObjects?.isEmpty == true)
            #expect(frc.sections?.map(\.numberOfObjects) == [0])
            let sectioned = controller(context, try StaffFixture.request("team"), sections: "team")
            try sectioned.performFetch()
            #expect(sectioned.sections?.isEmpty == true)
        }
    }

    @Test(arguments: StoreKind.all)
    func sectionsComeFromTheSectionNameKeyPath(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            StaffFixture.employee(context, "Carol", team: "Sales")
            StaffFixture.employee(context, "Alice", team: "Engineering")
            let bob = StaffFixture.employee(context, "Bob", team: "Engineering")
            StaffFixture.employee(context, "Nobody", team: nil)
            try context.save()
            let frc = controller(
                context, try StaffFixture.request("team", "name"), sections: "team")
            try frc.performFetch()
            let sections = try #require(frc.sections)
            // A nil section value gets the empty-named section (nil sorts first ascending).
            #expect(sections.map(\.name) == ["", "Engineering", "Sales"])
            #expect(sections.map(\.numberOfObjects) == [1, 2, 1])
            #expect(sections[1].results.map(\.name) == ["Alice", "Bob"])
            #expect((sections[1].objects as? [Employee])?.map(\.name) == ["Alice", "Bob"])
            #expect(sections.map(\.indexTitle) == [nil, "E", "S"])
            #expect(frc.sectionIndexTitles == ["E", "S"])
            #expect(frc.section(forSectionIndexTitle: "S", at: 1) == 2)
            #expect(frc.indexPath(forObject: bob) == IndexPath(item: 1, section: 1))
            #expect(frc.object(at: IndexPath(item: 1, section: 1)) === bob)
        }
    }

    @Test(arguments: StoreKind.all)
    func sectionsCanGoThroughAToOneRelationship(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            let design = Team(context: context)
            design.name = "Design"
            let ops = Team(context: context)
            ops.name = "Ops"
            for (name, team) in [("Dee", ops), ("Ann", design), ("Al", ops), ("Zed", nil)] {
                StaffFixture.employee(context, name, team: nil).unit = team
            }
            try context.save()
            let frc = controller(
                context, try StaffFixture.request("unit.name", "name"), sections: "unit.name")
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["", "Design", "Ops"])
            #expect(frc.sections?[2].results.map(\.name) == ["Al", "Dee"])
        }
    }

    // Apple, sectionNameKeyPath: "If the two key paths don't match, then they must generate
    // the same relative ordering" — months derived from a date sort are fine.
    @Test(arguments: StoreKind.all)
    func aSectionKeyOtherThanTheSortKeyWorksWhenItOrdersTheSameWay(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            for (i, day) in [3.0, 40, 41, 70].enumerated() {
                let e = StaffFixture.employee(context, "e\(i)", team: nil)
                e.hired = Date(timeIntervalSinceReferenceDate: day * 86_400)
                e.month = ["2001-01", "2001-02", "2001-02", "2001-03"][i]
            }
            try context.save()
            let frc = controller(context, try StaffFixture.request("hired"), sections: "month")
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["2001-01", "2001-02", "2001-03"])
            #expect(frc.sections?.map(\.numberOfObjects) == [1, 2, 1])
        }
    }

    // Core Data: "The fetched object at index 2 has an out of order section name 'A'.
    // Objects must be sorted by section name".
    @Test(arguments: StoreKind.all)
    func sectionNamesOutOfOrderThrowNamingTheIndex(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            StaffFixture.employee(context, "a", team: "A", salary: 1)
            StaffFixture.employee(context, "b", team: "B", salary: 2)
            StaffFixture.employee(context, "c", team: "A", salary: 3)
            try context.save()
            let frc = controller(context, try StaffFixture.request("salary"), sections: "team")
            let error = #expect(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error?.message.contains("index 2") == true)
            #expect(error?.message.contains("'A'") == true)
            #expect(frc.fetchedObjects == nil)
        }
    }

    @Test(arguments: StoreKind.all)
    func predicateLimitAndOffsetShapeThePerformFetch(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            for i in 0..<10 { StaffFixture.employee(context, "e\(i)", team: nil, salary: Int32(i)) }
            try context.save()
            let request = try StaffFixture.request("salary", predicate: "salary >= 2")
            request.fetchOffset = 1
            request.fetchLimit = 3
            request.fetchBatchSize = 2
            let frc = controller(context, request)
            try frc.performFetch()
            #expect(frc.fetchedObjects?.map(\.salary) == [3, 4, 5])
            // Changing the request and fetching again refetches.
            request.fetchLimit = 0
            request.fetchOffset = 0
            request.predicate = try FetchPredicate(format: "salary < 2")
            try frc.performFetch()
            #expect(frc.fetchedObjects?.map(\.salary) == [0, 1])
        }
    }

    @Test(arguments: StoreKind.all)
    func pendingChangesCountUnlessTheRequestSaysNot(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            StaffFixture.employee(context, "saved", team: nil, salary: 1)
            try context.save()
            StaffFixture.employee(context, "pending", team: nil, salary: 2)
            let request = try StaffFixture.request("salary")
            let frc = controller(context, request)
            try frc.performFetch()
            #expect(frc.fetchedObjects?.map(\.name) == ["saved", "pending"])
            request.includesPendingChanges = false
            try frc.performFetch()
            #expect(frc.fetchedObjects?.map(\.name) == ["saved"])
        }
    }

    @Test(arguments: StoreKind.all)
    func aFoundationPredicateWorksAndSwiftSortDescriptorsAreRefused(_ kind: StoreKind) throws {
        let context = try StaffFixture.context(kind)
        try context.performAndWait {
            for i in 0..<4 { StaffFixture.employee(context, "e\(i)", team: nil, salary: Int32(i)) }
            try context.save()
            let request = try StaffFixture.request("salary")
            request.swiftPredicate = #Predicate<Employee> { $0.salary > 1 }
            let frc = controller(context, request)
            let recorder = ControllerRecorder()
            frc.delegate = recorder
            try frc.performFetch()
            #expect(frc.fetchedObjects?.map(\.salary) == [2, 3])
            frc.fetchedObjects?[0].salary = 0
            context.processPendingChanges()
            #expect(frc.fetchedObjects?.map(\.salary) == [3])
            request.swiftSortDescriptors = [SortDescriptor(\Employee.salary)]
            let error = #expect(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error?.message.contains("SortDescriptor") == true)
        }
    }

    @Test func deleteCacheIsAcceptedAndTheCacheNameKept() throws {
        let context = try StaffFixture.context(.inMemory)
        try context.performAndWait {
            StaffFixture.employee(context, "a", team: nil)
            let frc = FetchedResultsController(
                fetchRequest: try StaffFixture.request("name"), managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: "Staff")
            FetchedResultsController<Employee>.deleteCache(withName: "Staff")
            FetchedResultsControllerBase.deleteCache(withName: nil)
            try frc.performFetch()
            #expect(frc.cacheName == "Staff")
            #expect(frc.fetchedObjects?.count == 1)
        }
    }

    /// A subclass overriding the index titles, as Core Data allows.
    final class InitialsController: FetchedResultsController<Employee> {
        override func sectionIndexTitle(forSectionName sectionName: String) -> String? {
            sectionName.isEmpty ? "?" : String(sectionName.prefix(2)).lowercased()
        }
    }

    @Test func aSubclassCanOverrideTheSectionIndexTitle() throws {
        let context = try StaffFixture.context(.inMemory)
        try context.performAndWait {
            StaffFixture.employee(context, "a", team: "Sales")
            StaffFixture.employee(context, "b", team: "Support")
            StaffFixture.employee(context, "c", team: nil)
            let frc = InitialsController(
                fetchRequest: try StaffFixture.request("team"), managedObjectContext: context,
                sectionNameKeyPath: "team", cacheName: nil)
            try frc.performFetch()
            #expect(frc.sectionIndexTitles == ["?", "sa", "su"])
            #expect(frc.sections?.map(\.indexTitle) == ["?", "sa", "su"])
        }
    }

    @Test func usingTheControllerOffItsContextsQueueTraps() async {
        await #expect(processExitsWith: .failure) {
            let context = try StaffFixture.context(.inMemory)
            let frc = FetchedResultsController(
                fetchRequest: try StaffFixture.request("name"), managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            try frc.performFetch()
        }
    }
}
