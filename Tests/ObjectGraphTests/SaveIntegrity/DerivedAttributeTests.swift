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

/// A non-optional derived attribute on its object's first save: the value only exists once
/// saved, so insert validation fails with 1570 (FreeCoreData's Apple-run
/// `testNonOptionalDerivedAttributeFailsInsertValidation`, `Tests/NSDerivedAttributeTests.m`);
/// a placeholder set before the save passes and is replaced by the computed value.
@Suite struct MandatoryDerivedAttributeTests {
    private func model(default value: AttributeValue = .null) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Author",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(
                        name: "articlesCount", type: .integer64, isOptional: false,
                        defaultValue: value, derivationExpression: "articles.@count"),
                    RelationshipDescription(
                        name: "articles", destination: "Article", inverse: "author",
                        isToMany: true),
                ]),
            EntityDescription(
                name: "Article",
                properties: [
                    RelationshipDescription(
                        name: "author", destination: "Author", inverse: "articles")
                ]),
        ])
    }

    private func context(_ model: ManagedObjectModel, _ kind: StoreKind) throws
        -> ManagedObjectContext
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test(arguments: StoreKind.all)
    func theFirstSaveFailsWith1570AndChangesNothing(_ kind: StoreKind) throws {
        let context = try context(try model(), kind)
        try context.performAndWait { () throws in
            let author = context.insertNewObject(forEntityName: "Author")
            author.setValue("Alice", forKey: "name")
            let error = expectNSError { try context.save() }
            #expect(error?.code == NSValidationMissingMandatoryPropertyError)
            #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "articlesCount")
            #expect(author.value(forKey: "articlesCount") == nil)
            #expect(author.isInserted)

            // A placeholder (Apple's remedy, set in awakeFromInsert) passes; the save
            // replaces it with the computed value.
            author.setValue(-1, forKey: "articlesCount")
            let article = context.insertNewObject(forEntityName: "Article")
            article.setValue(author, forKey: "author")
            try context.save()
            #expect(author.value(forKey: "articlesCount") as? Int64 == 1)
            context.reset()
            let stored = try context.fetch(FetchRequest<ManagedObject>(entityName: "Author"))
            #expect(stored.first?.value(forKey: "articlesCount") as? Int64 == 1)
        }
    }

    @Test func aModelDefaultIsAPlaceholderToo() throws {
        let context = try context(try model(default: .integer(0)), .inMemory)
        try context.performAndWait { () throws in
            context.insertNewObject(forEntityName: "Author").setValue("Bo", forKey: "name")
            try context.save()
        }
    }
}
