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

    /// A directory path that does not exist.
    private func missingDirectory() -> URL {
        TemporaryStoreFiles.next("missing").deletingPathExtension()
    }

    /// What ``PersistentContainer/directoryToCreate(for:defaultDirectory:)`` gives for `url`
    /// with `defaultDirectory` the default directory: the directory to create (standardized
    /// path, or `nil`), and how often the default directory was looked up.
    private func outcome(_ url: URL, defaultDirectory: URL) -> (created: String?, lookups: Int) {
        let defaults = DefaultDirectory(defaultDirectory)
        let created = PersistentContainer.directoryToCreate(
            for: url, defaultDirectory: defaults.lookUp)
        return (created?.standardizedFileURL.path, defaults.lookups)
    }

    @Test func aStoreInAnExistingDirectoryCreatesNothingAndSkipsTheDefaultDirectory() {
        let url = TemporaryStoreFiles.next()
        let found = outcome(url, defaultDirectory: url.deletingLastPathComponent())
        #expect(found.created == nil && found.lookups == 0)
    }

    @Test func aStoreInTheMissingDefaultDirectoryCreatesIt() {
        let missing = missingDirectory()
        let found = outcome(
            missing.appendingPathComponent("store.jsonl"),
            defaultDirectory: missing.appendingPathComponent("."))
        #expect(found.created == missing.standardizedFileURL.path && found.lookups == 1)
    }

    @Test func aStoreInAnotherMissingDirectoryCreatesNothing() {
        let found = outcome(
            missingDirectory().appendingPathComponent("store.jsonl"),
            defaultDirectory: TemporaryStoreFiles.folder)
        #expect(found.created == nil && found.lookups == 1)
    }

    @Test func theRAMStoreAndURLsThatAreNotFilesCreateNothing() throws {
        // The web URL's path names a missing directory, which is the default one here.
        let missing = missingDirectory()
        let web = try #require(URL(string: "https://example.com\(missing.path)/store.jsonl"))
        for url in [URL(fileURLWithPath: "/dev/null"), web] {
            let found = outcome(url, defaultDirectory: missing)
            #expect(found.created == nil && found.lookups == 0, "\(url)")
        }
    }

    /// A regular file where the store's directory would be: it exists, so nothing is
    /// created and the default directory is not looked up (creating the directory there
    /// failed, and loading ignored the failure, before the look-up was skipped).
    @Test func aFileAtTheDirectorysPathCreatesNothing() throws {
        let file = missingDirectory()
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let found = outcome(file.appendingPathComponent("store.jsonl"), defaultDirectory: file)
        #expect(found.created == nil && found.lookups == 0)
    }

    /// A symbolic link to a missing place where the default directory would be: `access`
    /// follows it and finds nothing, so the default directory is compared (and named for
    /// creation, which fails on the link, ignored by loading, as before); a link to an
    /// existing directory counts as the directory.
    @Test func symbolicLinksAtTheDirectorysPathAreFollowed() throws {
        let dangling = missingDirectory()
        try FileManager.default.createSymbolicLink(
            at: dangling, withDestinationURL: missingDirectory())
        defer { try? FileManager.default.removeItem(at: dangling) }
        let toDangling = outcome(
            dangling.appendingPathComponent("store.jsonl"), defaultDirectory: dangling)
        #expect(toDangling.created == dangling.standardizedFileURL.path)
        #expect(toDangling.lookups == 1)

        let linked = missingDirectory()
        try FileManager.default.createSymbolicLink(
            at: linked, withDestinationURL: TemporaryStoreFiles.folder)
        defer { try? FileManager.default.removeItem(at: linked) }
        let toFolder = outcome(
            linked.appendingPathComponent("store.jsonl"), defaultDirectory: linked)
        #expect(toFolder.created == nil && toFolder.lookups == 0)
    }

    @Test func loadingAStoreInAMissingDirectoryOtherThanTheDefaultFails() throws {
        let missing = missingDirectory()
        let container = PersistentContainer(name: "T", managedObjectModel: try ExpenseModel.make())
        container.persistentStoreDescriptions = [
            PersistentStoreDescription(url: missing.appendingPathComponent("store.jsonl"))
        ]
        #expect(throws: ObjectGraphError.self) { try container.loadPersistentStores() }
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }
}
