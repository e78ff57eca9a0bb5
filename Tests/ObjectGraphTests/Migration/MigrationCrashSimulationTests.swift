import Foundation
import Testing

@testable import ObjectGraph

/// Deterministic crashes through the I/O seam at every step of a migration (after k bytes of
/// the new file's write, before and after its sync, the `FILE.pre-migration` link and the
/// rename), as a killed process and as a power cut: the file is always either the old one,
/// whole, or the migrated one, whole; the next open then ends with the migrated rows.
@Suite struct MigrationCrashSimulationTests {
    let url = URL(fileURLWithPath: "/sim/streets.jsonl")

    /// A closed version-1 store with two cities and three streets.
    private func base(_ v1: ManagedObjectModel) throws -> SimulatedFileSystem {
        let fs = SimulatedFileSystem()
        let store = try JSONLinesStore(model: v1, url: url, options: StoreOptions(), fileSystem: fs)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: v1)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let city = context.insertNewObject(forEntityName: "City")
            city.setValue("Springfield", forKey: "title")
            for (i, name) in ["Main St", "Elm St", "Oak St"].enumerated() {
                let street = context.insertNewObject(forEntityName: "Street")
                street.setValue(name, forKey: "name")
                street.setValue(i + 1, forKey: "number")
                street.setValue(city, forKey: "city")
            }
            try context.save()
        }
        store.close()
        return fs
    }

    private func open(
        _ fs: SimulatedFileSystem, _ model: ManagedObjectModel, _ v1: ManagedObjectModel
    )
        throws -> JSONLinesStore
    {
        try JSONLinesStore(
            model: model, url: url, options: MigrationFixtures.options([v1]), fileSystem: fs)
    }

    @Test(arguments: SimulatedFileSystem.CrashKind.allCases)
    func aCrashDuringMigrationLeavesTheOldFileOrTheMigratedOne(
        crash: SimulatedFileSystem.CrashKind
    ) throws {
        let v1 = try MigrationFixtures.v1()
        let v2 = try MigrationFixtures.v1(
            streetExtras: [AttributeDescription(name: "lanes", type: .integer32, defaultValue: 2)])
        let base = try base(v1)
        let probe = base.copy()
        probe.inject { _, _ in nil }
        try open(probe, v2, v1).close()
        let operations = probe.operations
        #expect(operations.contains { $0.description.hasPrefix("link") })
        var points: [(Int, Int?)] = []
        for (i, op) in operations.enumerated() {
            points.append((i, nil))
            if case .write(_, let n) = op { points += [1, n / 2, n - 1].map { (i, $0) } }
        }
        for (index, keep) in points {
            let fs = base.copy()
            fs.inject { _, i in i == index ? (keep.map { .partialThenCrash($0) } ?? .crash) : nil }
            _ = try? open(fs, v2, v1)
            let restarted = fs.afterCrash(crash)
            let point = "\(crash): crash before op \(index) keeping \(keep.map(String.init) ?? "-")"
            // Old or migrated, whole: its header's model is v1 or v2, and it opens with v2.
            let header = try JSONLinesStore.metadata(at: url, fileSystem: restarted)
            let version = header.model.versionChecksum
            #expect(version == v1.versionChecksum || version == v2.versionChecksum, "\(point)")
            let store = try open(restarted, v2, v1)
            let streets = try MigrationFixtures.rows(store, "Street")
            #expect(
                streets.map { $0["lanes"]?.attributeValue } == [
                    .integer(2), .integer(2), .integer(2),
                ], "\(point)")
            #expect(streets.map(\.objectID.primaryKey) == [1, 2, 3], "\(point)")
            store.close()
        }
    }
}
