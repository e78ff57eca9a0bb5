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
            /// How many of the saves had their adoption run by the store (`commitOverlapsRun`).
            var overlapsRun = 0
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
                outcome.overlapsRun = context.commitOverlapsRun
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
            #expect(overlapped.overlapsRun == 3)
            #expect(sequential.overlapsRun == 0)
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
}

extension SaveIntegrity.CommitOverlapTests {
    /// A coordinator over one store of `kind` and a root context with `threshold`.
    static func root(_ kind: StoreKind, threshold: Int) throws -> ManagedObjectContext {
        let model = try model()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.commitOverlapThreshold = threshold
        return context
    }

    /// An updated object saved with the overlap (the store running the adoption) and without
    /// it: its version advances with each save, another context that read the older version
    /// gets the same optimistic-locking conflict, and the saver's next save does not.
    @Test(arguments: StoreKind.all)
    func anUpdateSavedWithTheOverlapAdvancesItsVersionAndConflictsAsWithout(kind: StoreKind)
        throws
    {
        var conflicts: [[String]] = []
        for threshold in [0, Int.max] {
            let saver = try Self.root(kind, threshold: threshold)
            let other = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: saver.persistentStoreCoordinator!)
            let folder = try saver.performAndWait {
                let folder = saver.insertNewObject(forEntityName: "Folder")
                folder.setValue("a", forKey: "name")
                try saver.save()
                return folder
            }
            let stale = try other.performAndWait {
                let stale = try other.existingObject(with: folder.objectID)
                #expect(stale.value(forKey: "name") as? String == "a")
                return stale
            }
            try saver.performAndWait {
                folder.setValue("b", forKey: "name")
                try saver.save()
                #expect(folder.snapshotVersion == 2)
            }
            #expect(saver.commitOverlapsRun == (threshold == 0 ? 2 : 0))
            other.performAndWait {
                stale.setValue("c", forKey: "name")
                do {
                    try other.save()
                    Issue.record("a save over a stale version succeeded")
                } catch let error as ObjectGraphError {
                    #expect(error.reason == .mergeConflict)
                    let list = error.userInfo[NSPersistentStoreSaveConflictsErrorKey]
                    conflicts.append(
                        (list as? [MergeConflict] ?? []).map {
                            "\($0.oldVersionNumber)→\($0.newVersionNumber) \($0.conflictingKeys)"
                        })
                } catch {
                    Issue.record("unexpected error \(error)")
                }
            }
            try saver.performAndWait {
                folder.setValue("d", forKey: "name")
                try saver.save()
                #expect(folder.snapshotVersion == 3)
            }
            #expect(saver.commitOverlapsRun == (threshold == 0 ? 3 : 0))
        }
        #expect(conflicts.count == 2)
        #expect(conflicts.first == conflicts.last)
        #expect(conflicts.first?.count == 1)
    }

    /// A child context's objects keep their temporary IDs after the parent saves them with the
    /// overlap; turned back into faults, they are filled through the parent by those IDs
    /// (`PermanentIDMap`), as without the overlap.
    @Test(arguments: StoreKind.all)
    func aChildsTemporaryIDsResolveAfterTheParentSavesWithTheOverlap(kind: StoreKind) throws {
        for threshold in [0, Int.max] {
            let parent = try Self.root(kind, threshold: threshold)
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            let files = try child.performAndWait {
                let folder = child.insertNewObject(forEntityName: "Folder")
                folder.setValue("folder", forKey: "name")
                let files = (0..<30).map { i in
                    let file = child.insertNewObject(forEntityName: "File")
                    file.setValue("file \(i)", forKey: "name")
                    file.setValue(folder, forKey: "folder")
                    return file
                }
                try child.save()
                return files
            }
            try parent.performAndWait { try parent.save() }
            #expect(parent.commitOverlapsRun == (threshold == 0 ? 1 : 0))
            child.performAndWait {
                for (i, file) in files.enumerated() {
                    #expect(file.objectID.isTemporaryID)
                    child.refresh(file, mergeChanges: false)
                    #expect(file.isFault)
                    #expect(file.value(forKey: "name") as? String == "file \(i)")
                    let folder = file.value(forKey: "folder") as? ManagedObject
                    #expect(folder?.value(forKey: "name") as? String == "folder")
                }
            }
        }
    }

    /// A save over two stores with the overlap offered: the coordinator clears it, so the
    /// saver adopts the outcome after both stores have committed (no store runs it), and the
    /// rows, IDs and registry are those of a save without it.
    @Test(arguments: StoreKind.all)
    func aSaveOverTwoStoresAdoptsAfterTheCommitAsWithoutTheOverlap(kind: StoreKind) throws {
        var outcomes: [[String]] = []
        for threshold in [0, Int.max] {
            let model = try Self.model()
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            let first = try kind.open(model)
            let second = try kind.open(model)
            try coordinator.addPersistentStore(first)
            try coordinator.addPersistentStore(second)
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            context.commitOverlapThreshold = threshold
            var outcome: [String] = []
            try context.performAndWait {
                let folders = (0..<40).map { i in
                    let folder = context.insertNewObject(forEntityName: "Folder")
                    folder.setValue("folder \(i)", forKey: "name")
                    if i % 2 == 1 { context.assign(folder, to: second) }
                    return folder
                }
                let temporary = folders.map(\.objectID)
                try context.save()
                #expect(context.commitOverlapsRun == 0)
                for (i, folder) in folders.enumerated() {
                    #expect(!folder.objectID.isTemporaryID)
                    let store = i % 2 == 1 ? second : first
                    #expect(folder.objectID.storeIdentifier == store.identifier)
                    #expect(context.registeredObject(for: folder.objectID) === folder)
                    #expect(context.registeredObject(for: temporary[i]) == nil)
                    #expect(
                        try store.row(for: folder.objectID)?["name"]
                            == .attribute(.string("folder \(i)")))
                    #expect(folder.snapshotVersion == 1)
                    #expect(!folder.isInserted && !folder.hasChanges)
                }
            }
            for (store, label) in [(first, "first"), (second, "second")] {
                outcome.append("\(try FileStoreFixtures.allRows(store).count) rows \(label)")
            }
            outcomes.append(outcome)
        }
        #expect(outcomes.first == ["20 rows first", "20 rows second"])
        #expect(outcomes.first == outcomes.last)
    }
}
