import Foundation
import ObjectGraph
import Testing

/// The whole-change delegate forms: a snapshot, or a difference when there are no sections.
/// Apple, NSFetchedResultsControllerDelegate `controller(_:didChangeContentWith:)`: "If this
/// method is implemented, no other delegate methods are invoked"; the difference form "is only
/// invoked if the controller's sectionNameKeyPath property is nil and [the snapshot form] is
/// not implemented".
@Suite struct FetchedResultsWholeChangeTests {
    final class SnapshotRecorder: ControllerRecorderBase, FetchedResultsControllerSnapshotDelegate {
        var snapshots: [FetchedResultsSnapshot] = []
        func controller(
            _ controller: FetchedResultsControllerBase,
            didChangeContentWith snapshot: FetchedResultsSnapshot
        ) { snapshots.append(snapshot) }
    }

    final class DifferenceRecorder: ControllerRecorderBase,
        FetchedResultsControllerDifferenceDelegate
    {
        var differences: [CollectionDifference<ManagedObjectID>] = []
        func controller(
            _ controller: FetchedResultsControllerBase,
            didChangeContentWith difference: CollectionDifference<ManagedObjectID>
        ) { differences.append(difference) }
    }

    /// Both forms together: the snapshot wins.
    final class BothRecorder: ControllerRecorderBase, FetchedResultsControllerSnapshotDelegate,
        FetchedResultsControllerDifferenceDelegate
    {
        var calls: [String] = []
        func controller(
            _ controller: FetchedResultsControllerBase,
            didChangeContentWith snapshot: FetchedResultsSnapshot
        ) { calls.append("snapshot") }
        func controller(
            _ controller: FetchedResultsControllerBase,
            didChangeContentWith difference: CollectionDifference<ManagedObjectID>
        ) { calls.append("difference") }
    }

    func staff(_ kind: StoreKind, sections: String?, delegate: any FetchedResultsControllerDelegate)
        throws -> (ManagedObjectContext, FetchedResultsController<Employee>)
    {
        let context = try StaffFixture.context(kind)
        let frc = FetchedResultsController(
            fetchRequest: try StaffFixture.request("team", "name"), managedObjectContext: context,
            sectionNameKeyPath: sections, cacheName: nil)
        try context.performAndWait {
            StaffFixture.employee(context, "Alice", team: "Eng")
            StaffFixture.employee(context, "Bob", team: "Eng")
            try context.save()
            frc.delegate = delegate
            try frc.performFetch()
        }
        return (context, frc)
    }

    @Test(arguments: StoreKind.all)
    func theSnapshotFormGetsSectionsOfIDsAndNoOtherCall(_ kind: StoreKind) throws {
        let recorder = SnapshotRecorder()
        let (context, frc) = try staff(kind, sections: "team", delegate: recorder)
        try context.performAndWait {
            let carol = StaffFixture.employee(context, "Carol", team: "Sales")
            try context.obtainPermanentIDs(for: [carol])
            frc.fetchedObjects![0].salary = 5
            context.processPendingChanges()
            let snapshot = try #require(recorder.snapshots.last)
            #expect(recorder.snapshots.count == 2)  // performFetch()'s, then this event's
            #expect(snapshot.sectionIdentifiers == ["Eng", "Sales"])
            #expect(snapshot.itemIdentifiers(inSection: "Sales") == [carol.objectID])
            #expect(snapshot.itemIdentifiers == frc.fetchedObjects!.map(\.objectID))
            #expect(snapshot.numberOfItems == 3)
            #expect(snapshot.reloadedItemIdentifiers == [frc.fetchedObjects![0].objectID])
        }
        #expect(recorder.lines.isEmpty)
    }

    @Test(arguments: StoreKind.all)
    func theDifferenceFormGetsInsertionsAndRemovalsWithoutSections(_ kind: StoreKind) throws {
        let recorder = DifferenceRecorder()
        let (context, frc) = try staff(kind, sections: nil, delegate: recorder)
        try context.performAndWait {
            let before = frc.fetchedObjects!.map(\.objectID)
            let aaron = StaffFixture.employee(context, "Aaron", team: "Eng")
            try context.obtainPermanentIDs(for: [aaron])
            context.delete(frc.fetchedObjects![1])
            context.processPendingChanges()
            let difference = try #require(recorder.differences.last)
            #expect(recorder.differences.count == 1)
            #expect(before.applying(difference) == frc.fetchedObjects!.map(\.objectID))
            #expect(difference.insertions.count == 1)
            #expect(difference.removals.count == 1)
        }
        #expect(recorder.lines.isEmpty)
    }

    @Test func withSectionsTheDifferenceFormFallsBackToPerChangeCalls() throws {
        let recorder = DifferenceRecorder()
        let (context, frc) = try staff(.inMemory, sections: "team", delegate: recorder)
        context.performAndWait {
            _ = frc
            StaffFixture.employee(context, "Carol", team: "Sales")
            context.processPendingChanges()
        }
        withExtendedLifetime(frc) {}
        #expect(recorder.differences.isEmpty)
        #expect(
            recorder.lines == ["will", "section insert Sales 1", "insert Carol nil->1.0", "did"])
    }

    @Test func theSnapshotFormWinsOverTheDifferenceForm() throws {
        let recorder = BothRecorder()
        let (context, frc) = try staff(.inMemory, sections: nil, delegate: recorder)
        context.performAndWait {
            _ = frc
            StaffFixture.employee(context, "Carol", team: "Sales")
            context.processPendingChanges()
        }
        withExtendedLifetime(frc) {}
        #expect(recorder.calls == ["snapshot", "snapshot"])  // performFetch()'s, the event's
        #expect(recorder.lines.isEmpty)
    }
}
