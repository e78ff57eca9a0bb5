import Foundation
import Testing

@testable import ObjectGraph

/// `PersistentStoreDescription` as Core Data's `NSPersistentStoreDescription`: a class with an
/// options dictionary keyed by Core Data's constants.
@Suite struct StoreDescriptionOptionsTests {
    private func container() throws -> PersistentContainer {
        PersistentContainer(name: "Options", managedObjectModel: try ExpenseModel.make())
    }

    @Test func theTypeFollowsTheURL() {
        #expect(PersistentStoreDescription().type == "InMemory")
        let file = PersistentStoreDescription(url: URL(fileURLWithPath: "/tmp/x.jsonl"))
        #expect(file.type == "JSONLines")
        file.type = "InMemory"
        #expect(file.type == "InMemory")
    }

    @Test func knownKeysSetTheTypedSettingsAndNilResetsThem() {
        let description = PersistentStoreDescription()
        description.setOption(true as NSNumber, forKey: NSReadOnlyPersistentStoreOption)
        description.setOption(2.5 as NSNumber, forKey: NSPersistentStoreTimeoutOption)
        description.setOption(
            false as NSNumber, forKey: NSMigratePersistentStoresAutomaticallyOption)
        #expect(description.isReadOnly)
        #expect(description.storeOptions.isReadOnly)
        #expect(description.timeout == 2.5)
        #expect(!description.shouldMigrateStoreAutomatically)
        #expect(description.options[NSReadOnlyPersistentStoreOption] == true as NSNumber)
        #expect(description.options[NSInferMappingModelAutomaticallyOption] == true as NSNumber)
        description.setOption(nil, forKey: NSReadOnlyPersistentStoreOption)
        #expect(!description.isReadOnly)
        #expect(description.options[NSReadOnlyPersistentStoreOption] == nil)
    }

    /// The container's own descriptions are references: changing one in place changes what
    /// loads, as with Core Data's.
    @Test func editingTheContainersDescriptionInPlaceTakesEffect() throws {
        let url = TemporaryStoreFiles.next("options")
        let seed = try container()
        seed.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try seed.loadPersistentStores()
        (seed.persistentStoreCoordinator.persistentStores.first as? JSONLinesStore)?.close()

        let reader = try container()
        reader.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        reader.persistentStoreDescriptions.first?.setOption(
            true as NSNumber, forKey: NSReadOnlyPersistentStoreOption)
        try reader.loadPersistentStores()
        let store = try #require(reader.persistentStoreCoordinator.persistentStores.first)
        #expect(store.isReadOnly)
    }

    @Test func theHistoryKeyTurnsOnTrackingAndItsPropertyFollows() throws {
        let container = try container()
        let description = PersistentStoreDescription()
        description.setOption(true as NSNumber, forKey: NSPersistentHistoryTrackingKey)
        #expect(description.tracksPersistentHistory)
        #expect(description.options[NSPersistentHistoryTrackingKey] == true as NSNumber)
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        #expect(container.persistentStoreCoordinator.persistentStores.first?.tracksHistory == true)
        description.tracksPersistentHistory = false
        #expect(description.options[NSPersistentHistoryTrackingKey] == nil)
    }

    @Test func unknownKeysAreKeptAndReportedAsLoadWarnings() throws {
        let container = try container()
        let description = PersistentStoreDescription()
        description.setOption("WAL" as NSString, forKey: "journal_mode")
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        #expect(description.options["journal_mode"] == "WAL" as NSString)
        #expect(container.loadWarnings.count == 1)
        #expect(container.loadWarnings.first?.contains("journal_mode") == true)
    }

    @Test func theDefaultStoreLivesInTheDefaultDirectory() throws {
        let container = try container()
        let url = try #require(container.persistentStoreDescriptions.first?.url)
        #expect(url.lastPathComponent == "Options.jsonl")
        #expect(
            url.deletingLastPathComponent().standardizedFileURL
                == PersistentContainer.defaultDirectoryURL().standardizedFileURL)
        #if os(Linux)
            let expected =
                ProcessInfo.processInfo.environment["XDG_DATA_HOME"].map {
                    URL(fileURLWithPath: $0)
                } ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share")
            #expect(
                PersistentContainer.defaultDirectoryURL().standardizedFileURL.path
                    == expected.standardizedFileURL.path)
        #endif
    }
}
