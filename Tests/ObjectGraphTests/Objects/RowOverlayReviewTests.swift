import Foundation
import Testing

@testable import ObjectGraph

/// The row overlay's edges the review of `overlay` found: a store of another kind that
/// reorders the patches, the one-shot hand-off, a written then deleted object read after it
/// left its context, and validation's row-reading paths on an object with an overlay. Each
/// runs with the row kept and with the row converted into slots before the writes, on both
/// stores.
@Suite struct RowOverlayReviewTests {
    /// A member whose per-key hook records the value it receives for each key.
    final class Member: ManagedObject {
        /// The value the hook received for each key, at the last validation.
        var received: [String: Any?] = [:]

        override func validate(_ value: Any?, forKey key: String) throws {
            received[key] = value
            try super.validate(value, forKey: key)
        }
    }

    /// Member(name: mandatory, salary, team: mandatory to-one) and Team(name, members; the
    /// team's deletion leaves its members alone).
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Member", managedObjectClass: Member.self,
                properties: [
                    AttributeDescription(name: "name", type: .string, isOptional: false),
                    AttributeDescription(name: "salary", type: .integer32),
                    RelationshipDescription(
                        name: "team", destination: "Team", inverse: "members", isOptional: false),
                ]),
            EntityDescription(
                name: "Team",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "members", destination: "Member", inverse: "team", isToMany: true,
                        deleteRule: .noAction),
                ]),
        ])
    }

    /// A coordinator over a fresh store of `kind` (wrapped in a store of another kind that
    /// commits the patches in reverse order when `reversing`) holding teams T and U, members alpha (10) and bravo (20) of T and
    /// charlie (30) of U.
    static func coordinator(_ kind: StoreKind, reversing: Bool = false) throws
        -> PersistentStoreCoordinator
    {
        let model = try model()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let base = try kind.open(model)
        try coordinator.addPersistentStore(
            reversing
                ? SaveIntegrity.UpdatePatchTests.RecordingStore(
                    base, patches: true, reversesPatches: true) : base)
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait { () throws in
            let t = context.insertNewObject(forEntityName: "Team")
            t.setValue("T", forKey: "name")
            let u = context.insertNewObject(forEntityName: "Team")
            u.setValue("U", forKey: "name")
            for (name, salary, team) in [("alpha", 10, t), ("bravo", 20, t), ("charlie", 30, u)] {
                let m = context.insertNewObject(forEntityName: "Member")
                m.setValue(name, forKey: "name")
                m.setValue(salary, forKey: "salary")
                m.setValue(team, forKey: "team")
            }
            try context.save()
        }
        return coordinator
    }

    /// The members of `context`, by name, their rows converted into slots when `converted`.
    static func members(_ context: ManagedObjectContext, converted: Bool) throws -> [Member] {
        let r = FetchRequest<ManagedObject>(entityName: "Member")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        let all = try context.fetch(r).map { $0 as! Member }
        for m in all {
            _ = m.value(forKey: "name")
            if converted { m.materialiseRow() }
            #expect((m.rowValues != nil) == !converted)
        }
        return all
    }

    /// Runs `body` on a new context of a ``coordinator(_:reversing:)`` over a store of
    /// `kind`, with the members fetched (their rows converted when `converted`) and alpha's
    /// salary written 11.
    static func withAlphaWritten(
        _ kind: StoreKind, converted: Bool,
        _ body: (ManagedObjectContext, [Member]) throws -> Void
    ) throws {
        let context = Self.context(try Self.coordinator(kind))
        try context.performAndWait { () throws in
            let all = try Self.members(context, converted: converted)
            all[0].setValue(11, forKey: "salary")
            #expect(all[0].hasRowOverlay == !converted)
            try body(context, all)
        }
    }

    /// A new context of `coordinator`.
    static func context(_ coordinator: PersistentStoreCoordinator) -> ManagedObjectContext {
        ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aStoreThatReordersThePatchesLeavesEachObjectItsOwnValues(
        _ kind: StoreKind, converted: Bool
    ) throws {
        let coordinator = try Self.coordinator(kind, reversing: true)
        let context = Self.context(coordinator)
        try context.performAndWait { () throws in
            let all = try Self.members(context, converted: converted)
            let (alpha, bravo) = (all[0], all[1])
            alpha.setValue(11, forKey: "salary")
            bravo.setValue(21, forKey: "salary")
            #expect(alpha.hasRowOverlay == !converted && bravo.hasRowOverlay == !converted)
            try context.save()
            for (m, name, salary) in [(alpha, "alpha", 11), (bravo, "bravo", 21)] {
                #expect(m.value(forKey: "name") as? String == name)
                #expect(m.value(forKey: "salary") as? Int32 == Int32(salary))
                #expect(!m.hasChanges && !m.hasRowOverlay)
                #expect(m.committedValues(forKeys: ["salary"])["salary"] as? Int32 == Int32(salary))
            }
        }
        let other = Self.context(coordinator)
        try other.performAndWait { () throws in
            let all = try Self.members(other, converted: false)
            #expect(all.map { $0.value(forKey: "salary") as? Int32 } == [11, 21, 30])
        }
    }

    @Test func aHandoffIsUsedOnceAndThenHoldsNothing() throws {
        let handoff = StoreRowHandoff(lend: { _, _ in true }, take: { _, _, _ in })
        #expect(handoff.claim())
        #expect(!handoff.claim())
        handoff.end()
        let team = try #require(try Self.model().entitiesByName["Team"])
        let id = ManagedObjectID(entity: team, storeIdentifier: "S", primaryKey: 1)
        #expect(!handoff.lend(0, id))
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aWrittenThenDeletedObjectReadsTheWrittenValueAfterLeaving(
        _ kind: StoreKind, converted: Bool
    ) throws {
        try Self.withAlphaWritten(kind, converted: converted) { context, all in
            let alpha = all[0]
            context.delete(alpha)
            try context.save()
            #expect(alpha.managedObjectContext == nil)
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.value(forKey: "name") as? String == "alpha")
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aMandatoryAttributeWrittenNilFailsValidationWithTheOverlayKept(
        _ kind: StoreKind, converted: Bool
    ) throws {
        try Self.withAlphaWritten(kind, converted: converted) { context, all in
            let alpha = all[0]
            alpha.setValue(nil, forKey: "name")
            let error = expectNSError { try context.save() }
            #expect(error?.code == NSValidationMissingMandatoryPropertyError)
            #expect(details(error) == ["Member.name:1570"])
            #expect(alpha.hasRowOverlay == !converted)
            #expect(alpha.value(forKey: "name") == nil)
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
            #expect(alpha.committedValues(forKeys: ["name"])["name"] as? String == "alpha")
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aMandatoryToOneWhoseDestinationIsDeletedFailsValidation(
        _ kind: StoreKind, converted: Bool
    ) throws {
        try Self.withAlphaWritten(kind, converted: converted) { context, all in
            let (alpha, charlie) = (all[0], all[2])
            charlie.setValue(31, forKey: "salary")
            // Only alpha's team goes (its members are left alone: no action). Fetched, not
            // read through alpha: reading a to-one with a destination converts the row.
            let teams = FetchRequest<ManagedObject>(entityName: "Team")
            teams.predicate = try FetchPredicate(format: "name == 'T'")
            context.delete(try #require(try context.fetch(teams).first))
            #expect(alpha.hasRowOverlay == !converted && charlie.hasRowOverlay == !converted)
            let error = expectNSError { try context.save() }
            // Alpha's team is missing; charlie's, not deleted, is there. Bravo is unchanged.
            #expect(error?.code == NSValidationMissingMandatoryPropertyError)
            #expect(error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject === alpha)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "team")
            #expect(alpha.hasRowOverlay == !converted)
            #expect(alpha.value(forKey: "salary") as? Int32 == 11)
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func thePerKeyHookReceivesTheWrittenValue(_ kind: StoreKind, converted: Bool) throws {
        try Self.withAlphaWritten(kind, converted: converted) { context, all in
            let alpha = all[0]
            alpha.setValue("alef", forKey: "name")
            try context.save()
            #expect(alpha.received["salary"] as? Int32 == 11)
            #expect(alpha.received["name"] as? String == "alef")
        }
    }

    /// A fetched results controller's delegate that records each object change.
    final class ChangeRecorder: FetchedResultsControllerDelegate {
        /// The changes reported, in order: the object and the kind of change.
        var changes: [(object: ManagedObject?, type: FetchedResultsChangeType)] = []
        func controller(
            _ controller: FetchedResultsControllerBase, didChange anObject: Any,
            at indexPath: IndexPath?, for type: FetchedResultsChangeType, newIndexPath: IndexPath?
        ) {
            changes.append((anObject as? ManagedObject, type))
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aControllersDelegateSeesAWriteOverTheRowMoveAnObjectIntoItsPredicate(
        _ kind: StoreKind, converted: Bool
    ) throws {
        let coordinator = try Self.coordinator(kind)
        let context = Self.context(coordinator)
        let recorder = ChangeRecorder()
        try context.performAndWait { () throws in
            let alpha = try Self.members(context, converted: converted)[0]
            let r = FetchRequest<ManagedObject>(entityName: "Member")
            r.predicate = try FetchPredicate(format: "salary == 11")
            r.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let controller = FetchedResultsController(
                fetchRequest: r, managedObjectContext: context, sectionNameKeyPath: nil,
                cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            #expect(controller.fetchedObjects?.isEmpty == true)
            alpha.setValue(11, forKey: "salary")
            #expect(alpha.hasRowOverlay == !converted)
            context.processPendingChanges()
            #expect(recorder.changes.count == 1)
            #expect(recorder.changes.first?.object === alpha)
            #expect(recorder.changes.first?.type == .insert)
            #expect(
                controller.fetchedObjects?.count == 1 && controller.fetchedObjects?[0] === alpha)
            #expect(alpha.hasRowOverlay == !converted)
        }
    }

    @Test(arguments: StoreKind.all, [false, true])
    func aSaveAcrossTwoStoresLeavesEachObjectItsValuesAndItsStoresRow(
        _ kind: StoreKind, converted: Bool
    ) throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(name: "text", type: .string),
                    AttributeDescription(name: "n", type: .integer32),
                ])
        ])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let stores = [try kind.open(model), try kind.open(model)]
        for store in stores { try coordinator.addPersistentStore(store) }
        let seeding = Self.context(coordinator)
        try seeding.performAndWait { () throws in
            // a1 and a2 in the first store, b1 in the second.
            for (text, store) in [("a1", 0), ("b1", 1), ("a2", 0)] {
                let note = seeding.insertNewObject(forEntityName: "Note")
                note.setValue(text, forKey: "text")
                note.setValue(0, forKey: "n")
                seeding.assign(note, to: stores[store])
            }
            try seeding.save()
        }
        let context = Self.context(coordinator)
        try context.performAndWait { () throws in
            let r = FetchRequest<ManagedObject>(entityName: "Note")
            r.sortDescriptors = [FetchSortDescriptor(key: "text")]
            let notes = try context.fetch(r)
            #expect(notes.map { $0.value(forKey: "text") as? String } == ["a1", "a2", "b1"])
            if converted { for note in notes { note.materialiseRow() } }
            // Updates interleaved between the stores: a1, b1, a2.
            for (i, n) in [(0, 1), (2, 2), (1, 3)] { notes[i].setValue(n, forKey: "n") }
            #expect(notes.allSatisfy { $0.hasRowOverlay == !converted })
            try context.save()
            for (note, (text, n)) in zip(notes, [("a1", 1), ("a2", 3), ("b1", 2)]) {
                #expect(note.value(forKey: "text") as? String == text)
                #expect(note.value(forKey: "n") as? Int32 == Int32(n))
                #expect(!note.hasChanges && !note.hasRowOverlay)
                let store = try #require(
                    stores.first { $0.identifier == note.objectID.storeIdentifier })
                let stored = try #require(try store.row(for: note.objectID))
                #expect(stored.values[1] == .attribute(.integer(Int64(n))))
                // The row kept is the store's own (patched in place), not a copy.
                let kept = note.rowValues?.withUnsafeBufferPointer { $0.baseAddress }
                let own = stored.values.withUnsafeBufferPointer { $0.baseAddress }
                #expect((kept != nil && kept == own) == !converted)
            }
        }
    }
}
