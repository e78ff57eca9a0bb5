import Foundation
import ObjectGraph
import Testing

// Core Data list code ported with the README's renames only (NSFetchedResultsController ->
// FetchedResultsController, NSFetchRequest -> FetchRequest, NSPredicate -> FetchPredicate, …).
// Apple's documentation cited below: developer.apple.com/documentation/coredata/
// nsfetchedresultscontroller (and its object(at:), indexPath(forObject:), sectionIndexTitles,
// section(forSectionIndexTitle:at:) pages), nsfetchedresultscontrollerdelegate ("Typical use"),
// nsfetchedresultssectioninfo.

extension FetchedResultsPortingTests {
    // Bad input. NSFetchedResultsController: "the fetch request must have at least one sort
    // descriptor"; Core Data raises NSInvalidArgumentException. Here performFetch() throws
    // 134060 (DifferencesFromCoreData).
    @Test func aRequestWithoutSortDescriptorsIsRefusedByPerformFetch() throws {
        let context = try StaffFixture.context(.inMemory)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Employee.fetchRequest(), managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.code == 134060)
            #expect(error.localizedDescription.localizedCaseInsensitiveContains("sort"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    @Test func aSectionKeyPathThatDoesNotExistIsRefusedNamingIt() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.nmae", cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.localizedDescription.contains("unit.nmae"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    @Test func aSectionKeyPathThroughAToManyIsRefusedNamingIt() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.members.name", cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.localizedDescription.contains("unit.members"))
        }
    }

    // NSFetchedResultsController.sectionNameKeyPath: the key path must give the same relative
    // order as the first sort descriptor; when it does not, performFetch() throws naming where.
    @Test func sectionsOutOfOrderAreRefusedNamingTheObjectIndex() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            // By name: Abe(sales) Ann(Eng) Bob(Eng) Cid(sales) Dee(sales): "sales" comes back
            // at index 3 after "Eng", which Core Data reports as "The fetched object at index 3
            // has an out of order section name".
            StaffFixture.employee(context, "Abe", team: nil).unit = frc.managedObjectContext
                .registeredObjects.compactMap { $0 as? Team }.first { $0.name == "sales" }
            try context.save()
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.code == 134060)
            #expect(error.localizedDescription.contains("index 3"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    // A subclass overriding sectionIndexTitles and sectionIndexTitle(forSectionName:), as
    // Apple's pages for both suggest, and a table's section-index lookup against it.
    @Test func aSubclassOverridesTheSectionIndexAndTheLookupLandsOnTheNextSection() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = AlphabetIndexController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            try frc.performFetch()
            #expect(frc.sectionIndexTitles == ["A", "B", "E", "Q", "S", "Z"])
            #expect(frc.sections?.map(\.indexTitle) == ["E", "S"])
            #expect(frc.section(forSectionIndexTitle: "E", at: 2) == 0)
            #expect(frc.section(forSectionIndexTitle: "S", at: 4) == 1)
            #expect(frc.section(forSectionIndexTitle: "Q", at: 3) == 1)
            #expect(frc.section(forSectionIndexTitle: "A", at: 0) == 0)
            #expect(frc.section(forSectionIndexTitle: "Z", at: 5) == 1)
        }
    }

    // NSFetchedResultsControllerDelegate.controller(_:sectionIndexTitleForSectionName:): the
    // delegate's title is used when it implements the method.
    @Test func aDelegateTitlesTheSectionIndex() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            let delegate = TitlingDelegate()
            frc.delegate = delegate
            try frc.performFetch()
            #expect(frc.sectionIndexTitles == ["#Eng", "#sales"])
            #expect(frc.sections?.map(\.indexTitle) == ["#Eng", "#sales"])
            #expect(frc.section(forSectionIndexTitle: "#sales", at: 1) == 1)
        }
    }

    // NSFetchedResultsController.sections is [any NSFetchedResultsSectionInfo]?; code that
    // stores it under that type keeps compiling.
    @Test func sectionsConvertToTheSectionInfoProtocolType() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            try frc.performFetch()
            let sections: [any FetchedResultsSectionInfo] = frc.sections ?? []
            #expect(sections.map(\.numberOfObjects) == [2, 2])
            #expect(sections.map(\.name) == ["Eng", "sales"])
            #expect(sections[1].objects?.count == 2)
        }
    }

    // Xcode's Master-Detail template: the new object goes to the top (newest first), a row
    // deleted by the table is deleted at its index path, a re-dated row moves.
    @Test func theMasterDetailTemplatePortsWithRenamesOnly() throws {
        let context = try StaffFixture.context(.inMemory)
        try context.performAndWait {
            let master = PortedMasterViewController(context: context)
            #expect(master.fetchedResultsController.cacheName == "Master")
            #expect(master.fetchedResultsController.sections?.count == 1)
            #expect(master.fetchedResultsController.sections?[0].numberOfObjects == 0)
            for day in 0..<3 {
                try master.insertNewObject(hired: Date(timeIntervalSince1970: Double(day) * 86_400))
            }
            #expect(master.calls == ["insertRows 0", "insertRows 0", "insertRows 0"])
            master.calls = []
            try master.commitDelete(forRowAt: IndexPath(item: 1, section: 0))
            #expect(master.calls == ["deleteRows 1"])
            master.calls = []
            master.fetchedResultsController.object(at: IndexPath(item: 1, section: 0)).hired =
                Date(timeIntervalSince1970: 10 * 86_400)
            try context.save()
            #expect(master.calls == ["moveRow 1 0"])
            #expect(master.fetchedResultsController.fetchedObjects?.count == 2)
        }
    }

    // NSFetchedResultsController overview, "No tracking: the delegate is set to nil. The
    // controller simply provides access to the data as it was when the fetch was executed."
    @Test func withoutADelegateTheResultsStayAsFetched() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let frc = FetchedResultsController(
                fetchRequest: Self.staffRequest(), managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            try frc.performFetch()
            StaffFixture.employee(context, "Abe", team: nil).unit = frc.fetchedObjects?[0].unit
            try context.save()
            #expect(frc.fetchedObjects?.map(\.name) == ["Ann", "Bob", "Cid", "Dee"])
            try frc.performFetch()
            #expect(frc.fetchedObjects?.first?.name == "Abe")
        }
    }

    // Code that sets the delegate after the first fetch (a view controller that fetches in
    // viewDidLoad and becomes delegate in viewWillAppear) gets the changes from then on
    // (Apple's overview: tracking is on while the delegate is non-nil).
    @Test func aDelegateSetAfterTheFetchReceivesLaterChanges() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            try frc.performFetch()
            let recorder = ControllerRecorder()
            frc.delegate = recorder
            StaffFixture.employee(context, "Bea", team: nil)
            try context.save()
            #expect(recorder.take() == ["will", "insert Bea nil->0.1", "did"])
            #expect(frc.fetchedObjects?.map(\.name) == ["Ann", "Bea", "Bob", "Cid", "Dee"])
        }
    }

    // A section key path to a number: the section name is the value's description.
    @Test func aNumericSectionKeyPathNamesSectionsByTheValue() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "salary", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: "salary", cacheName: nil)
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["3", "5", "7", "9"])
        }
    }

    @Test func aSortKeyThatDoesNotExistIsRefusedNamingIt() throws {
        let context = try StaffFixture.context(.inMemory)
        _ = try Self.seed(context)
        try context.performAndWait {
            let request = Self.staffRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "nmae", ascending: true)]
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: nil, cacheName: nil)
            let error = try #require(throws: ObjectGraphError.self) { try frc.performFetch() }
            #expect(error.localizedDescription.contains("nmae"))
            #expect(frc.fetchedObjects == nil)
        }
    }

    // NSFetchedResultsController.deleteCache(withName:) is a class method; accepted here.
    @Test func deleteCacheIsAcceptedAsAClassMethod() {
        FetchedResultsController<Employee>.deleteCache(withName: "Staff")
        FetchedResultsController<Employee>.deleteCache(withName: nil)
    }

    // object(at:): "If indexPath does not describe a valid index path in the fetch results, an
    // exception is raised." Here: a trap (Swift cannot raise a catchable exception).
    @Test func anOutOfRangeIndexPathTrapsNamingThePathAndTheSections() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try StaffFixture.context(.inMemory)
                _ = try Self.seed(context)
                try context.performAndWait {
                    let frc = FetchedResultsController(
                        fetchRequest: Self.staffRequest(), managedObjectContext: context,
                        sectionNameKeyPath: "unit.name", cacheName: nil)
                    try frc.performFetch()
                    _ = frc.object(at: IndexPath(item: 2, section: 0))
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("object(at:)"))
        #expect(message.contains("[0, 2]"))
        #expect(message.contains("[2, 2]"))
    }

    // NSDiffableDataSourceSnapshot raises for a section it does not hold; so does this one,
    // naming the section.
    @Test func askingASnapshotForAMissingSectionTrapsNamingIt() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try StaffFixture.context(.inMemory)
                _ = try Self.seed(context)
                try context.performAndWait {
                    let frc = FetchedResultsController(
                        fetchRequest: Self.staffRequest(), managedObjectContext: context,
                        sectionNameKeyPath: "unit.name", cacheName: nil)
                    let delegate = PortedSnapshotDelegate()
                    frc.delegate = delegate
                    try frc.performFetch()
                    StaffFixture.employee(context, "Abe", team: nil).unit =
                        frc.fetchedObjects?[0].unit
                    try context.save()
                    _ = delegate.snapshots[0].itemIdentifiers(inSection: "Ops")
                }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("no section named 'Ops'"))
    }

    // Used off its context's queue it traps, as the context does.
    @Test func useFromTheWrongQueueTrapsNamingTheCall() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try StaffFixture.context(.inMemory)
                _ = try Self.seed(context)
                let frc = FetchedResultsController(
                    fetchRequest: Self.staffRequest(), managedObjectContext: context,
                    sectionNameKeyPath: "unit.name", cacheName: nil)
                try frc.performFetch()
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("performFetch()"))
    }
}
