import Foundation
import ObjectGraph
import Testing

@Suite struct DerivedAttributeTests {
    private func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Album",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    AttributeDescription(
                        name: "searchTitle", type: .string,
                        derivationExpression: "canonical:(title)"),
                    AttributeDescription(
                        name: "loudTitle", type: .string, derivationExpression: "uppercase:(title)"),
                    AttributeDescription(
                        name: "photoCount", type: .integer64, derivationExpression: "photos.@count"),
                    AttributeDescription(
                        name: "totalSize", type: .integer64,
                        derivationExpression: "photos.@sum.size"),
                    AttributeDescription(
                        name: "savedAt", type: .date, derivationExpression: "now()"),
                    RelationshipDescription(
                        name: "photos", destination: "Photo", inverse: "album", isToMany: true),
                ]),
            EntityDescription(
                name: "Photo",
                properties: [
                    AttributeDescription(name: "size", type: .integer64),
                    RelationshipDescription(name: "album", destination: "Album", inverse: "photos"),
                ]),
        ])
    }

    @Test func derivedAttributesAreComputedAtSave() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        coordinator.clock = { Date(timeIntervalSince1970: 1_700_000_000) }
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let album = context.insertNewObject(forEntityName: "Album")
            album.setValue("Été à Paris", forKey: "title")
            for size in [10, 32] {
                let photo = context.insertNewObject(forEntityName: "Photo")
                photo.setValue(size, forKey: "size")
                photo.setValue(album, forKey: "album")
            }
            #expect(album.value(forKey: "photoCount") == nil)  // not until the save
            try context.save()
            #expect(album.value(forKey: "searchTitle") as? String == "ete a paris")
            #expect(album.value(forKey: "loudTitle") as? String == "ÉTÉ À PARIS")
            #expect(album.value(forKey: "photoCount") as? Int64 == 2)
            #expect(album.value(forKey: "totalSize") as? Int64 == 42)
            #expect(
                album.value(forKey: "savedAt") as? Date
                    == Date(timeIntervalSince1970: 1_700_000_000))
            context.reset()
            let again = try context.fetch(FetchRequest<ManagedObject>(entityName: "Album"))[0]
            #expect(again.value(forKey: "photoCount") as? Int64 == 2)
        }
    }
}
