import Foundation
import ObjectGraph
import Testing

/// How fetched objects become the request's `Result`: the entity's own class, plain
/// `ManagedObject`, a protocol the class conforms to, and a class the objects are not.
@Suite struct FetchResultCastTests {
    private func savedCategories(_ kind: StoreKind, _ names: [String]) throws
        -> ManagedObjectContext
    {
        let coordinator = try ExpenseModel.coordinator(kind)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait { () throws in
            for name in names {
                let c = Category(context: context)
                c.id = UUID()
                c.name = name
            }
            try context.save()
            context.reset()
        }
        return context
    }

    @Test(arguments: StoreKind.all)
    func objectsComeBackAsTheEntitysClassAsManagedObjectAndAsAProtocol(_ kind: StoreKind)
        throws
    {
        let context = try savedCategories(kind, ["Food", "Rent"])
        try context.performAndWait { () throws in
            let typed = FetchRequest<Category>(entityName: "Category")
            typed.sortDescriptors = [FetchSortDescriptor(key: "name")]
            #expect(try context.fetch(typed).map(\.name) == ["Food", "Rent"])
            let plain = FetchRequest<ManagedObject>(entityName: "Category")
            plain.sortDescriptors = typed.sortDescriptors
            let objects = try context.fetch(plain)
            #expect(objects.map { $0.value(forKey: "name") as? String } == ["Food", "Rent"])
            #expect(objects.allSatisfy { $0 is Category })
            let described = FetchRequest<any CustomStringConvertible>(entityName: "Category")
            described.sortDescriptors = typed.sortDescriptors
            let descriptions = try context.fetch(described)
            #expect(descriptions.count == 2)
            #expect(descriptions.allSatisfy { $0 is Category })
        }
    }

    @Test(arguments: StoreKind.all)
    func objectsOfAnotherClassThanTheResultThrowResultTypeMismatch(_ kind: StoreKind) throws {
        let context = try savedCategories(kind, ["Food"])
        context.performAndWait {
            let wrong = FetchRequest<Transaction>(entityName: "Category")
            let error = #expect(throws: ObjectGraphError.self) { try context.fetch(wrong) }
            #expect(error?.reason == .resultTypeMismatch)
            #expect(error?.code == 134060)
        }
    }
}
