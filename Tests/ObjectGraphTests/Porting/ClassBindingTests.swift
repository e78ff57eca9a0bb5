import Foundation
import Testing

@testable import ObjectGraph

/// Subclasses bound to the entities of a model read from an Xcode file with no class resolver.
@Suite struct ClassBindingTests {
    static let modelURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ExpenseTracker.xcdatamodeld")

    private func context(_ model: ManagedObjectModel) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test func initWithContextBindsTheClassByItsRecordedClassName() throws {
        let model = try ManagedObjectModel(contentsOf: Self.modelURL)
        #expect(model.entitiesByName["Category"]?.managedObjectClass == ManagedObject.self)
        let context = try context(model)
        let names = try context.performAndWait { () throws -> [String?] in
            let category = Category(context: context)
            category.id = UUID()
            category.name = "Food"
            #expect(category.entity.name == "Category")
            try context.save()
            context.reset()
            let fetched = try context.fetch(FetchRequest<ManagedObject>(entityName: "Category"))
            return fetched.map { ($0 as? Category)?.name }
        }
        #expect(model.entitiesByName["Category"]?.managedObjectClass == Category.self)
        #expect(names == ["Food"])
    }

    @Test func aTypedFetchBindsTheClassBeforeAnyInsert() throws {
        let model = try ManagedObjectModel(contentsOf: Self.modelURL)
        let context = try context(model)
        let count = try context.performAndWait {
            try context.fetch(Transaction.fetchRequest()).count
        }
        #expect(count == 0)
        #expect(model.entitiesByName["Transaction"]?.managedObjectClass == Transaction.self)
    }

    @Test func unqualifiedClassNamesResolveInTheCandidateModulesWhenTheModelIsRead() throws {
        let model = try ManagedObjectModel(contentsOf: Self.modelURL, modules: ["ObjectGraphTests"])
        #expect(model.entitiesByName["Category"]?.managedObjectClass == Category.self)
        #expect(model.entitiesByName["Transaction"]?.managedObjectClass == Transaction.self)
    }

    @Test func moduleQualifiedClassNamesResolveWithoutHelp() throws {
        let json = #"""
            {"format": "objectgraph-model/1", "entities": [
              {"name": "Note", "managedObjectClassName": "ObjectGraphTests.GeneratedNote",
               "properties": [{"kind": "attribute", "name": "title", "type": "string"}]}]}
            """#
        let model = try ManagedObjectModel(jsonData: Data(json.utf8))
        #expect(model.entitiesByName["Note"]?.managedObjectClass == GeneratedNote.self)
    }

    @Test func aClassResolverStillWins() throws {
        let model = try ManagedObjectModel(
            contentsOf: Self.modelURL,
            classResolver: { $0 == "Category" ? Category.self : nil })
        #expect(model.entitiesByName["Category"]?.managedObjectClass == Category.self)
        #expect(model.entitiesByName["Transaction"]?.managedObjectClass == ManagedObject.self)
    }

    @Test func aClassThatMatchesNoEntityIsNamedWithTheCandidatesAndTheFix() throws {
        let model = try ManagedObjectModel(contentsOf: Self.modelURL)
        let context = try context(model)
        #expect {
            try context.performAndWait { _ = try context.fetch(StrayObject.fetchRequest()) }
        } throws: { error in
            guard let e = error as? ObjectGraphError, e.reason == .noEntityForClass else {
                return false
            }
            return e.message.contains("StrayObject") && e.message.contains("Category, Transaction")
                && e.message.contains("representedClassName")
        }
        #expect(model.entitiesByName["Category"]?.managedObjectClass == ManagedObject.self)
    }

    /// Regression: property slots were cached by the entity's address, which a freed model's
    /// entity leaves for reuse; a class bound to entities of different layouts (here
    /// `Category`: id, name, colorHex in code; colorHex, id, name in the Xcode file) then read
    /// another attribute's slot ("Category.name expects a string value; got uuid").
    @Test func oneClassBoundToEntitiesOfDifferentLayoutsReadsEachOnesOwnSlots() throws {
        for _ in 0..<20 {
            for model in [
                try ExpenseModel.make(), try ManagedObjectModel(contentsOf: Self.modelURL),
            ] {
                let context = try context(model)
                let (name, color) = context.performAndWait { () -> (String?, String?) in
                    let category = Category(context: context)
                    category.id = UUID()
                    category.name = "Food"
                    category.colorHex = "#000000"
                    return (category.name, category.colorHex)
                }
                #expect(name == "Food")
                #expect(color == "#000000")
            }
        }
    }
}
