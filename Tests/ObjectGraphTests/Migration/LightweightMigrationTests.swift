import Foundation
import Testing

@testable import ObjectGraph

/// Lightweight (inferred) migration of file stores. Inferable changes and error codes follow
/// Apple's "Lightweight Migration" rules and `CoreDataErrors.h`, summarised with sources in
/// `../shared/reference/coredata-semantics.md` (k) and `scenarios.md` B44/B46.
@Suite struct LightweightMigrationTests {
    private func file() throws -> URL {
        try FileStoreFixtures.temporaryDirectory().appendingPathComponent("streets.jsonl")
    }

    @Test func rulesThatAreNotSchemaOpenWithoutMigrating() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        // A transient attribute, a default and a validation rule: not schema differences.
        let changed = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "label", type: .string, isTransient: true)],
            name: AttributeDescription(
                name: "name", type: .string, isOptional: false, defaultValue: "x", minLength: 2))
        #expect(v1.versionChecksum != changed.versionChecksum)
        let before = try Data(contentsOf: url)
        let store = try JSONLinesStore(model: changed, url: url)
        defer { store.close() }
        #expect(try MigrationFixtures.rows(store, "Street").count == 3)
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
    }

    @Test func addRenameAndWidenKeepIdentitiesRelationshipsUUIDAndNumbering() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        let identifier = try MigrationFixtures.seed(v1, at: url)
        let old = try JSONLinesStore(model: v1, url: url)
        let oldStreets = try MigrationFixtures.rows(old, "Street")
        let lastTransaction = try old.statistics().lastTransactionNumber
        old.close()
        let original = try Data(contentsOf: url)
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)],
            name: AttributeDescription(
                name: "label", type: .string, isOptional: false, renamingIdentifier: "name"),
            number: .integer64)
        let store = try JSONLinesStore(
            model: v2, url: url, options: MigrationFixtures.options([v1]))
        #expect(store.identifier == identifier)
        #expect(store.recoveryNotices.contains { $0.contains("migrated from") })
        let streets = try MigrationFixtures.rows(store, "Street")
        #expect(streets.map(\.objectID.primaryKey) == oldStreets.map(\.objectID.primaryKey))
        #expect(
            streets.map { $0["label"]?.attributeValue } == [
                .string("Main St"), .string("Elm St"), .string("Oak St"),
            ])
        #expect(
            streets.map { $0["number"]?.attributeValue } == [.integer(1), .integer(2), .integer(3)])
        #expect(
            streets.map { $0["lanes"]?.attributeValue } == [.integer(2), .integer(2), .integer(2)])
        let cities = try MigrationFixtures.rows(store, "City")
        let targets = streets.map { row -> Int64? in
            if case .toOne(let id?) = row["city"] { return id.primaryKey }
            return nil
        }
        #expect(
            targets == [
                cities[0].objectID.primaryKey, cities[0].objectID.primaryKey,
                cities[1].objectID.primaryKey,
            ])
        #expect(
            try store.relatedObjectIDs(
                v2[entityName: "City"]!.propertiesByName["streets"] as! RelationshipDescription,
                of: cities[0].objectID
            ).count == 2)
        // Numbering continues; the old file is kept byte for byte.
        #expect(try store.statistics().lastTransactionNumber == lastTransaction)
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + ".pre-migration")) == original)
        store.close()
        // Reopening needs no migration: the file is now of v2.
        let again = try JSONLinesStore(model: v2, url: url)
        #expect(!again.recoveryNotices.contains { $0.contains("migrated") })
        #expect(try JSONLinesStore.metadata(at: url).storeIdentifier == identifier)
        again.close()
    }

    @Test func aNewerFileIsRefusedByAnOlderProgramWith134100NamingBothVersions() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)])
        try MigrationFixtures.seed(v2, at: url)
        let before = try Data(contentsOf: url)
        // v1 even declares v2 "known": it is not an earlier version of v1, so no backwards step.
        #expect {
            try JSONLinesStore(model: v1, url: url, options: MigrationFixtures.options([]))
        } throws: { error in
            let message = (error as? ObjectGraphError)?.message ?? ""
            return MigrationFixtures.code(error) == 134100 && message.contains(v2.versionChecksum)
                && message.contains(v1.versionChecksum) && message.contains("Street.lanes")
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func migrationOffGives134100AndInferenceOffGives134140() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let before = try Data(contentsOf: url)
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)])
        var off = MigrationFixtures.options([v1])
        off.shouldMigrateStoreAutomatically = false
        #expect { try JSONLinesStore(model: v2, url: url, options: off) } throws: {
            MigrationFixtures.code($0) == 134100
        }
        var noInference = MigrationFixtures.options([v1])
        noInference.shouldInferMappingModelAutomatically = false
        #expect { try JSONLinesStore(model: v2, url: url, options: noInference) } throws: {
            MigrationFixtures.code($0) == 134140
        }
        // Through a description and a container, as loadPersistentStores reports it.
        let container = PersistentContainer(name: "Streets", managedObjectModel: v2)
        let description = PersistentStoreDescription(url: url)
        description.storeOptions.modelVersions = [v1]
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        #expect { try container.loadPersistentStores() } throws: {
            MigrationFixtures.code($0) == 134100
        }
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
    }

    /// A type change lightweight migration cannot infer: Core Data reports 134140 ("Can't
    /// find or automatically infer mapping model for migration") from `loadPersistentStores`,
    /// the inference failure (134190, `NSInferredMappingModelError`) beneath it.
    @Test func aChangeThatCannotBeInferredGives134140With134190Underneath() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let before = try Data(contentsOf: url)
        let v2 = try MigrationFixtures.v1(number: .string)
        #expect {
            try JSONLinesStore(model: v2, url: url, options: MigrationFixtures.options([v1]))
        } throws: { error in
            guard let e = error as? ObjectGraphError else { return false }
            return e.code == 134140 && e.message.contains("Street.number")
                && e.underlying.first?.code == 134190
        }
        #expect(try Data(contentsOf: url) == before)
    }

    /// scenarios.md B44: a new required attribute without a default fails with 134110,
    /// "missing attribute values on mandatory destination attribute"; with a default it works.
    @Test func aRequiredAttributeWithoutDefaultGives134110AndWithADefaultMigrates() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let before = try Data(contentsOf: url)
        let noDefault = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "code", type: .string, isOptional: false)])
        #expect {
            try JSONLinesStore(model: noDefault, url: url, options: MigrationFixtures.options([v1]))
        } throws: { error in
            let e = error as? ObjectGraphError
            return e?.code == 134110 && e?.entityName == "Street" && e?.key == "code"
                && (e?.message.contains(
                    "missing attribute values on mandatory destination attribute") ?? false)
        }
        #expect(try Data(contentsOf: url) == before)
        let withDefault = try MigrationFixtures.v1(
            streetExtras: [
                AttributeDescription(
                    name: "code", type: .string, isOptional: false, defaultValue: "")
            ])
        let store = try JSONLinesStore(
            model: withDefault, url: url, options: MigrationFixtures.options([v1]))
        #expect(
            try MigrationFixtures.rows(store, "Street").map { $0["code"]?.attributeValue } == [
                .string(""), .string(""), .string(""),
            ])
        store.close()
    }

    /// The mapping moves the rows of a table it holds alone (issue 20's speed goal); a table
    /// another holder keeps (a dry run, a custom stage's container) is copied on first write,
    /// so that holder's rows stay as they were. The moved rows keep their keys and targets,
    /// and the derived to-many is answered from the rebuilt reverse index.
    @Test func migratingASharedTableLeavesTheOtherCopyUnchanged() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let store = try JSONLinesStore(model: v1, url: url)
        defer { store.close() }
        let before = v1.entities.map { store.table.rows(of: $0) }
        let v2 = try MigrationFixtures.v1(streetExtras: [
            AttributeDescription(name: "code", type: .string, isOptional: false, defaultValue: "x")
        ])
        let migrated = try InferredMapping(from: v1, to: v2).migrate(store.table)
        #expect(v1.entities.map { store.table.rows(of: $0) } == before)
        let streets = migrated.rows(of: v2[entityName: "Street"]!)
        #expect(streets.map(\.objectID.primaryKey) == before[1].map(\.objectID.primaryKey))
        #expect(streets.allSatisfy { $0.objectID.entity === v2[entityName: "Street"] })
        #expect(streets.allSatisfy { $0["code"] == .attribute(.string("x")) })
        let cities = migrated.rows(of: v2[entityName: "City"]!)
        let streetsOfCity = v2[entityName: "City"]!.relationshipsByName["streets"]!
        #expect(
            cities.map { migrated.relatedObjectIDs(streetsOfCity, of: $0.objectID).count } == [
                2, 1,
            ])
        #expect(
            streets.allSatisfy {
                if case .toOne(let city?) = $0["city"] {
                    return city.entity === v2[entityName: "City"]
                }
                return false
            })
    }

    @Test func rowsBreakingANewUniquenessConstraintGive134111ListingThem() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url, names: ["Main St", "Main St", "Oak St"])
        let before = try Data(contentsOf: url)
        let v2 = try MigrationFixtures.v1(streetConstraints: [["name"]])
        #expect {
            try JSONLinesStore(model: v2, url: url, options: MigrationFixtures.options([v1]))
        } throws: { error in
            let e = error as? ObjectGraphError
            return e?.code == 134111
                && (e?.message.contains("Street p1, Street p2") ?? false)
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func toOneBecomesToManyAndBackRefusingRowsWithSeveralTargets() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let many = try MigrationFixtures.v1(cityToMany: true)
        let store = try JSONLinesStore(
            model: many, url: url, options: MigrationFixtures.options([v1]))
        let streets = try MigrationFixtures.rows(store, "Street")
        let counts = streets.map { row -> Int in
            if case .toMany(let ids) = row["city"] { return ids.count }
            return -1
        }
        #expect(counts == [1, 1, 1])
        // Give street 1 a second city, then go back to to-one: refused, naming the row.
        let cities = try MigrationFixtures.rows(store, "City")
        var changed = streets[0]
        changed.values[changed.objectID.entity.propertiesByName["city"]!.index] = .toMany(
            cities.map(\.objectID))
        changed.version += 1
        try store.commit(StoreChangeSet(updated: [changed], timestamp: Date()))
        store.close()
        let before = try Data(contentsOf: url)
        #expect {
            try JSONLinesStore(model: v1, url: url, options: MigrationFixtures.options([many]))
        } throws: { error in
            let e = error as? ObjectGraphError
            return e?.code == 134110 && (e?.message.contains("Street p1") ?? false)
                && e?.key == "city"
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aReaderReadsAnOldFileMigratedInMemoryWithoutWritingIt() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let before = try Data(contentsOf: url)
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)])
        let reader = try JSONLinesStore(
            model: v2, url: url, options: MigrationFixtures.options([v1], readOnly: true))
        defer { reader.close() }
        #expect(
            try MigrationFixtures.rows(reader, "Street").map { $0["lanes"]?.attributeValue } == [
                .integer(2), .integer(2), .integer(2),
            ])
        #expect(try Data(contentsOf: url) == before)
        // A writer migrates the file; the reader follows it.
        let writer = try JSONLinesStore(
            model: v2, url: url, options: MigrationFixtures.options([v1]))
        writer.close()
        #expect(try MigrationFixtures.rows(reader, "Street").count == 3)
        #expect(
            try JSONLinesStore.metadata(at: url).model.entitiesByName["Street"]?.propertiesByName[
                "lanes"] != nil)
    }

    @Test func entityRenameAndRemovalKeepKeysAndCounters() throws {
        let url = try file()
        let v1 = try MigrationFixtures.v1()
        try MigrationFixtures.seed(v1, at: url)
        let town = EntityDescription(
            name: "Town", properties: [AttributeDescription(name: "title", type: .string)],
            renamingIdentifier: "City")
        let v2 = try ManagedObjectModel(entities: [town])
        let store = try JSONLinesStore(
            model: v2, url: url, options: MigrationFixtures.options([v1]))
        defer { store.close() }
        #expect(
            try MigrationFixtures.rows(store, "Town").map { $0["title"]?.attributeValue } == [
                .string("Springfield"), .string("Shelbyville"),
            ])
        #expect(try store.allocatePrimaryKeys(for: v2[entityName: "Town"]!, count: 1) == [3])
    }
}
