import Foundation
import Testing

@testable import ObjectGraph

/// A deleted object that keeps its store row: delete propagation reads its to-ones from the
/// row's keys without converting the row, and when the save takes it out of the context it
/// keeps the row and resolves only its relationships, answering afterwards what it answered
/// when the whole row was converted into slots there.
@Suite struct DeletedRowBackedObjectTests {
    /// `Department(name)` ⟷ `Employee(name, salary, department)` with R&D's alpha (10),
    /// bravo (20) and charlie (30), saved on a fresh store of `kind`.
    private func staff(_ kind: StoreKind) throws -> Stack {
        let stack = try Stack(try StaffModel.make(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let d = StaffModel.department("R&D", in: context)
            for (name, salary) in [("alpha", 10), ("bravo", 20), ("charlie", 30)] {
                StaffModel.employee(name, salary: salary, department: d, in: context)
            }
            try context.save()
        }
        return stack
    }

    private func names(_ objects: Any?) -> [String] {
        ((objects as? Set<ManagedObject>) ?? []).compactMap { $0.value(forKey: "name") as? String }
            .sorted()
    }

    /// alpha fired (its row kept) and bravo still a fault are deleted: the nullify rule takes
    /// both out of R&D's employees without converting their rows (bravo's fault fires into
    /// its row), both leave the context at the save still keeping their rows, each points at
    /// R&D after it, with its attributes, and the store and a reopened store keep charlie
    /// alone. (The lead's review of `del`: alpha was read before the save, which converted its
    /// row, so only bravo took the new path.)
    @Test(arguments: StoreKind.all)
    func deletePropagationReadsADeletedObjectsToOneFromItsRow(_ kind: StoreKind) throws {
        let stack = try staff(kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let r = FetchRequest<ManagedObject>(entityName: "Employee")
            r.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let all = try context.fetch(r)
            let (alpha, bravo) = (all[0], all[1])
            #expect(alpha.value(forKey: "name") as? String == "alpha")
            #expect(alpha.rowValues != nil)
            #expect(bravo.isFault)
            let department = try #require(
                context.fetch(FetchRequest<ManagedObject>(entityName: "Department")).first)
            context.delete(alpha)
            context.delete(bravo)
            context.processPendingChanges()
            #expect(alpha.rowValues != nil)
            #expect(bravo.rowValues != nil)
            #expect(names(department.value(forKey: "employees")) == ["charlie"])
            // Neither deleted object is read before the save, so both leave the context with
            // their rows (reading one's department here would convert its row into slots).
            #expect(alpha.rowValues != nil && bravo.rowValues != nil)
            try context.save()
            #expect(alpha.rowValues != nil && bravo.rowValues != nil)
            for (object, name, salary) in [(alpha, "alpha", 10), (bravo, "bravo", 20)] {
                #expect(object.managedObjectContext == nil)
                #expect(context.registeredObject(for: object.objectID) == nil)
                #expect(object.value(forKey: "name") as? String == name)
                #expect(object.value(forKey: "salary") as? Int32 == Int32(salary))
                #expect(object.value(forKey: "department") as? ManagedObject === department)
            }
            #expect(names(department.value(forKey: "employees")) == ["charlie"])
        }
        #expect(try stack.rows("Employee").count == 1)
        let reopened = try stack.reopen()
        let again = reopened.context()
        try again.performAndWait { () throws in
            let d = try #require(
                again.fetch(FetchRequest<ManagedObject>(entityName: "Department")).first)
            #expect(names(d.value(forKey: "employees")) == ["charlie"])
        }
    }

    /// `Note(title, scratch transient)` with `author` (a to-one) and `labels` (a to-many kept
    /// in the row), neither with an inverse, so deleting a note reads neither.
    private func notes() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(
                        name: "scratch", type: .string, isTransient: true, defaultValue: "blank"),
                    RelationshipDescription(name: "author", destination: "Person"),
                    RelationshipDescription(name: "labels", destination: "Label", isToMany: true),
                ]),
            EntityDescription(
                name: "Person", properties: [AttributeDescription(name: "name", type: .string)]),
            EntityDescription(
                name: "Label", properties: [AttributeDescription(name: "name", type: .string)]),
        ])
    }

    /// Two notes read from their rows and deleted, one with an author and two labels, one
    /// with neither, and a person with no relationship at all: after the save each keeps its
    /// row's values — the title, the transient
    /// attribute's default, the author (the registered object) or `nil`, the labels (the
    /// registered objects) or none — as when the whole row was converted at the save.
    @Test(arguments: StoreKind.all)
    func aSavedDeletionKeepsEveryKindOfRelationshipItsRowHeld(_ kind: StoreKind) throws {
        let stack = try Stack(try notes(), on: kind)
        let seed = stack.context()
        try seed.performAndWait { () throws in
            let ann = seed.insertNewObject(forEntityName: "Person")
            ann.setValue("ann", forKey: "name")
            let labels = ["red", "blue"].map { name -> ManagedObject in
                let label = seed.insertNewObject(forEntityName: "Label")
                label.setValue(name, forKey: "name")
                return label
            }
            let full = seed.insertNewObject(forEntityName: "Note")
            full.setValue("full", forKey: "title")
            full.setValue(ann, forKey: "author")
            full.setValue(Set(labels), forKey: "labels")
            seed.insertNewObject(forEntityName: "Note").setValue("bare", forKey: "title")
            seed.insertNewObject(forEntityName: "Person").setValue("bob", forKey: "name")
            try seed.save()
        }
        let context = stack.context()
        try context.performAndWait { () throws in
            let r = FetchRequest<ManagedObject>(entityName: "Note")
            r.sortDescriptors = [FetchSortDescriptor(key: "title")]
            let fetched = try context.fetch(r)
            let (bare, full) = (fetched[0], fetched[1])
            let people = FetchRequest<ManagedObject>(entityName: "Person")
            people.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let (ann, bob) = try context.fetch(people).pair()
            let labels = try context.fetch(FetchRequest<ManagedObject>(entityName: "Label"))
            #expect(full.value(forKey: "title") as? String == "full")
            #expect(bare.value(forKey: "title") as? String == "bare")
            #expect(full.rowValues != nil && bare.rowValues != nil)
            #expect(bob.value(forKey: "name") as? String == "bob" && bob.rowValues != nil)
            context.delete(full)
            context.delete(bare)
            context.delete(bob)
            try context.save()
            // A row with no relationship value to resolve (a Person: one attribute) leaves too.
            #expect(
                bob.managedObjectContext == nil && bob.value(forKey: "name") as? String == "bob")
            #expect(full.managedObjectContext == nil && bare.managedObjectContext == nil)
            #expect(full.value(forKey: "title") as? String == "full")
            #expect(full.value(forKey: "scratch") as? String == "blank")
            #expect(full.value(forKey: "author") as? ManagedObject === ann)
            let held = (full.value(forKey: "labels") as? Set<ManagedObject>) ?? []
            #expect(held == Set(labels) && held.count == 2)
            #expect(bare.value(forKey: "title") as? String == "bare")
            #expect(bare.value(forKey: "scratch") as? String == "blank")
            #expect(bare.value(forKey: "author") == nil)
            #expect((bare.value(forKey: "labels") as? Set<ManagedObject>)?.isEmpty == true)
        }
        #expect(try stack.rows("Note").isEmpty)
        #expect(try stack.rows("Person").count == 1)
    }
}

