import Foundation
import Testing

@testable import ObjectGraph

/// Which directory loading a store creates first: the default directory, when the store is
/// placed there and it is missing; the default directory is looked up only then.
@Suite struct PersistentContainerDirectoryTests {
    /// Counts the lookups of the default directory, which is `directory`.
    private final class DefaultDirectory: @unchecked Sendable {
        let directory: URL
        var lookups = 0
        init(_ directory: URL) { self.directory = directory }
        func lookUp() -> URL {
            lookups += 1
            return directory
        }
    }

    @Test func aStoreInAnExistingDirectoryCreatesNothingAndSkipsTheDefaultDirectory() throws {
        let url = TemporaryStoreFiles.next()
        let defaults = DefaultDirectory(url.deletingLastPathComponent())
        #expect(
            PersistentContainer.directoryToCreate(for: url, defaultDirectory: defaults.lookUp)
                == nil)
        #expect(defaults.lookups == 0)
    }

    @Test func aStoreInTheMissingDefaultDirectoryCreatesIt() throws {
        let missing = TemporaryStoreFiles.next("missing").deletingPathExtension()
        let url = missing.appendingPathComponent("store.jsonl")
        let defaults = DefaultDirectory(missing.appendingPathComponent("."))
        let created = PersistentContainer.directoryToCreate(
            for: url, defaultDirectory: defaults.lookUp)
        #expect(created?.standardizedFileURL.path == missing.standardizedFileURL.path)
        #expect(defaults.lookups == 1)
    }

    @Test func aStoreInAnotherMissingDirectoryCreatesNothing() throws {
        let missing = TemporaryStoreFiles.next("missing").deletingPathExtension()
        let url = missing.appendingPathComponent("store.jsonl")
        let defaults = DefaultDirectory(TemporaryStoreFiles.folder)
        #expect(
            PersistentContainer.directoryToCreate(for: url, defaultDirectory: defaults.lookUp)
                == nil)
        #expect(defaults.lookups == 1)
    }

    @Test func theRAMStoreAndURLsThatAreNotFilesCreateNothing() throws {
        // The web URL's path names a missing directory, which is the default one here.
        let missing = TemporaryStoreFiles.next("missing").deletingPathExtension()
        let defaults = DefaultDirectory(missing)
        for url in [
            URL(fileURLWithPath: "/dev/null"),
            try #require(URL(string: "https://example.com\(missing.path)/store.jsonl")),
        ] {
            #expect(
                PersistentContainer.directoryToCreate(for: url, defaultDirectory: defaults.lookUp)
                    == nil)
        }
        #expect(defaults.lookups == 0)
    }

    @Test func loadingAStoreInAMissingDirectoryOtherThanTheDefaultFails() throws {
        let missing = TemporaryStoreFiles.next("missing").deletingPathExtension()
        let container = PersistentContainer(name: "T", managedObjectModel: try ExpenseModel.make())
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(url: missing.appendingPathComponent("store.jsonl"))
        ]
        #expect(throws: ObjectGraphError.self) { try container.loadPersistentStores() }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }
}
