import Foundation
import ObjectGraph
import Testing

/// Faults a fetch returns (`returnsObjectsAsFaults`, the default) fire from the row the fetch
/// read, as Core Data's row cache fulfils them: with the default `stalenessInterval`
/// (negative, "infinite staleness allowed", Apple's documentation of
/// `NSManagedObjectContext.stalenessInterval`) the previously fetched data is used, so a
/// save by another context that this one has not merged is not seen until a refresh or a
/// merge; a merge of that save makes the fault read the new row.
@Suite struct FetchedFaultTests {
    /// Two contexts on one store of `kind`; the writer has saved employees with `salaries`.
    private func contexts(_ kind: StoreKind, salaries: [String: Int]) throws -> (
        reader: ManagedObjectContext, writer: ManagedObjectContext
    ) {
        let reader = try StaffModel.context(kind)
        let writer = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: reader.persistentStoreCoordinator!)
        try writer.performAndWait { () throws in
            for (name, salary) in salaries { StaffModel.employee(name, salary: salary, in: writer) }
            try writer.save()
        }
        return (reader, writer)
    }

    private func byName() -> FetchRequest<ManagedObject> {
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return r
    }

    /// Sets every employee's salary to `salary` in `writer` and saves; returns the did-save
    /// notification.
    private func raiseAll(to salary: Int, in writer: ManagedObjectContext) throws -> Notification {
        let note = UncheckedSendable(NoteBox())
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: writer, queue: nil
        ) { note.value.note = $0 }
        defer { NotificationCenter.default.removeObserver(token) }
        try writer.performAndWait { () throws in
            for e in try writer.fetch(FetchRequest<ManagedObject>(entityName: "Employee")) {
                e.setValue(salary, forKey: "salary")
            }
            try writer.save()
        }
        return try #require(note.value.note)
    }

    final class NoteBox { var note: Notification? }

    @Test(arguments: StoreKind.all)
    func aFetchedFaultFiredAfterAnotherContextsSaveShowsTheRowItWasFetchedWith(
        _ kind: StoreKind
    ) throws {
        let (reader, writer) = try contexts(kind, salaries: ["alpha": 22, "bravo": 25])
        let fetched = try reader.performAndWait { () throws in try reader.fetch(byName()) }
        reader.performAndWait { #expect(fetched.allSatisfy { $0.isFault }) }
        _ = try raiseAll(to: 99, in: writer)
        try reader.performAndWait { () throws in
            #expect(fetched.map { $0.value(forKey: "salary") as? Int32 } == [22, 25])
            #expect(fetched.allSatisfy { !$0.isFault })
            // The object's version is the fetched row's: a change saved from it conflicts.
            fetched[0].setValue("alpha!", forKey: "name")
            let error = #expect(throws: ObjectGraphError.self) { try reader.save() }
            #expect(error?.code == 133020)
            reader.rollback()
            reader.refresh(fetched[1], mergeChanges: false)
            #expect(fetched[1].value(forKey: "salary") as? Int32 == 99)
        }
    }

    @Test(arguments: StoreKind.all)
    func aFetchedFaultFiredAfterAMergedSaveShowsTheNewRow(_ kind: StoreKind) throws {
        let (reader, writer) = try contexts(kind, salaries: ["alpha": 22, "bravo": 25])
        let fetched = try reader.performAndWait { () throws in try reader.fetch(byName()) }
        let note = try raiseAll(to: 99, in: writer)
        try reader.performAndWait { () throws in
            reader.mergeChanges(fromContextDidSave: note)
            #expect(fetched.allSatisfy { $0.isFault })
            #expect(fetched.map { $0.value(forKey: "salary") as? Int32 } == [99, 99])
            fetched[0].setValue("alpha!", forKey: "name")
            try reader.save()
        }
    }

    @Test(arguments: StoreKind.all)
    func aFetchedFaultFiredAfterAMergedDeletionIsDeleted(_ kind: StoreKind) throws {
        let (reader, writer) = try contexts(kind, salaries: ["alpha": 22, "bravo": 25])
        let fetched = try reader.performAndWait { () throws in try reader.fetch(byName()) }
        let note = UncheckedSendable(NoteBox())
        let token = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: writer, queue: nil
        ) { note.value.note = $0 }
        defer { NotificationCenter.default.removeObserver(token) }
        try writer.performAndWait { () throws in
            let all = try writer.fetch(byName())
            writer.delete(all[0])
            try writer.save()
        }
        try reader.performAndWait { () throws in
            reader.mergeChanges(fromContextDidSave: try #require(note.value.note))
            #expect(fetched[0].isDeleted)
            #expect(fetched[0].value(forKey: "salary") == nil)
            #expect(!fetched[1].isDeleted)
            #expect(fetched[1].value(forKey: "salary") as? Int32 == 25)
        }
    }

    @Test(arguments: StoreKind.all)
    func aFetchedFaultsToOneIsTheRegisteredDestination(_ kind: StoreKind) throws {
        let reader = try StaffModel.context(kind)
        try reader.performAndWait { () throws in
            let d = StaffModel.department("R&D", in: reader)
            StaffModel.employee("alpha", salary: 1, department: d, in: reader)
            StaffModel.employee("bravo", salary: 2, department: d, in: reader)
            try reader.save()
            reader.reset()
            let department = try reader.fetch(FetchRequest<ManagedObject>(entityName: "Department"))
            let employees = try reader.fetch(byName())
            #expect(employees.allSatisfy { $0.isFault })
            for e in employees {
                #expect(e.value(forKey: "department") as? ManagedObject === department[0])
            }
            #expect(department[0].isFault)
            #expect(department[0].value(forKey: "name") as? String == "R&D")
        }
    }

    @Test(arguments: StoreKind.all)
    func refetchingAFiredObjectKeepsItsValuesAndAnUnfiredFaultTakesTheNewRow(
        _ kind: StoreKind
    ) throws {
        let (reader, writer) = try contexts(kind, salaries: ["alpha": 22, "bravo": 25])
        let fetched = try reader.performAndWait { () throws in try reader.fetch(byName()) }
        reader.performAndWait { _ = fetched[0].value(forKey: "salary") }
        _ = try raiseAll(to: 99, in: writer)
        try reader.performAndWait { () throws in
            let again = try reader.fetch(byName())
            #expect(again[0] === fetched[0])
            #expect(again[1] === fetched[1])
            #expect(fetched[0].value(forKey: "salary") as? Int32 == 22)
            #expect(fetched[1].value(forKey: "salary") as? Int32 == 99)
        }
    }
}
