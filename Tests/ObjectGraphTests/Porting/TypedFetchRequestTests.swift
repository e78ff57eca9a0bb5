import Foundation
import Testing

@testable import ObjectGraph

/// A class that declares its own `fetchRequest()` the way Xcode generates it (renamed).
final class GeneratedNote: ManagedObject {
    @Attribute var title: String?
}

extension GeneratedNote {
    @nonobjc class func fetchRequest() -> FetchRequest<GeneratedNote> {
        FetchRequest<GeneratedNote>(entityName: "Note")
    }
}

/// A class that no entity of any test model uses.
final class StrayObject: ManagedObject {}

@Suite struct TypedFetchRequestTests {
    @Test func fetchRequestIsTypedForTheSubclassAndFetchesItsEntityOnly() throws {
        let context = try FetchSeed.context()
        let (names, amounts) = try context.performAndWait {
            () throws -> ([String], [Decimal]) in
            let request: FetchRequest<Category> = Category.fetchRequest()
            request.sortDescriptors = [
                FetchSortDescriptor(keyPath: \Category.name, ascending: true)
            ]
            let categories: [Category] = try context.fetch(request)
            let transactions = try context.fetch(Transaction.fetchRequest())
            return (categories.compactMap(\.name), transactions.map(\.amount).sorted())
        }
        #expect(names == ["Food", "Rent"])
        #expect(amounts == [5, 7, 20, 40, 900])
    }

    @Test func anXcodeStyleFetchRequestDeclarationCompilesAndIsTheOneCalled() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note", managedObjectClass: GeneratedNote.self,
                properties: [AttributeDescription(name: "title", type: .string)])
        ])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let titles = try context.performAndWait { () throws -> [String] in
            GeneratedNote(context: context).title = "a"
            try context.save()
            let request = GeneratedNote.fetchRequest()
            #expect(request.entityName == "Note")
            return try context.fetch(request).compactMap(\.title)
        }
        #expect(titles == ["a"])
    }

    /// A class with no entity never fetches another entity's rows.
    @Test func aClassWithNoEntityFailsTheFetchNamingTheClass() throws {
        let context = try FetchSeed.context()
        #expect {
            try context.performAndWait { _ = try context.fetch(StrayObject.fetchRequest()) }
        } throws: { error in
            guard let e = error as? ObjectGraphError else { return false }
            return e.reason == .noEntityForClass && e.message.contains("StrayObject")
                && e.code == 134060
        }
    }

    /// Core Data: `NSBatchDeleteRequest(fetchRequest: Item.fetchRequest())` with
    /// `.resultTypeObjectIDs` returns the deleted IDs (NSBatchDeleteRequest documentation).
    @Test func aBatchDeleteFromATypedFetchRequestDeletesThatEntitysRows() throws {
        let context = try FetchSeed.context()
        let (deleted, left) = try context.performAndWait { () throws -> (Int, Int) in
            let request = Transaction.fetchRequest()
            request.predicate = try FetchPredicate(format: "amount < %@", 30)
            let delete = BatchDeleteRequest(fetchRequest: request)
            delete.resultType = .resultTypeObjectIDs
            let ids = try context.execute(delete).result as? [ManagedObjectID] ?? []
            #expect(ids.allSatisfy { $0.entity.name == "Transaction" })
            return (ids.count, try context.count(for: Transaction.fetchRequest()))
        }
        #expect(deleted == 3)
        #expect(left == 2)
    }
}
