import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// A non-optional derived attribute is nil until its object's first save, which Core Data
/// refuses with 1570 (FreeCoreData's Apple-run
/// `testNonOptionalDerivedAttributeFailsInsertValidation`); fixtures and the seeder set a
/// placeholder, as Apple advises an app to in `awakeFromInsert`, and the save computes the
/// value.
@Suite struct DerivedPlaceholderTests {
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Shelf",
                properties: [
                    AttributeDescription(name: "label", type: .string, isOptional: false),
                    AttributeDescription(
                        name: "bookCount", type: .integer64, isOptional: false,
                        derivationExpression: "books.@count"),
                    AttributeDescription(
                        name: "savedAt", type: .date, isOptional: false,
                        derivationExpression: "now()"),
                    RelationshipDescription(
                        name: "books", destination: "Book", inverse: "shelf", isToMany: true),
                ]),
            EntityDescription(
                name: "Book",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    RelationshipDescription(name: "shelf", destination: "Shelf", inverse: "books"),
                ]),
        ])
    }

    private func coordinator(_ model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return coordinator
    }

    @Test func fixturesLoadAndTheSaveComputesTheDerivedValues() throws {
        let model = try model()
        let coordinator = try coordinator(model)
        let json = #"""
            { "Shelf": [ { "_ref": "s", "label": "Top" } ],
              "Book": [ { "title": "A", "shelf": "s" }, { "title": "B", "shelf": "s" } ] }
            """#
        _ = try FixtureLoader(model: model).load(
            FixtureSource(data: Data(json.utf8), name: "shelves.json"), into: coordinator)
        try withContext(coordinator) { context in
            let shelf = try fetchAll("Shelf", in: context)[0]
            #expect(shelf.value(forKey: "bookCount") as? Int64 == 2)
            #expect(
                shelf.value(forKey: "savedAt") as? Date != Date(timeIntervalSinceReferenceDate: 0))
        }
    }

    @Test func theSeederFillsModelsWithMandatoryDerivedAttributes() throws {
        let model = try model()
        let coordinator = try coordinator(model)
        try PreviewSeeder(model: model, seed: 1).generate(objectsPerEntity: 3, into: coordinator)
        try withContext(coordinator) { context in
            let shelves = try fetchAll("Shelf", in: context)
            #expect(shelves.count == 3)
            let counted = shelves.compactMap { $0.value(forKey: "bookCount") as? Int64 }
            let linked = try fetchAll("Book", in: context).filter {
                $0.value(forKey: "shelf") != nil
            }
            #expect(counted.reduce(0, +) == Int64(linked.count))
        }
    }
}
