import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// The permanent IDs an insert save gives its new objects (issue 25's W1): each object,
    /// every row and every reference to an object inserted in the same save get the same
    /// new ID, whatever the order in which objects of several entities were inserted.
    @Suite struct InsertSaveIDTests {
        /// `Folder(name)` ⟷ `File(name)` with the to-one `folder` and the to-many `files`.
        private func model() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Folder",
                    properties: [
                        AttributeDescription(name: "name", type: .string),
                        RelationshipDescription(
                            name: "files", destination: "File", inverse: "folder",
                            isToMany: true, deleteRule: .nullify),
                    ]),
                EntityDescription(
                    name: "File",
                    properties: [
                        AttributeDescription(name: "name", type: .string),
                        RelationshipDescription(
                            name: "folder", destination: "Folder", inverse: "files",
                            deleteRule: .nullify),
                    ]),
            ])
        }

        /// Folders and files inserted interleaved (so the IDs are allocated in another order
        /// than the objects were inserted), one folder made permanent beforehand with
        /// `obtainPermanentIDs`: after the save every object is registered under its own new
        /// ID and no longer under its temporary one, the did-save names exactly those IDs,
        /// and the store holds each file pointing at its folder.
        @Test(arguments: StoreKind.all)
        func eachNewObjectIsSavedRegisteredAndReferencedUnderItsNewID(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            let context = stack.context()
            let recorder = SaveRecorder(context)
            var expected: [String: String] = [:]  // file name → folder name
            try context.performAndWait {
                let early = context.insertNewObject(forEntityName: "Folder")
                early.setValue("early", forKey: "name")
                try context.obtainPermanentIDs(for: [early])
                let earlyID = early.objectID
                var folders = [early]
                var objects = [early]
                for i in 0..<12 {
                    if i % 4 == 0 {
                        let folder = context.insertNewObject(forEntityName: "Folder")
                        folder.setValue("folder \(i)", forKey: "name")
                        folders.append(folder)
                        objects.append(folder)
                    }
                    let file = context.insertNewObject(forEntityName: "File")
                    let folder = folders[(i * 7) % folders.count]
                    file.setValue("file \(i)", forKey: "name")
                    file.setValue(folder, forKey: "folder")
                    expected["file \(i)"] = folder.value(forKey: "name") as? String
                    objects.append(file)
                }
                let temporary = objects.map(\.objectID)
                #expect(temporary.dropFirst().allSatisfy { $0.isTemporaryID })
                try context.save()
                #expect(early.objectID == earlyID)
                let saved = objects.map(\.objectID)
                #expect(saved.allSatisfy { !$0.isTemporaryID })
                #expect(Set(saved).count == objects.count)
                for (object, id) in zip(objects, saved) {
                    #expect(context.registeredObject(for: id) === object)
                }
                for id in temporary.dropFirst() {
                    #expect(context.registeredObject(for: id) == nil)
                }
                #expect(recorder.insertedIDs == Set(saved))
                // Each stored file row names its folder's new ID.
                let folderOf = Dictionary(
                    uniqueKeysWithValues: folders.map { ($0.objectID, $0.value(forKey: "name")) })
                let fileRows = try stack.rows("File")
                #expect(fileRows.count == 12)
                let folderSlot = stack.model.entitiesByName["File"]!.properties.firstIndex {
                    $0.name == "folder"
                }!
                for row in fileRows {
                    let file = context.registeredObject(for: row.objectID)
                    let name = file?.value(forKey: "name") as? String ?? "?"
                    guard case .toOne(let target?) = row.values[folderSlot] else {
                        Issue.record("\(name) has no folder in the store")
                        continue
                    }
                    #expect(folderOf[target] as? String == expected[name])
                }
            }
            let reopened = try stack.reopen()
            let check = reopened.context()
            try check.performAndWait {
                let files = try check.fetch(FetchRequest<ManagedObject>(entityName: "File"))
                #expect(files.count == 12)
                for file in files {
                    let name = file.value(forKey: "name") as? String ?? "?"
                    let folder = file.value(forKey: "folder") as? ManagedObject
                    #expect(folder?.value(forKey: "name") as? String == expected[name])
                }
            }
        }

        /// Folders, then files, each entity's inserts in one run (a save's usual shape, whose
        /// new IDs share the save's list of inserts and are made from the store's keys
        /// directly): each entity's keys are handed out in insertion order, one after
        /// another, every object is registered under its new ID, the did-save names exactly
        /// those IDs, and each stored file names its folder's new ID.
        @Test(arguments: StoreKind.all)
        func insertsInRunsOfOneEntityGetTheirKeysInInsertionOrder(kind: StoreKind) throws {
            try savesInsertsInRuns(kind: kind, extraKeys: 0)
        }

        /// A store that hands out more keys than asked for: the save takes the first ones, in
        /// order, for each entity's inserts (the review of `w1b`: its in-order path appended
        /// every key handed out and trapped on the count).
        @Test(arguments: StoreKind.all)
        func aStoreHandingOutMoreKeysThanAskedGivesTheFirstOnesInOrder(kind: StoreKind) throws {
            try savesInsertsInRuns(kind: kind, extraKeys: 2)
        }

        private func savesInsertsInRuns(kind: StoreKind, extraKeys: Int) throws {
            let stack = try Stack(try model(), on: kind, failing: true)
            (stack.store as! FailingStore).extraKeys = extraKeys
            let context = stack.context()
            let named = { (entity: String, name: String) -> ManagedObject in
                let object = context.insertNewObject(forEntityName: entity)
                object.setValue(name, forKey: "name")
                return object
            }
            try context.performAndWait {
                let folders = (0..<3).map { named("Folder", "folder \($0)") }
                let files = (0..<9).map { named("File", "file \($0)") }
                for (i, file) in files.enumerated() {
                    file.setValue(folders[i % 3], forKey: "folder")
                }
                let recorder = SaveRecorder(context)
                try context.save()
                for group in [folders, files] {
                    let keys = group.map(\.objectID.primaryKey)
                    #expect(group.allSatisfy { !$0.objectID.isTemporaryID })
                    #expect(keys == Array(keys[0]..<keys[0] + Int64(keys.count)))
                    for object in group {
                        #expect(context.registeredObject(for: object.objectID) === object)
                    }
                }
                #expect(recorder.insertedIDs == Set((folders + files).map(\.objectID)))
                let folderSlot = stack.model.entitiesByName["File"]!.properties.firstIndex {
                    $0.name == "folder"
                }!
                let rows = try stack.rows("File")
                #expect(rows.count == 9)
                for row in rows {
                    let file = try #require(context.registeredObject(for: row.objectID))
                    let folder = file.value(forKey: "folder") as? ManagedObject
                    #expect(row.values[folderSlot] == .toOne(folder?.objectID))
                }
            }
        }
    }
}
