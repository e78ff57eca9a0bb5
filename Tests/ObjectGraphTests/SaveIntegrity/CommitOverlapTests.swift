import Foundation
import Testing

@testable import ObjectGraph

extension SaveIntegrity {
    /// A large root save's adoption of its outcome (its inserts re-keyed to their permanent
    /// IDs, versions advanced) runs on the saving thread while a second thread applies the
    /// change set to the store's rows (`StoreCommitOverlap`). The saves below run once with
    /// the overlap for every save (threshold 0) and once without (threshold `Int.max`): both
    /// end with the same rows, IDs, registry, notifications (contents, order and thread),
    /// history and file bytes.
    @Suite struct CommitOverlapTests {
        /// `InsertSaveIDTests`' model: `Folder(name)` ⟷ `File(name)`.
        static func model() throws -> ManagedObjectModel { try InsertSaveIDTests.model() }

        /// A store of `kind` with a fixed identifier, a ticking clock and history, at `url`.
        static func open(
            _ kind: StoreKind, _ model: ManagedObjectModel, url: URL,
            fileSystem: FaultInjectingFileSystem? = nil
        ) throws -> any PersistentStore {
            var options = FileStoreFixtures.options()
            options.automaticCompaction = false
            options.tracksHistory = true
            if kind.name == StoreKind.jsonLines.name {
                if let fileSystem {
                    return try JSONLinesStore(
                        model: model, url: url, options: options, fileSystem: fileSystem)
                }
                return try JSONLinesStore(model: model, url: url, options: options)
            }
            return InMemoryStore(model: model, options: options)
        }

        /// What a run of `saves` left: every row, every notification posted for the context
        /// (in order, with its contents, and whether it came on the saving thread), the
        /// history, the file's bytes, and whether each saved object is registered under its
        /// permanent ID only.
        struct Outcome: Equatable {
            var rows: [String] = []
            var notifications: [String] = []
            var history: [String] = []
            var bytes: Data?
            var registered: [Bool] = []
        }

        /// Three saves on one context with `threshold`: 4 folders and 40 files; 20 files more
        /// with 3 files and a folder deleted; 10 files more.
        static func run(_ kind: StoreKind, threshold: Int) throws -> Outcome {
            let model = try model()
            let url = try FileStoreFixtures.temporaryDirectory()
                .appendingPathComponent("overlap.jsonl")
            let store = try open(kind, model, url: url)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(store)
            coordinator.clock = { Date(timeIntervalSince1970: 1_700_000_000) }
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            context.commitOverlapThreshold = threshold
            var outcome = Outcome()
            let recorder = NotificationLog()
            let observer = NotificationCenter.default.addObserver(
                forName: nil, object: context, queue: nil
            ) { note in recorder.record(describe(note)) }
            defer { NotificationCenter.default.removeObserver(observer) }
            try context.performAndWait {
                recorder.savingThread = pthread_self()
                var folders: [ManagedObject] = []
                var files: [ManagedObject] = []
                var made = 0
                func insertFiles(_ count: Int) {
                    for _ in 0..<count {
                        let file = context.insertNewObject(forEntityName: "File")
                        file.setValue("file \(made)", forKey: "name")
                        made += 1
                        file.setValue(folders[files.count % folders.count], forKey: "folder")
                        files.append(file)
                    }
                }
                for i in 0..<4 {
                    let folder = context.insertNewObject(forEntityName: "Folder")
                    folder.setValue("folder \(i)", forKey: "name")
                    folders.append(folder)
                }
                insertFiles(40)
                var temporary = (folders + files).map(\.objectID)
                try context.save()
                let deleted = [files[1], files[5], files[9], folders[3]]
                for object in deleted { context.delete(object) }
                files.removeAll { object in deleted.contains { $0 === object } }
                folders.removeLast()
                insertFiles(20)
                temporary += files[37...].map(\.objectID)
                try context.save()
                insertFiles(10)
                temporary += files[57...].map(\.objectID)
                try context.save()
                let live = folders + files
                outcome.registered =
                    live.map { context.registeredObject(for: $0.objectID) === $0 }
                    + temporary.map { context.registeredObject(for: $0) == nil }
            }
            for entity in ["Folder", "File"] {
                outcome.rows += try store.fetch(
                    StoreFetchRequest(entity: model.entitiesByName[entity]!)
                ).map { "\($0)" }
            }
            outcome.history = try store.history(after: nil).map { "\($0)" }
            if let file = store as? JSONLinesStore {
                file.close()
                outcome.bytes = try Data(contentsOf: url)
            }
            outcome.notifications = recorder.entries
            return outcome
        }

        /// A notification's name and contents, with object IDs sorted.
        static func describe(_ note: Notification) -> String {
            let info = (note.userInfo ?? [:]).map { key, value -> String in
                let ids: [String]
                switch value {
                case let set as Set<ManagedObjectID>: ids = set.map(\.description)
                case let set as Set<ManagedObject>:
                    // A new object by its entity and name (temporary IDs differ from run to run).
                    ids = set.map { o in
                        o.objectID.isTemporaryID
                            ? "new \(o.entity.name) \(o.value(forKey: "name") ?? "")"
                            : o.objectID.description
                    }
                default: ids = ["\(value)"]
                }
                return "\(key)=\(ids.sorted())"
            }
            return "\(note.name.rawValue) \(info.sorted())"
        }

