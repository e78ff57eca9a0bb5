import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// An object's snapshot keeps only the old values of the slots it wrote: what reads it
    /// (committed values, rollback, undo, refresh with merge, conflicts) sees exactly the last
    /// fetched or saved values, whatever was written since.
    @Suite struct SparseSnapshotTests {
        typealias Gauge = IntegrityModels.Gauge

        /// A saved gauge `label: "a", reading: 1, code: "x"` and a fresh context holding it.
        private func seeded(_ kind: StoreKind, _ policy: MergePolicy = .error) throws -> (
            Stack, ManagedObjectContext, ManagedObjectID
        ) {
            let stack = try Stack(IntegrityModels.gauges(), on: kind)
            let id = try stack.seed("Gauge", ["label": "a", "reading": Int64(1), "code": "x"])
            return (stack, stack.context(policy), id)
        }

        @Test(arguments: StoreKind.all)
        func severalEditsOfOneSlotKeepTheFirstCommittedValue(_ kind: StoreKind) throws {
            let (stack, context, id) = try seeded(kind)
            try context.performAndWait {
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                gauge.label = "b"
                gauge.label = "c"
                gauge.reading = 2
                gauge.label = "d"
                #expect(gauge.committedValues(forKeys: ["label"])["label"] as? String == "a")
                #expect(gauge.committedValues(forKeys: nil)["reading"] as? Int64 == 1)
                #expect(gauge.committedValues(forKeys: nil)["code"] as? String == "x")
                #expect(Set(gauge.changedValues().keys) == ["label", "reading"])
                #expect(gauge.changedValues()["label"] as? String == "d")
                try context.save()
                #expect(gauge.committedValues(forKeys: ["label"])["label"] as? String == "d")
                #expect(gauge.committedValues(forKeys: nil)["reading"] as? Int64 == 2)
                gauge.label = "e"
                context.rollback()
                #expect(gauge.label == "d")
                #expect(!gauge.hasChanges)
            }
            let row = try #require(try stack.rows("Gauge").first)
            #expect(row["label"] == .attribute(.string("d")))
            #expect(row["reading"] == .attribute(.integer(2)))
            #expect(row.version == 2)
        }

        /// Writing a slot back to its committed value leaves it changed (Core Data keeps a
        /// property set since the last save in `changedValues()`), and the committed value
        /// is still the fetched one.
        @Test(arguments: StoreKind.all)
        func anEditBackToTheOldValueKeepsTheCommittedValue(_ kind: StoreKind) throws {
            let (_, context, id) = try seeded(kind)
            try context.performAndWait {
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                gauge.label = "b"
                gauge.label = "a"
                #expect(gauge.committedValues(forKeys: ["label"])["label"] as? String == "a")
                #expect(gauge.changedValues()["label"] as? String == "a")
                gauge.reading = 3
                context.rollback()
                #expect(gauge.label == "a")
                #expect(gauge.reading == 1)
                #expect(gauge.changedValues().isEmpty)
            }
        }

        @Test(arguments: StoreKind.all)
        func undoAndRedoCompareWithTheCommittedValues(_ kind: StoreKind) throws {
            let (_, context, id) = try seeded(kind)
            try context.performAndWait {
                context.undoManager = ObjectGraphUndoManager()
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                gauge.label = "b"
                context.processPendingChanges()
                gauge.label = "c"
                context.processPendingChanges()
                context.undo()
                #expect(gauge.label == "b")
                #expect(gauge.hasChanges)
                context.undo()
                #expect(gauge.label == "a")
                #expect(!gauge.hasChanges, "back at the committed value: nothing to save")
                #expect(gauge.committedValues(forKeys: ["label"])["label"] as? String == "a")
                context.redo()
                #expect(gauge.label == "b")
                #expect(gauge.changedValues()["label"] as? String == "b")
                #expect(gauge.committedValues(forKeys: ["label"])["label"] as? String == "a")
            }
        }

        /// `refresh(_:mergeChanges: true)` takes another context's saved value of a slot this
        /// one did not change, keeps this one's change, and makes the fresh row the
        /// committed values.
        @Test(arguments: StoreKind.all)
        func refreshWithMergeKeepsChangesOverTheFreshValues(_ kind: StoreKind) throws {
            let (stack, context, id) = try seeded(kind)
            try context.performAndWait {
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                gauge.label = "mine"
            }
            let other = stack.context()
            try other.performAndWait {
                let gauge = try #require(try other.existingObject(with: id) as? Gauge)
                gauge.reading = 7
                gauge.code = "y"
                try other.save()
            }
            try context.performAndWait {
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                context.refresh(gauge, mergeChanges: true)
                #expect(gauge.label == "mine")
                #expect(gauge.reading == 7)
                #expect(gauge.committedValues(forKeys: nil)["label"] as? String == "a")
                #expect(gauge.committedValues(forKeys: nil)["reading"] as? Int64 == 7)
                #expect(Set(gauge.changedValues().keys) == ["label"])
                context.rollback()
                #expect(gauge.label == "a")
                #expect(gauge.code == "y")
                gauge.label = "again"
                try context.save()
            }
            let row = try #require(try stack.rows("Gauge").first)
            #expect(row["label"] == .attribute(.string("again")))
            #expect(row["reading"] == .attribute(.integer(7)))
            #expect(row["code"] == .attribute(.string("y")))
        }

        /// A conflict where the store changed only a slot this object did not change: the
        /// conflict record's object snapshot holds the committed values (not this object's
        /// edits), no key conflicts, and the property-merge policy keeps both changes.
        @Test(arguments: StoreKind.all)
        func aConflictOnASlotTheObjectDidNotChange(_ kind: StoreKind) throws {
            let (stack, context, id) = try seeded(kind)
            try context.performAndWait {
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                gauge.label = "mine"
                gauge.label = "mine2"
            }
            let other = stack.context()
            try other.performAndWait {
                let gauge = try #require(try other.existingObject(with: id) as? Gauge)
                gauge.reading = 9
                try other.save()
            }
            try context.performAndWait {
                let error = try #require(expectNSError { try context.save() })
                #expect(error.code == 133020)
                let conflicts = error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any]
                let conflict = try #require(conflicts?.first as? MergeConflict)
                #expect(conflict.objectSnapshot?["label"] as? String == "a")
                #expect(conflict.objectSnapshot?["reading"] as? Int64 == 1)
                #expect(conflict.cachedSnapshot?["reading"] as? Int64 == 9)
                #expect(conflict.conflictingKeys.isEmpty)
                context.mergePolicy = .mergeByPropertyStoreTrump
                try context.save()
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                #expect(gauge.label == "mine2")
                #expect(gauge.reading == 9)
            }
            let row = try #require(try stack.rows("Gauge").first)
            #expect(row["label"] == .attribute(.string("mine2")))
            #expect(row["reading"] == .attribute(.integer(9)))
            #expect(row.version == 3)
        }

        /// Merging another context's save into an object with unsaved changes: the merged
        /// values become committed, and this context's change stays on top of them.
        @Test(arguments: StoreKind.all)
        func mergingAnotherSaveKeepsTheCommittedValuesExact(_ kind: StoreKind) throws {
            let (stack, context, id) = try seeded(kind)
            try context.performAndWait {
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                gauge.label = "mine"
            }
            let other = stack.context()
            let note = try other.performAndWait {
                let gauge = try #require(try other.existingObject(with: id) as? Gauge)
                gauge.reading = 4
                let recorder = SaveNotificationCatcher(other)
                try other.save()
                return try #require(recorder.notification)
            }
            try context.performAndWait {
                context.mergeChanges(fromContextDidSave: note)
                let gauge = try #require(try context.existingObject(with: id) as? Gauge)
                #expect(gauge.label == "mine")
                #expect(gauge.reading == 4)
                #expect(gauge.committedValues(forKeys: nil)["label"] as? String == "a")
                #expect(gauge.committedValues(forKeys: nil)["reading"] as? Int64 == 4)
                try context.save()
            }
            let row = try #require(try stack.rows("Gauge").first)
            #expect(row["label"] == .attribute(.string("mine")))
            #expect(row["reading"] == .attribute(.integer(4)))
        }
    }
}

/// Catches the did-save notification of one context.
// Sendable: `caught` is read and written only while holding `lock`.
final class SaveNotificationCatcher: @unchecked Sendable {
    private let lock = NSLock()
    private var caught: Notification?
    private var observer: (any NSObjectProtocol)?

    /// The last did-save notification caught.
    var notification: Notification? { lock.withLock { caught } }

    init(_ context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { [weak self] note in
            guard let self else { return }
            self.lock.withLock { self.caught = note }
        }
    }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
}
