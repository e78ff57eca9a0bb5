import Foundation
import ObjectGraphTesting

@testable import ObjectGraph

/// Versions of a small street model, and stores seeded with them.
enum MigrationFixtures {
    /// Version 1: `City { title }`, `Street { name (required), number: int16, city → City }`.
    static func v1(
        streetExtras: [PropertyDescription] = [], name: AttributeDescription? = nil,
        cityTitleRequired: Bool = false, streetConstraints: [[String]] = [],
        number: AttributeType = .integer16, cityToMany: Bool = false
    ) throws -> ManagedObjectModel {
        let city = EntityDescription(
            name: "City",
            properties: [
                AttributeDescription(name: "title", type: .string, isOptional: !cityTitleRequired),
                RelationshipDescription(
                    name: "streets", destination: "Street", inverse: "city", isToMany: true),
            ])
        let street = EntityDescription(
            name: "Street",
            properties: [
                name ?? AttributeDescription(name: "name", type: .string, isOptional: false),
                AttributeDescription(name: "number", type: number),
                RelationshipDescription(
                    name: "city", destination: "City", inverse: "streets", isToMany: cityToMany),
            ] + streetExtras, uniquenessConstraints: streetConstraints)
        return try ManagedObjectModel(entities: [city, street])
    }

    /// A store file of `model` holding two cities and three streets (Main St → Springfield,
    /// Elm St → Springfield, Oak St → Shelbyville); returns the store's identifier.
    @discardableResult
    static func seed(_ model: ManagedObjectModel, at url: URL, names: [String]? = nil) throws
        -> String
    {
        var options = StoreOptions()
        options.clock = { Date(timeIntervalSinceReferenceDate: 1000) }
        let store = try JSONLinesStore(model: model, url: url, options: options)
        defer { store.close() }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let springfield = context.insertNewObject(forEntityName: "City")
            springfield.setValue("Springfield", forKey: "title")
            let shelbyville = context.insertNewObject(forEntityName: "City")
            shelbyville.setValue("Shelbyville", forKey: "title")
            let streetNames = names ?? ["Main St", "Elm St", "Oak St"]
            for (i, name) in streetNames.enumerated() {
                let street = context.insertNewObject(forEntityName: "Street")
                street.setValue(name, forKey: "name")
                street.setValue(i + 1, forKey: "number")
                street.setValue(i < 2 ? springfield : shelbyville, forKey: "city")
            }
            try context.save()
        }
        return store.identifier
    }

    /// A store file of `model` seeded by `PreviewSeeder` (seed 3) with `count` objects of every
    /// entity.
    static func previewSeeded(_ model: ManagedObjectModel, count: Int) throws -> URL {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("seeded.jsonl")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(with: PersistentStoreDescription(url: url))
        try PreviewSeeder(model: model, seed: 3).generate(
            counts: [:], defaultCount: count, into: coordinator)
        (store as! JSONLinesStore).close()
        return url
    }

    /// The rows of `entity` in `store`, in primary-key order.
    static func rows(_ store: JSONLinesStore, _ entity: String) throws -> [StoreRow] {
        try store.fetch(StoreFetchRequest(entity: store.model[entityName: entity]!))
            .sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
    }

    /// Options declaring `versions` as earlier versions.
    static func options(_ versions: [ManagedObjectModel], readOnly: Bool = false) -> StoreOptions {
        var options = StoreOptions()
        options.modelVersions = versions
        options.isReadOnly = readOnly
        return options
    }

    static func code(_ error: any Error) -> Int { (error as NSError).code }
}
