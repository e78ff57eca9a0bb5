import Foundation
import ObjectGraph
import Testing

/// A save never writes a relationship to a row that does not exist when it commits.
///
/// Core Data refuses such a save with a validation error, code 1550
/// (`NSManagedObjectValidationError`), "Dangling reference to an invalid object", whose
/// `NSValidationErrorKey` names the relationship and whose `NSValidationErrorObject` is the
/// object holding it (see "Hunting down a 'Dangling reference to an invalid object' error",
/// mikeabdullah.net/dangling-ref-to-an-invalid-object.html, which dissects one such error's
/// userInfo, with the invalid destination under `NSValidationErrorValue`; and the
/// `Error Domain=NSCocoaErrorDomain Code=1550 … NSValidationErrorObject=…` report in
/// github.com/nofelmahmood/Seam/issues/6). Nothing of the save is written.
@Suite struct DanglingReferenceTests {
    /// Folder ←(required) Note; deleting a folder cascades to its notes.
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Folder",
                properties: [
                    AttributeDescription(name: "name", type: .string, isOptional: false),
                    RelationshipDescription(
                        name: "notes", destination: "Note", inverse: "folder", isToMany: true,
                        deleteRule: .cascade),
                ]),
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(name: "title", type: .string, isOptional: false),
                    RelationshipDescription(
                        name: "folder", destination: "Folder", inverse: "notes",
                        isOptional: false, deleteRule: .nullify),
                    RelationshipDescription(
                        name: "tags", destination: "Tag", inverse: "notes", isToMany: true,
                        deleteRule: .nullify),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [
                    AttributeDescription(name: "name", type: .string, isOptional: false),
                    RelationshipDescription(
                        name: "notes", destination: "Note", inverse: "tags", isToMany: true,
                        deleteRule: .nullify),
                ]),
        ])
    }

    /// Every stored reference in `store` whose target row is missing.
    static func danglingReferences(in store: any PersistentStore) throws -> [String] {
        var problems: [String] = []
        for entity in store.model.entities {
            let rows = try store.fetch(
                StoreFetchRequest(entity: entity, includesSubentities: false))
            for row in rows {
                for r in entity.relationships where r.isStoredInRow {
                    let targets: [ManagedObjectID]
                    switch row.values[r.index] {
                    case .toOne(let id?): targets = [id]
                    case .toMany(let ids): targets = ids
                    default: targets = []
                    }
                    for t in targets where try store.row(for: t) == nil {
                        problems.append("\(entity.name).\(r.name) → \(t)")
                    }
                }
            }
        }
        return problems
    }

    @Test(arguments: StoreKind.all)
    func aChildEditPointingAtARowDeletedElsewhereIsRefusedWithNothingWritten(_ kind: StoreKind)
        throws
    {
        let model = try Self.model()
        let store = try kind.open(model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let view = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        view.mergePolicy = .mergeByPropertyObjectTrump
        // The view context's folder is kept here, as a screen showing it would: a context
        // keeps an unchanged object only while something references it.
        let (folderID, shownFolder) = try view.performAndWait {
            let folder = view.insertNewObject(forEntityName: "Folder")
            folder.setValue("Inbox", forKey: "name")
            let other = view.insertNewObject(forEntityName: "Folder")
            other.setValue("Other", forKey: "name")
            try view.save()
            return (folder.objectID, folder)
        }
        defer { withExtendedLifetime(shownFolder) {} }
        // Another context deletes the folder and saves; the view context has not merged it.
        let background = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        try background.performAndWait {
            background.delete(try background.existingObject(with: folderID))
            try background.save()
        }
        // A child of the view context files a new note in the (stale) folder.
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = view
        try child.performAndWait {
            let note = child.insertNewObject(forEntityName: "Note")
            note.setValue("Groceries", forKey: "title")
            note.setValue(child.object(with: folderID), forKey: "folder")
            try child.save()
        }
        let noteEntity = model.entitiesByName["Note"]!
        let before = try store.count(StoreFetchRequest(entity: noteEntity))
        let fileBytes = try Self.fileSize(store)
        let error = view.performAndWait { () -> NSError? in
            do {
                try view.save()
                return nil
            } catch {
                return error as NSError
            }
        }
        #expect(error?.domain == NSCocoaErrorDomain)
        #expect(error?.code == NSManagedObjectValidationError)
        #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "folder")
        #expect(error?.localizedDescription.contains("Dangling reference") == true)
        view.performAndWait {
            let source = error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject
            #expect(source?.entity.name == "Note")
            #expect(source?.value(forKey: "title") as? String == "Groceries")
            let target = error?.userInfo[NSValidationValueErrorKey] as? ManagedObject
            #expect(target?.objectID == folderID)
            #expect(view.hasChanges)  // the context keeps its changes
        }
        #expect(try store.count(StoreFetchRequest(entity: noteEntity)) == before)
        #expect(try Self.fileSize(store) == fileBytes)
        #expect(try Self.danglingReferences(in: store).isEmpty)
        // Filed in a folder that exists, the same note saves.
        try view.performAndWait {
            let other = try view.fetch(FetchRequest<ManagedObject>(entityName: "Folder"))
                .first { ($0.value(forKey: "name") as? String) == "Other" }!
            let note = view.insertedObjects.first { $0.entity.name == "Note" }!
            note.setValue(other, forKey: "folder")
            try view.save()
        }
        #expect(try store.count(StoreFetchRequest(entity: noteEntity)) == before + 1)
        let reopened = try kind.reopen(store, model)
        #expect(try Self.danglingReferences(in: reopened).isEmpty)
        if let file = reopened as? JSONLinesStore, let url = file.url {
            file.close()
            let report = JSONLinesStore.verify(at: url)
            #expect(report.isHealthy, "\(report.problems)")
        }
    }

    /// The store file's size, or 0 for a RAM store.
    static func fileSize(_ store: any PersistentStore) throws -> Int {
        guard let url = store.url, store is JSONLinesStore else { return 0 }
        return try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int ?? -1
    }
}
