import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// Records its lifecycle calls on the instance.
    final class Receipt: ManagedObject {
        @Attribute var path: String?
        @Relationship var folders: Set<Folder>
        var preparedForDeletion = 0
        var didSaveStates: [(deleted: Bool, inserted: Bool)] = []

        override func prepareForDeletion() {
            super.prepareForDeletion()
            preparedForDeletion += 1
        }

        override func didSave() {
            super.didSave()
            didSaveStates.append((isDeleted, isInserted))
        }
    }

    final class Folder: ManagedObject {
        @Attribute var name: String?
        @Relationship var receipts: Set<Receipt>
    }

    static func receipts() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Receipt", managedObjectClass: Receipt.self,
                properties: [
                    A(name: "path", type: .string, isOptional: false),
                    R(name: "folders", destination: "Folder", inverse: "receipts", isToMany: true),
                ]),
            E(
                name: "Folder", managedObjectClass: Folder.self,
                properties: [
                    A(name: "name", type: .string),
                    R(
                        name: "receipts", destination: "Receipt", inverse: "folders",
                        isToMany: true, deleteRule: .cascade),
                ]),
        ])
    }
}

extension SaveIntegrity {
    @Suite struct LifecycleTests {
        typealias Receipt = IntegrityModels.Receipt
        typealias Folder = IntegrityModels.Folder

        // Apple calls prepareForDeletion() when delete(_:) is called, and again when the object
        // is deleted again (FreeCoreData NSManagedObjectLifecycleTests.m,
        // testPrepareForDeletionCalledOnDelete, commit 8a8df78, run against Apple).
        @Test(arguments: StoreKind.all)
        func prepareForDeletionRunsAtDeleteAndAgainOnARepeatedDelete(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.receipts(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let r = Receipt(context: context)
                r.path = "/tmp/r"
                try context.save()
                context.delete(r)
                #expect(
                    r.preparedForDeletion == 1,
                    "at delete(_:), before pending changes are processed")
                #expect(r.isDeleted)
                context.delete(r)
                #expect(r.preparedForDeletion == 2)
                context.processPendingChanges()
                try context.save()
                #expect(r.preparedForDeletion == 2, "processing and saving do not call it again")
                #expect(r.didSaveStates.last?.deleted == true)
            }
        }

        @Test func prepareForDeletionRunsOncePerObjectInAContext() throws {
            let stack = try Stack(IntegrityModels.receipts(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let shared = Receipt(context: context)
                shared.path = "/tmp/r1"
                let a = Folder(context: context)
                let b = Folder(context: context)
                a.receipts = [shared]
                b.receipts = [shared]
                try context.save()
                context.delete(a)
                context.delete(b)
                context.processPendingChanges()
                context.processPendingChanges()
                _ = try context.fetch(FetchRequest<Receipt>(entityName: "Receipt"))
                #expect(shared.isDeleted)
                #expect(shared.preparedForDeletion == 1)
                try context.save()
                #expect(shared.preparedForDeletion == 1)
            }
        }

        @Test func prepareForDeletionRunsInTheContextThatDeletesNotInItsParent() throws {
            let stack = try Stack(IntegrityModels.receipts(), on: .inMemory)
            let parent = stack.context()
            // The parent's object is kept here: unchanged objects live only while referenced.
            let (id, saved) = try parent.performAndWait {
                let r = Receipt(context: parent)
                r.path = "/tmp/r"
                try parent.save()
                return (r.objectID, r)
            }
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            try child.performAndWait {
                let r = try #require(try child.existingObject(with: id) as? Receipt)
                child.delete(r)
                try child.save()
                #expect(r.preparedForDeletion == 1)
            }
            try parent.performAndWait {
                let r = try #require(parent.registeredObject(for: id) as? Receipt)
                #expect(r === saved)
                #expect(r.isDeleted)
                try parent.save()
                #expect(r.preparedForDeletion == 0)
                #expect(r.didSaveStates.map(\.deleted) == [false, true])
            }
        }

        @Test func didSaveSeesIsDeletedOnlyAfterASuccessfulSave() throws {
            let stack = try Stack(IntegrityModels.receipts(), on: .inMemory, failing: true)
            let context = stack.context()
            try context.performAndWait {
                let r = Receipt(context: context)
                r.path = "/tmp/receipt.jpg"
                try context.save()
                #expect(r.didSaveStates.count == 1)
                #expect(r.didSaveStates[0].deleted == false && r.didSaveStates[0].inserted == false)
                context.delete(r)
                (stack.store as! FailingStore).failing = true
                #expect(throws: ObjectGraphError.self) { try context.save() }
                #expect(r.didSaveStates.count == 1)
                (stack.store as! FailingStore).failing = false
                try context.save()
                #expect(r.didSaveStates.count == 2)
                #expect(r.didSaveStates[1].deleted)
                #expect(r.managedObjectContext == nil)
            }
        }
    }
}
