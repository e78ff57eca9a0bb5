import Foundation
import Testing

@testable import ObjectGraph

/// Staged migration with Core Data's shape (`NSStagedMigrationManager`,
/// `NSCustomMigrationStage`: https://developer.apple.com/documentation/coredata/nscustommigrationstage),
/// and store metadata (`metadataForPersistentStore(ofType:at:)`, `setMetadata(_:for:)`).
@Suite struct StagedMigrationTests {
    private func file() throws -> URL {
        try FileStoreFixtures.temporaryDirectory().appendingPathComponent("streets.jsonl")
    }

    /// v2 splits `name` into `kind` (the last word) in code: a custom stage whose will handler
    /// reads the rows at v1 and whose did handler fills the new attribute at v2.
    @Test func aCustomStageRunsItsHandlersThroughTheManagersContainer() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "kind", type: .string)])
        let stage = CustomMigrationStage(
            migratingFrom: ManagedObjectModelReference(
                model: v1, versionChecksum: v1.versionChecksum),
            to: ManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum))
        let seen = Counter()
        stage.willMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                let streets = try context.fetch(FetchRequest<ManagedObject>(entityName: "Street"))
                for _ in streets { seen.add() }
            }
        }
        stage.didMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                for street in try context.fetch(FetchRequest<ManagedObject>(entityName: "Street")) {
                    let name = street.value(forKey: "name") as! String
                    street.setValue(String(name.split(separator: " ").last!), forKey: "kind")
                }
                try context.save()
            }
        }
        let description = PersistentStoreDescription(url: url)
        description.setOption(
            StagedMigrationManager([stage]),
            forKey: NSPersistentStoreStagedMigrationManagerOptionKey)
        let container = PersistentContainer(name: "Streets", managedObjectModel: v2)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        #expect(seen.value == 3)
        let store = container.persistentStoreCoordinator.persistentStores[0] as! JSONLinesStore
        #expect(
            try MigrationFixtures.rows(store, "Street").map { $0["kind"]?.attributeValue } == [
                .string("St"), .string("St"), .string("St"),
            ])
        store.close()
    }

    /// Regression: the stage's destination is an equal model but not the store's instance (the
    /// references are matched by checksum). The rows kept the stage's entities, and writing
    /// the migrated file failed with 134160 ("Street.city … is not a single permanent City ID
    /// of this store"), found by the migration kill campaign.
    @Test func aChainEndingAtAnEqualModelInstanceMigratesToTheStoresModel() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        func v2() throws -> ManagedObjectModel {
            try MigrationFixtures.v1(
                streetExtras: [AttributeDescription(name: "kind", type: .string)])
        }
        let stageV2 = try v2()
        let stage = CustomMigrationStage(
            migratingFrom: ManagedObjectModelReference(
                model: v1, versionChecksum: v1.versionChecksum),
            to: ManagedObjectModelReference(
                model: stageV2, versionChecksum: stageV2.versionChecksum))
        stage.didMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                for street in try context.fetch(FetchRequest<ManagedObject>(entityName: "Street")) {
                    street.setValue("street", forKey: "kind")
                }
                try context.save()
            }
        }
        var options = StoreOptions()
        options.stagedMigrationManager = StagedMigrationManager([stage])
        let storeV2 = try v2()
        let store = try JSONLinesStore(model: storeV2, url: url, options: options)
        defer { store.close() }
        let streets = try MigrationFixtures.rows(store, "Street")
        #expect(
            streets.map { $0["kind"]?.attributeValue }
                == Array(repeating: .string("street"), count: 3))
        #expect(streets.allSatisfy { $0.objectID.entity === storeV2[entityName: "Street"] })
        let cities = try MigrationFixtures.rows(store, "City")
        #expect(
            streets.map { $0["city"] } == [
                .toOne(cities[0].objectID), .toOne(cities[0].objectID), .toOne(cities[1].objectID),
            ])
    }

    @Test func aThrowingHandlerLeavesTheFileAsItWas() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let before = try Data(contentsOf: url)
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "kind", type: .string)])
        let stage = CustomMigrationStage(
            migratingFrom: ManagedObjectModelReference(
                model: v1, versionChecksum: v1.versionChecksum),
            to: ManagedObjectModelReference(model: v2, versionChecksum: v2.versionChecksum))
        stage.didMigrateHandler = { _, _ in
            throw ObjectGraphError(.migrationFailed, "the handler refuses")
        }
        var options = StoreOptions()
        options.stagedMigrationManager = StagedMigrationManager([stage])
        #expect { try JSONLinesStore(model: v2, url: url, options: options) } throws: {
            MigrationFixtures.code($0) == 134110
        }
        #expect(try Data(contentsOf: url) == before)
    }

    /// A chain v1 → v2 → v3 of lightweight stages: the renames chain (scenarios.md B46).
    @Test func lightweightStagesChainRenames() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let v2 = try MigrationFixtures.v1(
            name: AttributeDescription(
                name: "label", type: .string, isOptional: false, renamingIdentifier: "name"))
        let v3 = try MigrationFixtures.v1(
            name: AttributeDescription(
                name: "title", type: .string, isOptional: false, renamingIdentifier: "label"))
        var options = StoreOptions()
        options.modelVersions = [v1, v2]
        options.stagedMigrationManager = StagedMigrationManager([
            LightweightMigrationStage(
                models: [v1, v2, v3].map {
                    ManagedObjectModelReference(model: $0, versionChecksum: $0.versionChecksum)
                })
        ])
        let store = try JSONLinesStore(model: v3, url: url, options: options)
        defer { store.close() }
        #expect(
            try MigrationFixtures.rows(store, "Street").map { $0["title"]?.attributeValue } == [
                .string("Main St"), .string("Elm St"), .string("Oak St"),
            ])
    }

    @Test func metadataIsKeptInTheHeaderAcrossCompactionAndMigration() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        let identifier = try MigrationFixtures.seed(v1, at: url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: v1)
        let store = try coordinator.addPersistentStore(with: PersistentStoreDescription(url: url))
        try coordinator.setMetadata(
            ["schemaNote": "v1", "count": 3, "flags": [true, false]], for: store)
        try (store as! JSONLinesStore).compact()
        (store as! JSONLinesStore).close()
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)])
        let migrated = try JSONLinesStore(
            model: v2, url: url, options: MigrationFixtures.options([v1]))
        migrated.close()
        let metadata = try PersistentStoreCoordinator.metadataForPersistentStore(
            ofType: "JSONLines", at: url)
        #expect(metadata["schemaNote"] as? String == "v1")
        #expect(metadata["count"] as? Int == 3)
        #expect(
            (metadata["flags"] as? [any Sendable])?.compactMap { $0 as? Bool } == [true, false])
        #expect(metadata["NSStoreUUIDKey"] as? String == identifier)
        #expect(
            (metadata["NSStoreModelVersionHashesKey"] as? [String: Data])?["Street"]
                == v2.entityVersionHashesByName["Street"])
    }

    @Test func theRAMStoreKeepsNoMetadataAndSaysSo() throws {
        let model = try MigrationFixtures.v1()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let store = try coordinator.addPersistentStore(with: PersistentStoreDescription())
        #expect { try coordinator.setMetadata(["a": 1], for: store) } throws: {
            MigrationFixtures.code($0) == 134060
        }
    }
}