/// What a deleted object answers from its kept row after the save, in the two places the
/// thirteenth session left untested: a stored object merged away by a uniqueness constraint
/// (the save detaches it, as it takes deleted objects out), and a deleted object's own
/// `didSave()`. Each runs with the row kept and with the row converted into slots first (as
/// a relationship write or read converts it; a write of an attribute is kept over the row),
/// and both must answer the same.
@Suite struct LeavingRowBackedObjectTests {
    /// Records what a deleted desk clerk reads in `didSave()`.
    final class Clerk: ManagedObject {
        @Attribute var name: String?
        @Attribute var salary: Int32
        @Relationship var desk: Desk?
        var seenAtDidSave: [String] = []

        override func didSave() {
            super.didSave()
            guard isDeleted else { return }
            seenAtDidSave.append(
                "\(isDeleted) \(name ?? "-") \(salary) \(desk?.label ?? "-") "
                    + "\(managedObjectContext != nil)")
        }
    }

    final class Desk: ManagedObject {
        @Attribute var label: String?
        @Relationship var clerks: Set<Clerk>
    }

    private func office() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Clerk", managedObjectClass: Clerk.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "salary", type: .integer32, defaultValue: 0),
                    RelationshipDescription(name: "desk", destination: "Desk", inverse: "clerks"),
                ]),
            EntityDescription(
                name: "Desk", managedObjectClass: Desk.self,
                properties: [
                    AttributeDescription(name: "label", type: .string),
                    RelationshipDescription(
                        name: "clerks", destination: "Clerk", inverse: "desk", isToMany: true),
                ]),
        ])
    }

    /// A deleted clerk's `didSave()` runs while it still counts as deleted (Core Data's
    /// documented use: `didSave()` checks `isDeleted` to clean up after a deletion) and, with
    /// its row kept or converted, reads its attributes and its desk — the to-one resolved
    /// before the save took the clerks out of the context — as they were before the delete.
    @Test(arguments: StoreKind.all, [false, true])
    func aDeletedObjectReadsItsKeptRowInsideDidSave(_ kind: StoreKind, converted: Bool) throws {
        let stack = try Stack(try office(), on: kind)
        let seed = stack.context()
        try seed.performAndWait { () throws in
            let desk = Desk(context: seed)
            desk.label = "front"
            for (name, salary) in [("ann", 10), ("bob", 20)] {
                let clerk = Clerk(context: seed)
                clerk.name = name
                clerk.salary = Int32(salary)
                clerk.desk = desk
            }
            try seed.save()
        }
        let context = stack.context()
        try context.performAndWait { () throws in
            let r = FetchRequest<Clerk>(entityName: "Clerk")
            r.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let clerks = try context.fetch(r)
            let desk = try #require(try context.fetch(FetchRequest<Desk>(entityName: "Desk")).first)
            #expect(desk.label == "front")
            for clerk in clerks {
                #expect(clerk.name != nil)
                if converted { clerk.materialiseRow() }
                #expect((clerk.rowValues != nil) == !converted)
                #expect(!clerk.hasChanges)
                context.delete(clerk)
            }
            try context.save()
            #expect(
                clerks.map(\.seenAtDidSave) == [
                    ["true ann 10 front true"], ["true bob 20 front true"],
                ])
            #expect(clerks.allSatisfy { $0.managedObjectContext == nil })
            #expect(clerks.map { $0.desk === desk } == [true, true])
            #expect(desk.clerks.isEmpty)
        }
        #expect(try stack.rows("Clerk").isEmpty)
    }

    /// A stored tag fetched and read (its row kept, or converted) loses to an insert with the
    /// same unique name under object trump: the save detaches it, and afterwards it answers
    /// its stored values and its favourite note (resolved while it was registered), on both
    /// stores, while the insert holds the stored row's ID.
    @Test(arguments: StoreKind.all, [false, true])
    func aMergedAwayStoredObjectKeepsAnsweringItsRowAfterTheSave(
        _ kind: StoreKind, converted: Bool
    ) throws {
        let stack = try Stack(IntegrityModels.upsert(), on: kind)
        let seeder = stack.context()
        let storedID = try seeder.performAndWait { () throws -> ManagedObjectID in
            let note = seeder.insertNewObject(forEntityName: "Note")
            note.setValue("n0", forKey: "text")
            let red = seeder.insertNewObject(forEntityName: "Tag")
            red.setValue("red", forKey: "name")
            red.setValue(Int16(1), forKey: "color")
            red.setValue("keep", forKey: "note")
            red.setValue(note, forKey: "favorite")
            try seeder.save()
            return red.objectID
        }
        let context = stack.context(.mergeByPropertyObjectTrump)
        try context.performAndWait { () throws in
            let n0 = try #require(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Note")).first)
            let old = try #require(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag")).first)
            #expect(old.value(forKey: "name") as? String == "red")
            if converted {
                old.setValue("keep", forKey: "note")
                old.materialiseRow()
            }
            #expect((old.rowValues != nil) == !converted)
            let new = context.insertNewObject(forEntityName: "Tag")
            new.setValue("red", forKey: "name")
            new.setValue(Int16(9), forKey: "color")
            try context.save()
            #expect(new.objectID == storedID)
            #expect(context.registeredObject(for: storedID) === new)
            #expect(old.managedObjectContext == nil)
            #expect(old.value(forKey: "name") as? String == "red")
            #expect(old.value(forKey: "color") as? Int16 == 1)
            #expect(old.value(forKey: "note") as? String == "keep")
            #expect(old.value(forKey: "favorite") as? ManagedObject === n0)
            #expect(new.value(forKey: "color") as? Int16 == 9)
        }
        #expect(try stack.rows("Tag").count == 1)
    }
}

extension Array {
    /// The first two elements (the test's fetch returns exactly two).
    fileprivate func pair() throws -> (Element, Element) {
        try #require(count == 2)
        return (self[0], self[1])
    }
}