        @Test(arguments: StoreKind.all)
        func aSaveWhoseAdoptionOverlapsTheTableUpdateEndsAsOneThatRunsThemInTurn(
            kind: StoreKind
        ) throws {
            let overlapped = try Self.run(kind, threshold: 0)
            let sequential = try Self.run(kind, threshold: .max)
            #expect(overlapped.rows == sequential.rows)
            #expect(overlapped.notifications == sequential.notifications)
            #expect(overlapped.history == sequential.history)
            #expect(overlapped.bytes == sequential.bytes)
            #expect(overlapped.registered == sequential.registered)
            #expect(overlapped.registered.allSatisfy { $0 })
            #expect(overlapped.rows.count == 4 - 1 + 70 - 3)
            #expect(overlapped.history.count == 3)
            #expect(!overlapped.notifications.contains { $0.hasSuffix(" elsewhere") })
            #expect(
                overlapped.notifications.contains {
                    $0.hasPrefix("NSManagedObjectContextDidSaveObjectIDs")
                })
        }

        /// A save whose write fails, with the overlap offered: nothing is applied (the
        /// objects keep their temporary IDs and stay inserted, the store has no row, the file
        /// is unchanged), and a retry saves them all.
        @Test func aSaveWhoseWriteFailsAppliesNothingWithTheOverlapOffered() throws {
            let model = try Self.model()
            let url = try FileStoreFixtures.temporaryDirectory()
                .appendingPathComponent("overlap.jsonl")
            let fs = FaultInjectingFileSystem()
            let store = try Self.open(.jsonLines, model, url: url, fileSystem: fs)
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(store)
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            context.commitOverlapThreshold = 0
            let bytes = try Data(contentsOf: url)
            try context.performAndWait {
                let folder = context.insertNewObject(forEntityName: "Folder")
                let files = (0..<50).map { i in
                    let file = context.insertNewObject(forEntityName: "File")
                    file.setValue("file \(i)", forKey: "name")
                    file.setValue(folder, forKey: "folder")
                    return file
                }
                let objects = [folder] + files
                let temporary = objects.map(\.objectID)
                fs.failNext(.write, .fail(EIO))
                #expect { try context.save() } throws: {
                    ($0 as? ObjectGraphError)?.reason == .storeWriteFailed
                }
                #expect(objects.map(\.objectID) == temporary)
                #expect(objects.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
                #expect(context.insertedObjects.count == 51)
                #expect(try Data(contentsOf: url) == bytes)
                #expect(try FileStoreFixtures.allRows(store).isEmpty)
                try context.save()
                #expect(objects.allSatisfy { !$0.objectID.isTemporaryID })
                #expect(objects.allSatisfy { context.registeredObject(for: $0.objectID) === $0 })
                #expect(try FileStoreFixtures.allRows(store).count == 51)
                #expect(files[3].value(forKey: "name") as? String == "file 3")
            }
        }

        /// Another context fetching on its own queue while a large save commits with the
        /// overlap sees the rows before the save or after it, never part of them.
        @Test(arguments: StoreKind.all)
        func aReaderOnAnotherQueueSeesNoHalfAppliedSave(kind: StoreKind) throws {
            let model = try Self.model()
            let url = try FileStoreFixtures.temporaryDirectory()
                .appendingPathComponent("overlap.jsonl")
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(try Self.open(kind, model, url: url))
            let writer = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            writer.commitOverlapThreshold = 0
            let reader = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            let state = ReaderState()
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                while true {
                    let finished = state.writerFinished
                    let seen = reader.performAndWait { () -> (Int, Int) in
                        let count =
                            (try? reader.count(for: FetchRequest<ManagedObject>(entityName: "File")))
                            ?? -1
                        let fetched =
                            (try? reader.fetch(FetchRequest<ManagedObject>(entityName: "File")))?
                            .count ?? -1
                        reader.reset()
                        return (count, fetched)
                    }
                    state.record(seen)
                    if finished { break }
                }
                done.signal()
            }
            try writer.performAndWait {
                let folder = writer.insertNewObject(forEntityName: "Folder")
                for i in 0..<5_000 {
                    let file = writer.insertNewObject(forEntityName: "File")
                    file.setValue("file \(i)", forKey: "name")
                    file.setValue(folder, forKey: "folder")
                }
                try writer.save()
            }
            state.finishWriter()
            done.wait()
            let seen = state.seen
            #expect(seen.allSatisfy { [0, 5_000].contains($0.0) && [0, 5_000].contains($0.1) })
            #expect(seen.last.map { $0 == (5_000, 5_000) } == true)
        }
    }

    /// The notifications posted for a context, in order, each marked " elsewhere" when it
    /// came on another thread than the saving one.
    final class NotificationLog: @unchecked Sendable {
        // Sendable: every property is guarded by `lock`.
        private let lock = NSLock()
        private var thread: pthread_t?
        private var log: [String] = []

        var savingThread: pthread_t? {
            get { lock.withLock { thread } }
            set { lock.withLock { thread = newValue } }
        }
        var entries: [String] { lock.withLock { log } }
        func record(_ entry: String) {
            let here = pthread_self()
            lock.withLock {
                log.append(
                    entry
                        + (thread.map { pthread_equal($0, here) != 0 } == true ? "" : " elsewhere"))
            }
        }
    }

    /// What the reader of `aReaderOnAnotherQueueSeesNoHalfAppliedSave` saw, and whether the
    /// writer has finished.
    final class ReaderState: @unchecked Sendable {
        // Sendable: every property is guarded by `lock`.
        private let lock = NSLock()
        private var finished = false
        private var observations: [(Int, Int)] = []

        var writerFinished: Bool { lock.withLock { finished } }
        var seen: [(Int, Int)] { lock.withLock { observations } }
        func finishWriter() { lock.withLock { finished = true } }
        func record(_ observation: (Int, Int)) {
            lock.withLock { observations.append(observation) }
        }
    }
}
