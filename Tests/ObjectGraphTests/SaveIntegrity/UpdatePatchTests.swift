import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// Updates reach a store as patches of the slots they change (``StoreRowPatch``) when it
    /// accepts them, as complete rows otherwise; either way the store ends up with the same
    /// rows, versions, reverse index, history and file lines.
    @Suite struct UpdatePatchTests {
        typealias Gauge = IntegrityModels.Gauge

        /// A store that forwards to a built-in one and records every change set it is
        /// given; it accepts patches only when told to (a third-party store that only
        /// understands complete rows says nothing, and gets the default `false`).
        // Sendable: `sets` is read and written only while holding `lock`; `base` is Sendable.
        final class RecordingStore: PersistentStore, @unchecked Sendable {
            let base: any PersistentStore
            private let patches: Bool
            /// Whether it commits the patches in reverse order (their order is a store's
            /// business: the saver must not depend on it).
            private let reversesPatches: Bool
            private let lock = NSLock()
            private var sets: [StoreChangeSet] = []

            init(_ base: any PersistentStore, patches: Bool, reversesPatches: Bool = false) {
                self.base = base
                self.patches = patches
                self.reversesPatches = reversesPatches
            }

            var committed: [StoreChangeSet] { lock.withLock { sets } }
            var identifier: String { base.identifier }
            var type: String { "Recording" }
            var url: URL? { base.url }
            var model: ManagedObjectModel { base.model }
            var isReadOnly: Bool { false }
            var recoveryNotices: [String] { [] }
            var acceptsRowPatches: Bool { patches }

            func fetch(_ request: StoreFetchRequest) throws -> [StoreRow] {
                try base.fetch(request)
            }
            func count(_ request: StoreFetchRequest) throws -> Int { try base.count(request) }
            func row(for objectID: ManagedObjectID) throws -> StoreRow? {
                try base.row(for: objectID)
            }
            func relatedObjectIDs(
                _ relationship: RelationshipDescription, of objectID: ManagedObjectID
            ) throws -> [ManagedObjectID] {
                try base.relatedObjectIDs(relationship, of: objectID)
            }
            func allocatePrimaryKeys(for entity: EntityDescription, count: Int) throws -> [Int64] {
                try base.allocatePrimaryKeys(for: entity, count: count)
            }
            /// Whether the next commit records its change set and then fails, committing
            /// nothing (set back to `false` by that commit).
            var failsNextCommit: Bool {
                get { lock.withLock { failing } }
                set { lock.withLock { failing = newValue } }
            }
            private var failing = false

            func commit(_ changes: StoreChangeSet) throws {
                let fails = lock.withLock {
                    sets.append(changes)
                    defer { failing = false }
                    return failing
                }
                if fails {
                    throw NSError(
                        domain: "RecordingStore", code: 1,
                        userInfo: [NSLocalizedDescriptionKey: "the commit was refused on purpose"])
                }
                var changes = changes
                if reversesPatches { changes.patched.reverse() }
                try base.commit(changes)
            }
        }

        /// A coordinator over a recording store wrapping a store of `kind`, with a saved gauge
        /// (`label: "a", reading: 1, code: "x"`, on a panel) and a second panel.
        private struct World {
            let model: ManagedObjectModel
            let base: any PersistentStore
            let store: RecordingStore
            let coordinator: PersistentStoreCoordinator
            let gauge: ManagedObjectID
            let panels: [ManagedObjectID]

            init(_ kind: StoreKind, patches: Bool, history: Bool = false) throws {
                model = try IntegrityModels.gauges()
                base = try history ? Self.openTrackingHistory(kind, model) : kind.open(model)
                store = RecordingStore(base, patches: patches)
                coordinator = PersistentStoreCoordinator(managedObjectModel: model)
                try coordinator.addPersistentStore(store)
                let context = ManagedObjectContext(
                    concurrencyType: .privateQueue, coordinator: coordinator)
                let seeded = try context.performAndWait {
                    let one = IntegrityModels.Panel(context: context)
                    let two = IntegrityModels.Panel(context: context)
                    let gauge = Gauge(context: context)
                    gauge.label = "a"
                    gauge.reading = 1
                    gauge.code = "x"
                    gauge.panel = one
                    try context.save()
                    return (gauge.objectID, [one.objectID, two.objectID])
                }
                gauge = seeded.0
                panels = seeded.1
            }

            static func openTrackingHistory(_ kind: StoreKind, _ model: ManagedObjectModel)
                throws -> any PersistentStore
            {
                var options = StoreOptions()
                options.tracksHistory = true
                if kind.name == StoreKind.inMemory.name {
                    return InMemoryStore(model: model, options: options)
                }
                return try JSONLinesStore(
                    model: model, url: TemporaryStoreFiles.next(), options: options)
            }

            func context() -> ManagedObjectContext {
                ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
            }

            /// Changes the gauge in a fresh context and saves.
            func update(_ change: (Gauge, [ManagedObject]) -> Void) throws {
                let context = self.context()
                try context.performAndWait {
                    let gauge = try #require(try context.existingObject(with: gauge) as? Gauge)
                    change(gauge, try panels.map { try context.existingObject(with: $0) })
                    try context.save()
                }
            }

            func row() throws -> StoreRow { try #require(try base.row(for: gauge)) }
        }

        @Test(arguments: StoreKind.all)
        func aSaveHandsAStoreThatAcceptsPatchesOnlyTheChangedSlots(_ kind: StoreKind) throws {
            let world = try World(kind, patches: true)
            try world.update { gauge, _ in
                gauge.label = "b"
                gauge.label = "c"
            }
            let set = try #require(world.store.committed.last)
            #expect(set.updated.isEmpty)
            #expect(
                set.patched == [
                    StoreRowPatch(
                        objectID: world.gauge, version: 2, slots: [0],
                        values: [.attribute(.string("c"))])
                ])
            let row = try world.row()
            #expect(row.version == 2)
            #expect(
                row.values == [
                    .attribute(.string("c")), .attribute(.integer(1)),
                    .attribute(.string("x")), .toOne(world.panels[0]),
                ])
        }

        @Test(arguments: StoreKind.all)
        func aStoreThatOnlyUnderstandsCompleteRowsGetsThem(_ kind: StoreKind) throws {
            let world = try World(kind, patches: false)
            try world.update { gauge, _ in gauge.reading = 5 }
            let set = try #require(world.store.committed.last)
            #expect(set.patched.isEmpty)
            let expected = StoreRow(
                objectID: world.gauge, version: 2,
                values: [
                    .attribute(.string("a")), .attribute(.integer(5)),
                    .attribute(.string("x")), .toOne(world.panels[0]),
                ])
            #expect(set.updated == [expected])
            #expect(try world.row() == expected)
        }

        @Test(arguments: StoreKind.all, [true, false])
        func aChangedToOneMovesTheReverseIndex(_ kind: StoreKind, patches: Bool) throws {
            let world = try World(kind, patches: patches)
            try world.update { gauge, panels in
                gauge.panel = panels[1] as? IntegrityModels.Panel
            }
            let gauges = try #require(
                world.model.entitiesByName["Panel"]?.relationshipsByName["gauges"])
            #expect(try world.base.relatedObjectIDs(gauges, of: world.panels[0]).isEmpty)
            #expect(try world.base.relatedObjectIDs(gauges, of: world.panels[1]) == [world.gauge])
            #expect(try world.row().values[3] == .toOne(world.panels[1]))
            let context = world.context()
            try context.performAndWait {
                let panel = try #require(
                    try context.existingObject(with: world.panels[1]) as? IntegrityModels.Panel)
                #expect(panel.gauges.map(\.objectID) == [world.gauge])
            }
        }

        /// History records the properties whose values changed, as for complete rows: a
        /// patched slot the row already held is not a change.
        @Test(arguments: StoreKind.all)
        func historyRecordsThePatchedPropertiesThatChanged(_ kind: StoreKind) throws {
            let world = try World(kind, patches: true, history: true)
            try world.base.commit(
                StoreChangeSet(
                    patched: [
                        StoreRowPatch(
                            objectID: world.gauge, version: 2, slots: [0, 1],
                            values: [.attribute(.string("n")), .attribute(.integer(1))])
                    ], timestamp: Date(timeIntervalSince1970: 0)))
            let last = try #require(try world.base.history(after: nil).last)
            #expect(last.changes.map(\.updatedProperties) == [["label"]])
            #expect(try world.row().values[0] == .attribute(.string("n")))
            #expect(try world.row().version == 2)
        }

        /// A store checks a patch as an update: its version, and a reference the row keeps
        /// to a row the same change set deletes; a refused change set changes nothing.
        @Test(arguments: StoreKind.all)
        func aStoreRefusesAPatchAtTheWrongVersionOrKeepingADeletedTarget(_ kind: StoreKind)
            throws
        {
            let world = try World(kind, patches: true)
            let before = try world.row()
            let stale = expectNSError {
                try world.base.commit(
                    StoreChangeSet(
                        patched: [
                            StoreRowPatch(
                                objectID: world.gauge, version: 5, slots: [0],
                                values: [.attribute(.string("n"))])
                        ], timestamp: Date()))
            }
            #expect(stale?.code == 134050)
            let dangling = expectNSError {
                try world.base.commit(
                    StoreChangeSet(
                        deleted: [(world.panels[0], 1)],
                        patched: [
                            StoreRowPatch(
                                objectID: world.gauge, version: 2, slots: [0],
                                values: [.attribute(.string("n"))])
                        ], timestamp: Date()))
            }
            #expect(dangling?.code == 1550)
            #expect(
                dangling?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == world.panels[0]
            )
            #expect(try world.row() == before)
            #expect(try world.base.row(for: world.panels[0]) != nil)
        }

        /// In a change set that deletes nothing, a patch of attributes alone is committed
        /// without a reference check, but one that also writes a to-one is still checked:
        /// a target that does not exist is refused (1550) and the row stays as it was.
        @Test(arguments: StoreKind.all)
        func aPatchWritingAMissingTargetIsRefusedWhenNothingIsDeleted(_ kind: StoreKind)
            throws
        {
            let world = try World(kind, patches: true)
            let before = try world.row()
            let panel = try #require(world.model.entitiesByName["Panel"])
            let missing = ManagedObjectID(
                entity: panel, storeIdentifier: world.base.identifier, primaryKey: 999)
            let dangling = expectNSError {
                try world.base.commit(
                    StoreChangeSet(
                        patched: [
                            StoreRowPatch(
                                objectID: world.gauge, version: 2, slots: [0, 3],
                                values: [.attribute(.string("n")), .toOne(missing)])
                        ], timestamp: Date()))
            }
            #expect(dangling?.code == 1550)
            #expect(dangling?.userInfo[NSValidationValueErrorKey] as? ManagedObjectID == missing)
            #expect(try world.row() == before)
            try world.base.commit(
                StoreChangeSet(
                    patched: [
                        StoreRowPatch(
                            objectID: world.gauge, version: 2, slots: [0, 1],
                            values: [.attribute(.string("n")), .attribute(.integer(7))])
                    ], timestamp: Date()))
            let after = try world.row()
            #expect(after.version == 2)
            #expect(after.values[0] == .attribute(.string("n")))
            #expect(after.values[1] == .attribute(.integer(7)))
            #expect(after.values[3] == before.values[3])
        }

        /// The file store writes a patch of few slots as a partial row and of many as a
        /// complete one; both read back as the rows the saves left.
        @Test func theFileStoreWritesPatchesAsPartialOrCompleteRows() throws {
            let world = try World(.jsonLines, patches: true)
            try world.update { gauge, _ in gauge.label = "b" }
            let url = try #require(world.base.url)
            let afterOne = try String(contentsOf: url, encoding: .utf8)
            #expect(afterOne.split(separator: "\n").last?.contains("{\"label\":\"b\"}") == true)
            try world.update { gauge, _ in
                gauge.label = "c"
                gauge.reading = 2
                gauge.code = "z"
            }
            let expected = try world.row()
            #expect(expected.version == 3)
            let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            #expect(lines.last?.contains("\"label\":\"c\"") == false, "written complete")
            let reopened = try StoreKind.jsonLines.reopen(world.base, world.model)
            #expect(try reopened.row(for: world.gauge) == expected)
        }

        @Test func completingPatchesReadsEachRowOnce() throws {
            let world = try World(.inMemory, patches: true)
            let patch = StoreRowPatch(
                objectID: world.gauge, version: 2, slots: [1, 2],
                values: [.attribute(.integer(3)), .attribute(.string("q"))])
            var reads = 0
            let complete = try StoreChangeSet(patched: [patch], timestamp: Date())
                .completingPatches { id in
                    reads += 1
                    return try world.base.row(for: id)
                }
            #expect(reads == 1)
            #expect(complete.patched.isEmpty)
            let expected: [StoreValue] = [
                .attribute(.string("a")), .attribute(.integer(3)), .attribute(.string("q")),
                .toOne(world.panels[0]),
            ]
            #expect(complete.updated.map { $0.values } == [expected])
            #expect(complete.updated.map { $0.version } == [2])
            let gone = expectNSError {
                _ = try StoreChangeSet(patched: [patch], timestamp: Date())
                    .completingPatches { _ in nil }
            }
            #expect(gone?.code == 134050)
        }
    }
}
