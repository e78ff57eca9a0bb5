import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Migration between the real multi-version Xcode models in `../shared/fixtures/xcdatamodels`:
/// CoreDataPlus's SampleModel → SampleModel2 → SampleModel3 and SwiftGen's Model → Model 2,
/// each source version seeded with `PreviewSeeder`.
@Suite(.enabled(if: SharedFixtures.available, "../shared/fixtures/xcdatamodels is absent"))
struct XcodeModelMigrationTests {
    private func model(_ name: String) throws -> ManagedObjectModel {
        try ManagedObjectModel(
            contentsOf: SharedFixtures.xcdatamodels.appendingPathComponent(name + ".xml"))
    }

    /// Every row, by entity name and primary key: attribute values by name, relationship
    /// targets as (entity, primary key) sets by name.
    private func snapshot(_ store: JSONLinesStore) throws -> [String: [Int64: [String: String]]] {
        var result: [String: [Int64: [String: String]]] = [:]
        for entity in store.model.entities where !entity.isAbstract {
            for row in try store.fetch(
                StoreFetchRequest(entity: entity, includesSubentities: false))
            {
                var values: [String: String] = [:]
                for property in entity.properties where !property.isTransient {
                    if let r = property as? RelationshipDescription {
                        let ids = try store.relatedObjectIDs(r, of: row.objectID)
                        values[property.name] =
                            ids.map { "\($0.entity.name)/\($0.primaryKey)" }.sorted().description
                    } else {
                        values[property.name] = "\(row.values[property.index])"
                    }
                }
                result[entity.name, default: [:]][row.objectID.primaryKey] = values
            }
        }
        return result
    }

    @Test func sampleModelToSampleModel2KeepsEveryObjectAndRelationship() throws {
        let v1 = try model("alemar11__CoreDataPlus__SampleModel")
        let v2 = try model("alemar11__CoreDataPlus__SampleModel2")
        let url = try MigrationFixtures.previewSeeded(v1, count: 6)
        let old = try JSONLinesStore(model: v1, url: url)
        let before = try snapshot(old)
        old.close()
        let store = try JSONLinesStore(
            model: v2, url: url, options: MigrationFixtures.options([v1]))
        defer { store.close() }
        let after = try snapshot(store)
        // ExpensiveSportCar is renamed LuxuryCar (renamingIdentifier); Car.color and Person.id
        // are removed; everything else keeps its value and targets.
        for (entity, rows) in before {
            let renamed = entity == "ExpensiveSportCar" ? "LuxuryCar" : entity
            #expect(after[renamed]?.count == rows.count, "\(entity)")
            for (pk, values) in rows {
                for (key, value) in values where !["color", "id"].contains(key) {
                    let migrated = after[renamed]?[pk]?[key]?
                        .replacingOccurrences(of: "LuxuryCar/", with: "ExpensiveSportCar/")
                    #expect(migrated == value, "\(entity) p\(pk).\(key)")
                }
            }
        }
        let rowsBefore: Int = before.values.map(\.count).reduce(0, +)
        let rowsAfter: Int = after.values.map(\.count).reduce(0, +)
        #expect(rowsBefore == rowsAfter)
    }

    /// SampleModel3 replaces `Car.maker` (a string) with `createdBy` → `Maker`: a custom
    /// stage keeps the makers (CoreDataPlus does this with a custom mapping).
    @Test func aStagedChainThroughSampleModel3TurnsMakersIntoObjects() throws {
        let v1 = try model("alemar11__CoreDataPlus__SampleModel")
        let v2 = try model("alemar11__CoreDataPlus__SampleModel2")
        let v3 = try model("alemar11__CoreDataPlus__SampleModel3")
        let url = try MigrationFixtures.previewSeeded(v1, count: 5)
        let old = try JSONLinesStore(model: v1, url: url)
        let makers = try old.fetch(StoreFetchRequest(entity: v1[entityName: "Car"]!))
            .reduce(into: [Int64: String]()) { result, row in
                if case .attribute(.string(let s)) = row["maker"] {
                    result[row.objectID.primaryKey] = s
                }
            }
        old.close()
        #expect(!makers.isEmpty)
        func reference(_ m: ManagedObjectModel) -> ManagedObjectModelReference {
            ManagedObjectModelReference(model: m, versionChecksum: m.versionChecksum)
        }
        let stash = Stash()
        let custom = CustomMigrationStage(migratingFrom: reference(v2), to: reference(v3))
        custom.willMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                for car in try context.fetch(FetchRequest<ManagedObject>(entityName: "Car")) {
                    if let maker = car.value(forKey: "maker") as? String {
                        stash.set(car.objectID.primaryKey, maker)
                    }
                }
            }
        }
        custom.didMigrateHandler = { manager, _ in
            let context = manager.container!.newBackgroundContext()
            try context.performAndWait {
                var byName: [String: ManagedObject] = [:]
                for car in try context.fetch(FetchRequest<ManagedObject>(entityName: "Car")) {
                    guard let name = stash.get(car.objectID.primaryKey) else { continue }
                    let maker =
                        byName[name]
                        ?? {
                            let m = context.insertNewObject(forEntityName: "Maker")
                            m.setValue(name, forKey: "name")
                            byName[name] = m
                            return m
                        }()
                    car.setValue(maker, forKey: "createdBy")
                }
                try context.save()
            }
        }
        var options = StoreOptions()
        options.stagedMigrationManager = StagedMigrationManager([
            LightweightMigrationStage([v1.versionChecksum, v2.versionChecksum]), custom,
        ])
        options.modelVersions = [v1]
        let store = try JSONLinesStore(model: v3, url: url, options: options)
        defer { store.close() }
        let cars = try store.fetch(StoreFetchRequest(entity: v3[entityName: "Car"]!))
        var found: [Int64: String] = [:]
        for car in cars {
            if case .toOne(let id?) = car["createdBy"], let maker = try store.row(for: id),
                case .attribute(.string(let name)) = maker["name"]
            {
                found[car.objectID.primaryKey] = name
            }
        }
        #expect(found == makers)
    }

    /// Model 2 makes attributes of `ChildEntity` required without defaults (`string`, and the
    /// new `now`): seeded rows holding nil there cannot be migrated, 134110 naming the entity
    /// and attribute, the file unchanged.
    @Test func swiftGenModel2NeedsValuesForItsNewRequiredDate() throws {
        let v1 = try model("SwiftGen__SwiftGen__Model")
        let v2 = try model("SwiftGen__SwiftGen__Model_2")
        let url = try MigrationFixtures.previewSeeded(v1, count: 3)
        let before = try Data(contentsOf: url)
        #expect {
            try JSONLinesStore(model: v2, url: url, options: MigrationFixtures.options([v1]))
        } throws: { error in
            let e = error as? ObjectGraphError
            return e?.code == 134110 && e?.entityName == "ChildEntity"
                && ["string", "now"].contains(e?.key ?? "")
        }
        #expect(try Data(contentsOf: url) == before)
    }
}

/// Values a migration handler keeps between its two steps.
private final class Stash: @unchecked Sendable {
    // Sendable: `values` is guarded by `lock`.
    private let lock = NSLock()
    private var values: [Int64: String] = [:]
    func set(_ key: Int64, _ value: String) { lock.withLock { values[key] = value } }
    func get(_ key: Int64) -> String? { lock.withLock { values[key] } }
}
