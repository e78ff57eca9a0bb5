import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// Delete propagation's nullify rule on a to-one whose inverse is a to-many: the deleted
    /// objects leave their targets' to-manys per target at once, at the end of each round
    /// (issue 25's W5), with the same outcome as one by one.
    @Suite struct BulkNullifyTests {
        /// `Folder(name)` with an ordered to-many `files` (delete rule `folderRule`) ⟷
        /// `File(number)` with the to-one `folder` (nullify).
        private func model(folderRule: DeleteRule = .nullify) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Folder",
                    properties: [
                        AttributeDescription(name: "name", type: .string),
                        RelationshipDescription(
                            name: "files", destination: "File", inverse: "folder",
                            isToMany: true, isOrdered: true, deleteRule: folderRule),
                    ]),
                EntityDescription(
                    name: "File",
                    properties: [
                        AttributeDescription(name: "number", type: .integer64),
                        RelationshipDescription(
                            name: "folder", destination: "Folder", inverse: "files",
                            deleteRule: .nullify),
                    ]),
            ])
        }

        /// Three folders `f0`–`f2`, file `i` in folder `i % 3`, saved.
        private func seed(_ stack: Stack, files: Int) throws {
            let context = stack.context()
            try context.performAndWait {
                let folders = (0..<3).map { i in
                    let folder = context.insertNewObject(forEntityName: "Folder")
                    folder.setValue("f\(i)", forKey: "name")
                    return folder
                }
                for i in 0..<files {
                    let file = context.insertNewObject(forEntityName: "File")
                    file.setValue(Int64(i), forKey: "number")
                    file.setValue(folders[i % 3], forKey: "folder")
                }
                try context.save()
            }
        }

        private func folders(_ context: ManagedObjectContext) throws -> [ManagedObject] {
            let request = FetchRequest<ManagedObject>(entityName: "Folder")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            return try context.fetch(request)
        }

        private func files(_ context: ManagedObjectContext) throws -> [ManagedObject] {
            let request = FetchRequest<ManagedObject>(entityName: "File")
            request.sortDescriptors = [FetchSortDescriptor(key: "number")]
            return try context.fetch(request)
        }

        private func numbers(_ folder: ManagedObject) -> [Int64] {
            (folder.value(forKey: "files") as? [ManagedObject] ?? []).map {
                $0.value(forKey: "number") as? Int64 ?? -1
            }
        }

        @Test(arguments: StoreKind.all)
        func deletingManyMembersTakesEachOutOfItsFolderInOrderAndSavesIt(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            try seed(stack, files: 90)
            let context = stack.context()
            let recorder = SaveRecorder(context)
            try context.performAndWait {
                let folders = try folders(context)
                let files = try files(context)
                var deleted: [ManagedObjectID] = []
                for file in files where (file.value(forKey: "number") as! Int64) % 2 == 0 {
                    deleted.append(file.objectID)
                    context.delete(file)
                }
                context.processPendingChanges()
                for (f, folder) in folders.enumerated() {
                    let expected = (0..<90).filter { $0 % 3 == f && $0 % 2 == 1 }.map(Int64.init)
                    #expect(numbers(folder) == expected)
                    #expect(folder.isUpdated)
                }
                // A deleted file keeps its own to-one, as under Core Data's nullify.
                #expect(files[0].value(forKey: "folder") as? ManagedObject === folders[0])
                #expect(context.updatedObjects == Set(folders))
                try context.save()
                #expect(recorder.updatedIDs == Set(folders.map(\.objectID)))
                #expect(recorder.deletedIDs == Set(deleted))
                #expect(recorder.insertedIDs.isEmpty)
            }
            let reopened = try stack.reopen()
            let check = reopened.context()
            try check.performAndWait {
                for (f, folder) in try folders(check).enumerated() {
                    let expected = (0..<90).filter { $0 % 3 == f && $0 % 2 == 1 }.map(Int64.init)
                    #expect(numbers(folder) == expected)
                }
                let remaining = try files(check).count
                #expect(remaining == 45)
            }
        }

        /// A cascade from a folder deleted in the same round as some of its files sees those
        /// files gone from its to-many (they were processed first), so their own `folder`
        /// stays as it was: the removals are made before the cascade runs.
        @Test(arguments: StoreKind.all)
        func aCascadeLaterInTheRoundSeesTheFilesAlreadyRemoved(kind: StoreKind) throws {
            let stack = try Stack(try model(folderRule: .cascade), on: kind)
            try seed(stack, files: 12)
            let context = stack.context()
            try context.performAndWait {
                let folders = try folders(context)
                let files = try files(context)
                // Files 0 and 3 (folder f0) first, then f0 itself.
                context.delete(files[0])
                context.delete(files[3])
                context.delete(folders[0])
                context.processPendingChanges()
                #expect(files[0].value(forKey: "folder") as? ManagedObject === folders[0])
                #expect(files[3].value(forKey: "folder") as? ManagedObject === folders[0])
                // The cascade reached the folder's other files and nullified their side.
                for i in [6, 9] {
                    #expect(files[i].isDeleted)
                    #expect(files[i].value(forKey: "folder") == nil)
                }
                #expect(numbers(folders[1]) == [1, 4, 7, 10])
                try context.save()
            }
            let check = stack.context()
            try check.performAndWait {
                let numbers = try files(check).map { $0.value(forKey: "number") as? Int64 }
                let folderCount = try folders(check).count
                #expect(numbers == [1, 2, 4, 5, 7, 8, 10, 11])
                #expect(folderCount == 2)
            }
        }

        @Test(arguments: StoreKind.all)
        func filesInsertedThenDeletedBeforeTheSaveLeaveTheirFolderAndNeverReachTheStore(
            kind: StoreKind
        ) throws {
            let stack = try Stack(try model(), on: kind)
            try seed(stack, files: 3)
            let context = stack.context()
            let recorder = SaveRecorder(context)
            try context.performAndWait {
                let folder = try folders(context)[0]
                let added = (100..<110).map { i in
                    let file = context.insertNewObject(forEntityName: "File")
                    file.setValue(Int64(i), forKey: "number")
                    file.setValue(folder, forKey: "folder")
                    return file
                }
                for file in added where (file.value(forKey: "number") as! Int64) % 2 == 0 {
                    context.delete(file)
                }
                context.processPendingChanges()
                #expect(numbers(folder) == [0, 101, 103, 105, 107, 109])
                try context.save()
                #expect(recorder.insertedIDs == Set(added.filter { !$0.isDeleted }.map(\.objectID)))
                #expect(recorder.deletedIDs.isEmpty)
            }
            let check = stack.context()
            let remaining = try check.performAndWait { try files(check).count }
            #expect(remaining == 8)
        }

        @Test(arguments: StoreKind.all)
        func aChildContextsDeletionsReachItsParentAndTheStore(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            try seed(stack, files: 30)
            let parent = stack.context()
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            try child.performAndWait {
                for file in try files(child) where (file.value(forKey: "number") as! Int64) < 15 {
                    child.delete(file)
                }
                child.processPendingChanges()
                #expect(numbers(try folders(child)[2]) == [17, 20, 23, 26, 29])
                try child.save()
            }
            try parent.performAndWait {
                #expect(numbers(try folders(parent)[2]) == [17, 20, 23, 26, 29])
                try parent.save()
            }
            let check = stack.context()
            try check.performAndWait {
                let remaining = try files(check).count
                #expect(remaining == 15)
                #expect(numbers(try folders(check)[0]) == [15, 18, 21, 24, 27])
            }
        }
    }
}

/// The IDs of a context's did-save notifications, gathered as they are posted.
final class SaveRecorder: @unchecked Sendable {
    // Sendable: the notification is posted on the saving context's queue, where the test
    // also reads the sets (inside `performAndWait`).
    private(set) var insertedIDs = Set<ManagedObjectID>()
    private(set) var updatedIDs = Set<ManagedObjectID>()
    private(set) var deletedIDs = Set<ManagedObjectID>()
    private var observer: (any NSObjectProtocol)?

    init(_ context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { [self] note in
            let info = note.userInfo ?? [:]
            insertedIDs.formUnion(info[NSInsertedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
            updatedIDs.formUnion(info[NSUpdatedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
            deletedIDs.formUnion(info[NSDeletedObjectIDsKey] as? Set<ManagedObjectID> ?? [])
        }
    }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
}
