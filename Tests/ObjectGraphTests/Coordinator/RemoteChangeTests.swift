import Foundation
import Testing

@testable import ObjectGraph

/// `NSPersistentStoreRemoteChangeNotificationPostOptionKey`: the store posts
/// `NSPersistentStoreRemoteChange` for every write, its own process's included, with the
/// store's URL and UUID; object the coordinator; on a private queue.
/// Source: https://developer.apple.com/documentation/foundation/nsnotification/name-swift.struct/nspersistentstoreremotechange
/// ("posts after another process writes … object is the changed store coordinator … posts the
/// notification to a private thread"), and the option's page ("for every write to the store,
/// including writes by other processes").
@Suite struct RemoteChangeTests {
    /// A coordinator with one store at `url` (`/dev/null`: the RAM store).
    private func stack(
        _ model: ManagedObjectModel, url: URL, posts: Bool = true, readOnly: Bool = false,
        detection: RemoteChangeDetection = .automatic
    ) throws -> (PersistentStoreCoordinator, any PersistentStore) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        if posts {
            description.setOption(
                true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        }
        description.isReadOnly = readOnly
        description.storeOptions.remoteChangeDetection = detection
        description.storeOptions.remoteChangePollingInterval = 0.01
        description.storeOptions.automaticCompaction = false
        let store = try coordinator.addPersistentStore(with: description)
        return (coordinator, store)
    }

