import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// Delete propagation's bulk nullify when one target is reached through two to-ones of the
    /// deleted objects, each the inverse of another of the target's to-manys: the removals are
    /// grouped per target and per to-many, and each deleted object leaves exactly the to-manys
    /// that listed it.
    @Suite struct BulkNullifyTwoInversesTests {
        /// `Folder(name)` with the to-manys `files` and `archived` ⟷ `File(number)` with the
        /// to-ones `folder` (inverse `files`) and `archive` (inverse `archived`), all nullify.
        private func model() throws -> ManagedObjectModel {
            let pairs = [("files", "folder"), ("archived", "archive")]
            let toManys = pairs.map { many, one in
                RelationshipDescription(
                    name: many, destination: "File", inverse: one, isToMany: true,
                    deleteRule: .nullify)
            }
            let toOnes = pairs.map { many, one in
                RelationshipDescription(
                    name: one, destination: "Folder", inverse: many, deleteRule: .nullify)
            }
            return try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Folder",
                    properties: [AttributeDescription(name: "name", type: .string)] + toManys),
                EntityDescription(
                    name: "File",
                    properties: [AttributeDescription(name: "number", type: .integer64)] + toOnes),
            ])
        }

        /// Three folders `f0`–`f2`; file `i` in folder `i % 3` and archived in `(i + 1) % 3`.
        private func seed(_ stack: Stack, files count: Int) throws {
            let context = stack.context()
            try context.performAndWait {
                var folders: [ManagedObject] = []
                for i in 0..<3 {
                    folders.append(context.insertNewObject(forEntityName: "Folder"))
                    folders[i].setValue("f\(i)", forKey: "name")
                }
                for i in 0..<count {
                    let values: [String: Any] = [
                        "number": Int64(i), "folder": folders[i % 3],
                        "archive": folders[(i + 1) % 3],
                    ]
                    let file = context.insertNewObject(forEntityName: "File")
                    for (key, value) in values { file.setValue(value, forKey: key) }
                }
                try context.save()
            }
        }

        private func fetch(_ entity: String, by key: String, _ context: ManagedObjectContext)
            throws -> [ManagedObject]
        {
            let request = FetchRequest<ManagedObject>(entityName: entity)
            request.sortDescriptors = [FetchSortDescriptor(key: key)]
            return try context.fetch(request)
        }

        /// The numbers of the files in `folder`'s to-many `key`, ascending.
        private func numbers(_ folder: ManagedObject, _ key: String) -> [Int64] {
            (folder.value(forKey: key) as? Set<ManagedObject> ?? []).map {
                $0.value(forKey: "number") as? Int64 ?? -1
            }.sorted()
        }

        /// Each folder's `files` and `archived` as they should be with the even files deleted.
        private func expectRemaining(_ folders: [ManagedObject], files: Int) {
            for (f, folder) in folders.enumerated() {
                let odd = (0..<files).filter { $0 % 2 == 1 }
                let inFolder = odd.filter { $0 % 3 == f }.map(Int64.init)
                let inArchive = odd.filter { ($0 + 1) % 3 == f }.map(Int64.init)
                #expect(numbers(folder, "files") == inFolder)
                #expect(numbers(folder, "archived") == inArchive)
            }
        }

        @Test(arguments: StoreKind.all)
        func deletedFilesLeaveBothToManysOfTheirFolders(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            try seed(stack, files: 60)
            let context = stack.context()
            try context.performAndWait {
                let folders = try fetch("Folder", by: "name", context)
                for file in try fetch("File", by: "number", context)
                where (file.value(forKey: "number") as! Int64) % 2 == 0 {
                    context.delete(file)
                }
                context.processPendingChanges()
                expectRemaining(folders, files: 60)
                #expect(context.updatedObjects == Set(folders))
                try context.save()
                expectRemaining(folders, files: 60)
            }
            let check = try stack.reopen().context()
            try check.performAndWait {
                expectRemaining(try fetch("Folder", by: "name", check), files: 60)
                #expect(try fetch("File", by: "number", check).count == 30)
            }
        }
    }
}
