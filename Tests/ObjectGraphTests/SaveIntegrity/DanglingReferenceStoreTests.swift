import Foundation
import ObjectGraph
import Testing

/// The stores' own check that a change set writes no reference to a missing row (Core
/// Data's 1550 "Dangling reference to an invalid object"; see ``DanglingReferenceTests``),
/// and batch deletes, which apply no delete rules, left as Core Data leaves them.
@Suite struct DanglingReferenceStoreTests {
    private struct Stack {
        let model: ManagedObjectModel
        let store: any PersistentStore
        var folder: EntityDescription { model.entitiesByName["Folder"]! }
        var note: EntityDescription { model.entitiesByName["Note"]! }
        var tag: EntityDescription { model.entitiesByName["Tag"]! }

        init(_ kind: StoreKind) throws {
            model = try DanglingReferenceTests.model()
            store = try kind.open(model)
        }

        func id(_ entity: EntityDescription) throws -> ManagedObjectID {
            ManagedObjectID(
                entity: entity, storeIdentifier: store.identifier,
                primaryKey: try store.allocatePrimaryKeys(for: entity, count: 1)[0])
        }

        func folderRow(_ id: ManagedObjectID, _ name: String) -> StoreRow {
            StoreRow(objectID: id, version: 1, values: [.attribute(.string(name)), .notStored])
        }

        func tagRow(_ id: ManagedObjectID, notes: [ManagedObjectID] = []) -> StoreRow {
            StoreRow(objectID: id, version: 1, values: [.attribute("t"), .toMany(notes)])
        }

        func noteRow(
            _ id: ManagedObjectID, folder: ManagedObjectID?, tags: [ManagedObjectID] = [],
            version: Int64 = 1, title: String = "n"
        ) -> StoreRow {
            StoreRow(
                objectID: id, version: version,
                values: [.attribute(.string(title)), .toOne(folder), .toMany(tags)])
        }

        func commit(
            inserted: [StoreRow] = [], updated: [StoreRow] = [],
            deleted: [(objectID: ManagedObjectID, version: Int64)] = []
        ) throws {
            try store.commit(
                StoreChangeSet(
                    inserted: inserted, updated: updated, deleted: deleted,
                    timestamp: Date(timeIntervalSinceReferenceDate: 0)))
        }