    /// Inserts a `Note` titled `title` through a context of `coordinator` and saves.
    private func save(_ title: String, in coordinator: PersistentStoreCoordinator) throws {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let note = context.insertNewObject(forEntityName: "Note")
            note.setValue(title, forKey: "title")
            try context.save()
        }
    }

    private func titles(_ coordinator: PersistentStoreCoordinator) throws -> [String] {
        let model = coordinator.managedObjectModel
        return try coordinator.fetch(StoreFetchRequest(entity: model[entityName: "Note"]!))
            .compactMap {
                if case .string(let s) = $0.values[0].attributeValue { s } else { nil }
            }.sorted()
    }

    @Test(arguments: ["ram", "file"])
    func everyOwnSaveIsPostedWithTheStoresURLAndUUIDOnTheCoordinatorsQueue(kind: String) throws {
        let file = try FileStoreFixtures.NoteFile()
        let url = kind == "ram" ? URL(fileURLWithPath: "/dev/null") : file.url
        let (coordinator, store) = try stack(file.model, url: url)
        let recorder = RemoteChangeRecorder(coordinator)
        try save("one", in: coordinator)
        try save("two", in: coordinator)
        let records = recorder.wait(for: 2)
        #expect(records.count == 2)
        for record in records {
            #expect(record.storeIdentifier == store.identifier)
            #expect(record.url == url)
            #expect(record.objectIsCoordinator)
            #expect(record.onCoordinatorQueue)
            #expect(record.historyToken == nil)  // history is off
        }
        coordinator.remoteChangeQueue.sync {}
        #expect(recorder.all.count == 2, "one notification per save, no more")
    }

    @Test(arguments: ["ram", "file"])
    func withoutTheOptionNothingIsPosted(kind: String) throws {
        let file = try FileStoreFixtures.NoteFile()
        let url = kind == "ram" ? URL(fileURLWithPath: "/dev/null") : file.url
        let (coordinator, store) = try stack(file.model, url: url, posts: false)
        let recorder = RemoteChangeRecorder(coordinator)
        try save("one", in: coordinator)
        coordinator.remoteChangeQueue.sync {}
        #expect(recorder.all.isEmpty)
        #expect((store as? JSONLinesStore)?.watchesWithKernelEvents == nil)
    }

    @Test func theOptionLoadsAndShowsInTheDescription() throws {
        let description = PersistentStoreDescription()
        #expect(!description.postsRemoteChangeNotifications)
        description.setOption(
            true as NSNumber, forKey: NSPersistentStoreRemoteChangeNotificationPostOptionKey)
        #expect(description.postsRemoteChangeNotifications)
        #expect(description.storeOptions.postsRemoteChangeNotifications)
        #expect(
            description.options[NSPersistentStoreRemoteChangeNotificationPostOptionKey]
                == true as NSNumber)
        description.postsRemoteChangeNotifications = false
        #expect(description.options[NSPersistentStoreRemoteChangeNotificationPostOptionKey] == nil)
        let container = PersistentContainer(
            name: "Notes", managedObjectModel: try FileStoreFixtures.noteModel())
        description.postsRemoteChangeNotifications = true
        container.persistentStoreDescriptions = [description]
        try container.loadPersistentStores()
        #expect(container.persistentStoreCoordinator.persistentStores.count == 1)
        #expect(container.persistentStoreCoordinator.loadWarnings.isEmpty)
    }

    @Test(arguments: [RemoteChangeDetection.automatic, .polling])
    func aReaderPostsWhatAnotherWriterAppendsAndItsFetchesSeeIt(
        detection: RemoteChangeDetection
    ) throws {
        let file = try FileStoreFixtures.NoteFile()
        let (writer, _) = try stack(file.model, url: file.url, posts: false)
        try save("first", in: writer)
        let (reader, store) = try stack(
            file.model, url: file.url, readOnly: true, detection: detection)
        let fileStore = try #require(store as? JSONLinesStore)
        #expect(fileStore.watchesWithKernelEvents == (detection == .automatic))
        let recorder = RemoteChangeRecorder(reader)
        try save("second", in: writer)
        try save("third", in: writer)
        let records = recorder.wait(for: 2)
        #expect(records.count == 2)
        #expect(records.allSatisfy { $0.storeIdentifier == store.identifier && $0.url == file.url })
        #expect(try titles(reader) == ["first", "second", "third"])
    }

    @Test func aSecondCoordinatorOfThisProcessPostsTheFirstOnesSaves() throws {
        let file = try FileStoreFixtures.NoteFile()
        let (first, _) = try stack(file.model, url: file.url)
        let (second, _) = try stack(file.model, url: file.url)
        let own = RemoteChangeRecorder(first)
        let other = RemoteChangeRecorder(second)
        try save("shared", in: first)
        #expect(own.wait(for: 1).count == 1)
        #expect(other.wait(for: 1).count == 1)
        #expect(try titles(second) == ["shared"])
    }

    @Test func aReaderFollowsACompactionAndPostsOnlyNewTransactions() throws {
        let file = try FileStoreFixtures.NoteFile()
        let (writer, writerStore) = try stack(file.model, url: file.url, posts: false)
        try save("before", in: writer)
        let (reader, _) = try stack(file.model, url: file.url, readOnly: true)
        let recorder = RemoteChangeRecorder(reader)
        try (writerStore as? JSONLinesStore)?.compact()
        try save("after", in: writer)
        #expect(recorder.wait(for: 1).count == 1)
        #expect(try titles(reader) == ["after", "before"])
        reader.remoteChangeQueue.sync {}
        #expect(recorder.all.count == 1, "the compaction itself changed no data")
    }

    @Test func aReaderFollowsAFileRepairedToAnEarlierEndAndPostsIt() throws {
        let file = try FileStoreFixtures.NoteFile()
        let (writer, writerStore) = try stack(file.model, url: file.url, posts: false)
        try save("kept", in: writer)
        let kept = try Data(contentsOf: file.url)
        try save("lost", in: writer)
        try writer.remove(writerStore)
        let (reader, _) = try stack(file.model, url: file.url, readOnly: true)
        let recorder = RemoteChangeRecorder(reader)
        #expect(try titles(reader) == ["kept", "lost"])
        // What a repair does: a new file with the good prefix renamed over the old one.
        let replacement = file.directory.appendingPathComponent("notes.jsonl.tmp")
        try kept.write(to: replacement)
        #expect(rename(replacement.path, file.url.path) == 0)
        #expect(recorder.wait(for: 1).count == 1)
        #expect(try titles(reader) == ["kept"])
    }

    @Test func aFileReplacedByAnotherStoresIsAnErrorNeverACrashOrAStaleRead() throws {
        let file = try FileStoreFixtures.NoteFile()
        let (writer, writerStore) = try stack(file.model, url: file.url, posts: false)
        try save("ours", in: writer)
        try writer.remove(writerStore)
        let (reader, _) = try stack(file.model, url: file.url, readOnly: true)
        let recorder = RemoteChangeRecorder(reader)
        let other = file.directory.appendingPathComponent("other.jsonl")
        let (stranger, strangerStore) = try stack(file.model, url: other, posts: false)
        try save("theirs", in: stranger)
        try stranger.remove(strangerStore)
        #expect(rename(other.path, file.url.path) == 0)
        #expect {
            try titles(reader)
        } throws: { error in
            (error as? ObjectGraphError)?.reason == .storeOperationFailed
        }
        reader.remoteChangeQueue.sync {}
        #expect(recorder.all.isEmpty)
    }

    @Test func removingTheStoreEndsTheWatchAndClosesItsDescriptor() throws {
        let file = try FileStoreFixtures.NoteFile()
        let (coordinator, store) = try stack(file.model, url: file.url)
        let fileStore = try #require(store as? JSONLinesStore)
        let watcher = try #require(fileStore.locked { fileStore.watcher })
        #expect(!watcher.isReleased)
        try coordinator.remove(store)
        #expect(watcher.isReleased)
        #expect(fileStore.watchesWithKernelEvents == nil)
    }

    @Test func closingTheStoreEndsTheWatchToo() throws {
        let file = try FileStoreFixtures.NoteFile()
        let (_, store) = try stack(file.model, url: file.url, detection: .polling)
        let fileStore = try #require(store as? JSONLinesStore)
        let watcher = try #require(fileStore.locked { fileStore.watcher })
        fileStore.close()
        #expect(watcher.isReleased)
    }
}
