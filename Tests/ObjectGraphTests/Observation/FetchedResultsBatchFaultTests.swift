import Foundation
import Testing

@testable import ObjectGraph

/// With `fetchBatchSize`, a controller records sort keys and sections from the rows the fetch
/// read, so only the objects the app reads are faulted in, a batch at a time. Apple,
/// `fetchBatchSize`: "the objects in the batch are returned as faults; when a fault is fired
/// … the batch is faulted"; WWDC 2010 session 137 shows a controller with a batch size
/// filling only the rows on screen.
@Suite struct FetchedResultsBatchFaultTests {
    /// 1,000 saved employees in five teams (each team an entity too), and a fresh context
    /// that has loaded none of them.
    private func freshContext(_ kind: StoreKind) throws -> ManagedObjectContext {
        let writer = try StaffFixture.context(kind)
        try writer.performAndWait {
            let teams = (0..<5).map { i in
                let team = Team(context: writer)
                team.name = "T\(i)"
                return team
            }
            for i in 0..<1000 {
                let e = StaffFixture.employee(
                    writer, "e\(i)", team: "T\(i % 5)", salary: Int32((i * 7919) % 1000))
                e.unit = teams[i % 5]
            }
            try writer.save()
        }
        return ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: writer.persistentStoreCoordinator!)
    }

    private func filled(_ controller: FetchedResultsController<Employee>) -> Int {
        (controller.fetchedObjects ?? []).count { !$0.isFault }
    }

    @Test(arguments: StoreKind.all)
    func sortKeysAndSectionsAreReadWithoutFiringABatch(_ kind: StoreKind) throws {
        let context = try freshContext(kind)
        try context.performAndWait {
            let request = try StaffFixture.request("team", "salary")
            request.fetchBatchSize = 20
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: "team",
                cacheName: nil)
            let recorder = ControllerRecorder()
            frc.delegate = recorder
            try frc.performFetch()
            #expect(frc.fetchedObjects?.count == 1000)
            #expect(frc.sections?.map(\.name) == ["T0", "T1", "T2", "T3", "T4"])
            #expect(frc.sections?.map(\.numberOfObjects) == [200, 200, 200, 200, 200])
            #expect(filled(frc) == 0)
            // Reading one object fills its batch of 20, nothing else.
            let read = frc.object(at: IndexPath(item: 50, section: 2))
            #expect(read.team == "T2")
            #expect(filled(frc) == 20)
            #expect(frc.indexPath(forObject: read) == IndexPath(item: 50, section: 2))
            // A change is placed by a binary search over the recorded keys: still no firing.
            StaffFixture.employee(context, "new", team: "T3", salary: -1)
            context.processPendingChanges()
            #expect(recorder.take() == ["will", "insert new nil->3.0", "did"])
            #expect(filled(frc) == 21)  // the batch read, and the inserted object
        }
    }

    @Test(arguments: StoreKind.all)
    func sectionsThroughAToOneFireOnlyTheDestinations(_ kind: StoreKind) throws {
        let context = try freshContext(kind)
        try context.performAndWait {
            let request = try StaffFixture.request("unit.name", "salary")
            request.fetchBatchSize = 20
            let frc = FetchedResultsController(
                fetchRequest: request, managedObjectContext: context,
                sectionNameKeyPath: "unit.name", cacheName: nil)
            try frc.performFetch()
            #expect(frc.sections?.map(\.name) == ["T0", "T1", "T2", "T3", "T4"])
            #expect(filled(frc) == 0)
            let salaries = frc.sections?[0].objects?.compactMap { ($0 as? Employee)?.salary }
            #expect(salaries == salaries?.sorted())
            #expect(filled(frc) == 200)
        }
    }
}