        /// Commits and returns the error, asserting that nothing was written.
        func refused(
            inserted: [StoreRow] = [], updated: [StoreRow] = [],
            deleted: [(objectID: ManagedObjectID, version: Int64)] = []
        ) throws -> ObjectGraphError? {
            let rows = try model.entities.map { try store.fetch(StoreFetchRequest(entity: $0)) }
            let bytes = try DanglingReferenceTests.fileSize(store)
            var caught: ObjectGraphError?
            do {
                try commit(inserted: inserted, updated: updated, deleted: deleted)
            } catch let error as ObjectGraphError {
                caught = error
            }
            #expect(
                try model.entities.map { try store.fetch(StoreFetchRequest(entity: $0)) } == rows)
            #expect(try DanglingReferenceTests.fileSize(store) == bytes)
            return caught
        }
    }

    /// A patch (the update save's form) adding a to-many member that does not exist is
    /// refused in a change set that deletes nothing, where attribute-only patches skip the
    /// reference check (review of `upd`: no test wrote a to-many through a patch).
    @Test(arguments: StoreKind.all)
    func aPatchAddingAMissingToManyMemberIsRefused(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let (inbox, note, tag) = (try s.id(s.folder), try s.id(s.note), try s.id(s.tag))
        try s.commit(inserted: [
            s.folderRow(inbox, "Inbox"), s.noteRow(note, folder: inbox, tags: [tag]),
            s.tagRow(tag, notes: [note]),
        ])
        let missing = ManagedObjectID(
            entity: s.tag, storeIdentifier: s.store.identifier, primaryKey: 999)
        let before = try s.store.row(for: note)
        let error = expectNSError {
            try s.store.commit(
                StoreChangeSet(
                    patched: [
                        StoreRowPatch(
                            objectID: note, version: 2, slots: [2],
                            values: [.toMany([tag, missing])])
                    ], timestamp: Date(timeIntervalSinceReferenceDate: 0)))
        }
        #expect(error?.code == 1550)
        #expect(error?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == missing)
        #expect(try s.store.row(for: note) == before)
    }

    /// The deleted IDs are gathered only when a reference is checked against them, whatever
    /// comes first: a change set that deletes a row and updates or patches only attributes of
    /// rows not pointing at it is accepted; one whose patch, after an update writing no
    /// reference, keeps its note's to-one to a row the change set deletes is refused naming
    /// that row, and so is one whose update keeps a tag's to-many member the change set
    /// deletes.
    @Test(arguments: StoreKind.all)
    func deletionsAreCheckedByTheFirstReferenceThatCouldDangle(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let (inbox, gone, spare) = (try s.id(s.folder), try s.id(s.folder), try s.id(s.folder))
        let (kept, moved, tag) = (try s.id(s.note), try s.id(s.note), try s.id(s.tag))
        try s.commit(inserted: [
            s.folderRow(inbox, "Inbox"), s.folderRow(gone, "Gone"), s.folderRow(spare, "Spare"),
            s.noteRow(kept, folder: gone), s.noteRow(moved, folder: inbox),
            s.tagRow(tag, notes: [kept]),
        ])
        let renamed = StoreRow(
            objectID: inbox, version: 2, values: [.attribute("Renamed"), .notStored])
        func commit(patching note: ManagedObjectID, deleting: ManagedObjectID) throws {
            try s.store.commit(
                StoreChangeSet(
                    updated: [renamed], deleted: [(deleting, 1)],
                    patched: [
                        StoreRowPatch(
                            objectID: note, version: 2, slots: [0], values: [.attribute("t2")])
                    ], timestamp: Date(timeIntervalSinceReferenceDate: 0)))
        }
        let before = try s.model.entities.map { try s.store.fetch(StoreFetchRequest(entity: $0)) }
        let error = expectNSError { try commit(patching: kept, deleting: gone) }
        #expect(error?.code == 1550)
        #expect(error?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == gone)
        #expect(
            try s.model.entities.map { try s.store.fetch(StoreFetchRequest(entity: $0)) } == before)
        let tagError = try s.refused(
            updated: [
                StoreRow(objectID: tag, version: 2, values: [.attribute("t"), .toMany([kept])])
            ], deleted: [(kept, 1)])
        #expect(tagError?.reason == .danglingReference)
        #expect(tagError?.key == "notes")
        #expect(tagError?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == kept)
        try commit(patching: moved, deleting: spare)
        #expect(try s.store.row(for: spare) == nil)
        #expect(try s.store.row(for: inbox)?.values[0] == .attribute("Renamed"))
        #expect(
            try s.store.row(for: moved)?.values == [.attribute("t2"), .toOne(inbox), .toMany([])])
    }

    /// Many inserted rows pointing at a few targets (the check remembers the targets it has
    /// found) still have each reference checked: after 400 references to 200 folders, a note
    /// pointing at a folder that does not exist, or at one the same change set deletes, is
    /// refused naming it, and the same rows without it are accepted.
    @Test(arguments: StoreKind.all)
    func manyReferencesToFoundTargetsStillRefuseAMissingOne(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let folders = try (0..<200).map { _ in try s.id(s.folder) }
        try s.commit(inserted: folders.enumerated().map { s.folderRow($1, "f\($0)") })
        let notes = try (0..<400).map { i in
            s.noteRow(try s.id(s.note), folder: folders[(i * 7) % folders.count])
        }
        let missing = ManagedObjectID(
            entity: s.folder, storeIdentifier: s.store.identifier, primaryKey: 9_999)
        let late = try s.id(s.note)
        let error = try s.refused(inserted: notes + [s.noteRow(late, folder: missing)])
        #expect(error?.reason == .danglingReference)
        #expect(error?.objectID == late)
        #expect(error?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == missing)
        // A folder found for earlier rows is still checked against the deletions.
        let deletedFolder = folders[3]
        let rest = notes.filter {
            guard case .toOne(let target?) = $0.values[1] else { return true }
            return target != deletedFolder
        }
        let deleting = try s.refused(
            inserted: rest + [s.noteRow(late, folder: deletedFolder)], deleted: [(deletedFolder, 1)]
        )
        #expect(deleting?.reason == .danglingReference)
        #expect(deleting?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == deletedFolder)
        try s.commit(inserted: notes)
        #expect(try s.store.fetch(StoreFetchRequest(entity: s.note)).count == 400)
    }

    /// Targets the same change set inserts are found wherever they stand among its rows,
    /// first or last (the check scans the inserted rows while its budget, one pass over the
    /// rows in all, lasts; then a set of the inserted IDs answers), to-one and to-many alike;
    /// a missing target is refused in both orders, whether it is the first target looked for
    /// or comes after the set is made.
    @Test(arguments: StoreKind.all)
    func targetsInsertedInTheSameChangeSetAreFoundFirstOrLast(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let missing = ManagedObjectID(
            entity: s.folder, storeIdentifier: s.store.identifier, primaryKey: 9_999)
        for targetsFirst in [true, false] {
            let folders = try (0..<30).map { _ in try s.id(s.folder) }
            let tags = try (0..<5).map { _ in try s.id(s.tag) }
            let notes = try (0..<300).map { i in
                s.noteRow(
                    try s.id(s.note), folder: folders[(i * 7) % folders.count],
                    tags: i % 3 == 0 ? [tags[i % tags.count]] : [])
            }
            let targets =
                folders.enumerated().map { s.folderRow($1, "f\($0)") }
                + tags.map { s.tagRow($0) }
            let rows = targetsFirst ? targets + notes : notes + targets
            // The missing folder looked for first (no target found yet), then last.
            let early = try s.id(s.note)
            let first = try s.refused(inserted: [s.noteRow(early, folder: missing)] + rows)
            #expect(first?.reason == .danglingReference)
            #expect(first?.objectID == early)
            #expect(first?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == missing)
            let late = try s.id(s.note)
            let last = try s.refused(inserted: rows + [s.noteRow(late, folder: missing)])
            #expect(last?.objectID == late)
            #expect(last?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == missing)
            let missingTag = ManagedObjectID(
                entity: s.tag, storeIdentifier: s.store.identifier, primaryKey: 9_999)
            let tagged = try s.refused(
                inserted: rows + [s.noteRow(late, folder: folders[0], tags: [missingTag])])
            #expect(tagged?.key == "tags")
            #expect(tagged?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == missingTag)
            try s.commit(inserted: rows)
            for note in notes {
                let row = try #require(try s.store.row(for: note.objectID))
                #expect(row.values[1] == note.values[1])
            }
        }
        #expect(try s.store.fetch(StoreFetchRequest(entity: s.note)).count == 600)
        #expect(try s.store.fetch(StoreFetchRequest(entity: s.folder)).count == 60)
    }

    /// A missing target looked for when a scan runs out of the budget partway (one scan found
    /// the first target, the next reads the rest of the rows without a match) is refused by
    /// the set of inserted IDs made then: three rows, the `w1i` review's input.
    @Test(arguments: StoreKind.all)
    func aTargetMissingWhenTheScanRunsOutPartwayIsRefused(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let missing = ManagedObjectID(
            entity: s.folder, storeIdentifier: s.store.identifier, primaryKey: 9_999)
        let folder = try s.id(s.folder)
        let (first, second) = (try s.id(s.note), try s.id(s.note))
        let error = try s.refused(inserted: [
            s.folderRow(folder, "F"), s.noteRow(first, folder: folder),
            s.noteRow(second, folder: missing),
        ])
        #expect(error?.code == 1550)
        #expect(error?.reason == .danglingReference)
        #expect(error?.objectID == second)
        #expect(error?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == missing)
        #expect(try s.store.fetch(StoreFetchRequest(entity: s.note)).isEmpty)
    }

    @Test(arguments: StoreKind.all)
    func anInsertPointingAtARowTheSameSaveDeletesIsRefused(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let inbox = try s.id(s.folder)
        try s.commit(inserted: [s.folderRow(inbox, "Inbox")])
        let error = try s.refused(
            inserted: [s.noteRow(try s.id(s.note), folder: inbox)], deleted: [(inbox, 1)])
        #expect(error?.reason == .danglingReference)
        #expect(error?.key == "folder")
        #expect(error?.entityName == "Note")
        #expect(error?.message.contains("Dangling reference to an invalid object") == true)
        #expect(error?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == inbox)
    }

    @Test(arguments: StoreKind.all)
    func aToManyMemberThatDoesNotExistIsRefused(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let inbox = try s.id(s.folder)
        try s.commit(inserted: [s.folderRow(inbox, "Inbox")])
        let neverSaved = try s.id(s.tag)
        let error = try s.refused(
            inserted: [s.noteRow(try s.id(s.note), folder: inbox, tags: [neverSaved])])
        #expect(error?.reason == .danglingReference)
        #expect(error?.key == "tags")
    }

    @Test(arguments: StoreKind.all)
    func anUpdateMovingAReferenceToAMissingRowIsRefused(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let (inbox, gone, note) = (try s.id(s.folder), try s.id(s.folder), try s.id(s.note))
        try s.commit(
            inserted: [
                s.folderRow(inbox, "Inbox"), s.folderRow(gone, "Gone"),
                s.noteRow(note, folder: inbox),
            ])
        try s.commit(deleted: [(gone, 1)])
        let error = try s.refused(updated: [s.noteRow(note, folder: gone, version: 2)])
        #expect(error?.key == "folder")
        let tag = try s.id(s.tag)
        let tagError = try s.refused(updated: [
            s.noteRow(note, folder: inbox, tags: [tag], version: 2)
        ])
        #expect(tagError?.key == "tags")
    }

    /// An update that keeps its to-one pointing at a row the same change set deletes writes
    /// a dangling reference, though the reference itself did not change.
    @Test(arguments: StoreKind.all)
    func anUpdateKeepingAReferenceToARowTheSameSaveDeletesIsRefused(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let (inbox, note) = (try s.id(s.folder), try s.id(s.note))
        try s.commit(inserted: [s.folderRow(inbox, "Inbox"), s.noteRow(note, folder: inbox)])
        let error = try s.refused(
            updated: [s.noteRow(note, folder: inbox, version: 2, title: "renamed")],
            deleted: [(inbox, 1)])
        #expect(error?.reason == .danglingReference)
        #expect(error?.key == "folder")
        #expect(error?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == inbox)
    }

    /// The store checks every version before any reference: a change set with a dangling
    /// update and a stale row elsewhere reports the conflict (134050), as it did when the
    /// references were checked in a pass of their own after the versions.
    @Test(arguments: StoreKind.all)
    func aStaleVersionIsReportedBeforeAnotherUpdatesDanglingReference(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let (inbox, gone) = (try s.id(s.folder), try s.id(s.folder))
        let (first, second) = (try s.id(s.note), try s.id(s.note))
        try s.commit(
            inserted: [
                s.folderRow(inbox, "Inbox"), s.folderRow(gone, "Gone"),
                s.noteRow(first, folder: inbox), s.noteRow(second, folder: inbox),
            ])
        try s.commit(deleted: [(gone, 1)])
        let error = try s.refused(updated: [
            s.noteRow(first, folder: gone, version: 2),
            s.noteRow(second, folder: inbox, version: 3, title: "stale"),
        ])
        #expect(error?.reason == .storeSaveConflict)
        #expect(error?.objectID == second)
        // With the versions right, the same dangling update is what fails.
        let dangling = try s.refused(updated: [
            s.noteRow(first, folder: gone, version: 2),
            s.noteRow(second, folder: inbox, version: 2, title: "fresh"),
        ])
        #expect(dangling?.reason == .danglingReference)
        #expect(dangling?.objectID == first)
    }

    @Test(arguments: StoreKind.all)
    func referencesToRowsInsertedByTheSameSaveAreAccepted(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let (inbox, note, tag) = (try s.id(s.folder), try s.id(s.note), try s.id(s.tag))
        // The note comes before the rows it points at.
        try s.commit(inserted: [
            s.noteRow(note, folder: inbox, tags: [tag]), s.tagRow(tag, notes: [note]),
            s.folderRow(inbox, "Inbox"),
        ])
        #expect(try s.store.row(for: note) != nil)
        #expect(try DanglingReferenceTests.danglingReferences(in: s.store).isEmpty)
    }

    /// Core Data's batch delete runs in the store, bypassing the context: validation rules are
    /// not enforced and delete rules are not applied (Core Data Batch Programming Guide,
    /// "Batch Deletes", developer.apple.com/library/content/featuredarticles/CoreData_Batch_Guide/
    /// BatchDeletes/BatchDeletes.html; `NSBatchDeleteRequest` documentation). References to the
    /// deleted rows stay, `verify` reports them, and later saves that keep such a reference
    /// unchanged still succeed: the dangling reference is not theirs.
    @Test(arguments: StoreKind.all)
    func aBatchDeleteLeavesReferencesThatVerifyReportsAndLaterSavesKeep(_ kind: StoreKind) throws {
        let s = try Stack(kind)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: s.model)
        try coordinator.addPersistentStore(s.store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let (noteID, inboxID) = try context.performAndWait {
            let inbox = context.insertNewObject(forEntityName: "Folder")
            inbox.setValue("Inbox", forKey: "name")
            let note = context.insertNewObject(forEntityName: "Note")
            note.setValue("Call", forKey: "title")
            note.setValue(inbox, forKey: "folder")
            try context.save()
            let delete = BatchDeleteRequest(objectIDs: [inbox.objectID])
            _ = try context.execute(delete)
            return (note.objectID, inbox.objectID)
        }
        let noteRow = try #require(try s.store.row(for: noteID))
        #expect(noteRow["folder"] == .toOne(inboxID))  // no delete rule ran
        #expect(try DanglingReferenceTests.danglingReferences(in: s.store).count == 1)
        // A batch update and a context edit of the note keep the reference and save.
        let update = BatchUpdateRequest(entityName: "Note")
        update.propertiesToUpdate = ["title": "Call back"]
        _ = try context.performAndWait { try context.execute(update) }
        let fresh = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try fresh.performAndWait {
            let note = try fresh.existingObject(with: noteID)
            note.setValue("Call again", forKey: "title")
            try fresh.save()
        }
        #expect(try s.store.row(for: noteID)?["title"] == .attribute("Call again"))
        if let file = s.store as? JSONLinesStore, let url = file.url {
            file.close()
            let report = JSONLinesStore.verify(at: url)
            #expect(
                report.problems.map(\.message) == [
                    "Note p1.folder points to Folder p1, which does not exist"
                ])
        }
    }
}
