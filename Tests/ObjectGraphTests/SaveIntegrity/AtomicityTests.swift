import Foundation
import ObjectGraph
import Testing

/// Everything observable about a context's objects: which are inserted, updated, deleted
/// and registered, their IDs, and their current, changed and committed values.
struct ContextState: Equatable, CustomStringConvertible {
    var lines: [String]
    var description: String { lines.joined(separator: "\n") }

    init(_ context: ManagedObjectContext) {
        func text(_ value: Any?) -> String {
            switch value {
            case nil, is NSNull: return "nil"
            case let o as ManagedObject: return "\(o.objectID)"
            default: return "\(value!)"
            }
        }
        func dictionary(_ d: [String: Any]) -> String {
            d.keys.sorted().map { "\($0)=\(text(d[$0]))" }.joined(separator: ",")
        }
        var lines = [
            "inserted: "
                + context.insertedObjects.map { "\($0.objectID)" }.sorted().joined(separator: " "),
            "updated: "
                + context.updatedObjects.map { "\($0.objectID)" }.sorted().joined(separator: " "),
            "deleted: "
                + context.deletedObjects.map { "\($0.objectID)" }.sorted().joined(separator: " "),
        ]
        for object in context.registeredObjects where !object.isFault {
            let current = object.entity.properties.filter {
                ($0 as? RelationshipDescription)?.isToMany != true
            }
            .map { "\($0.name)=\(text(object.value(forKey: $0.name)))" }.joined(separator: ",")
            lines.append(
                "\(object.objectID) ins=\(object.isInserted) del=\(object.isDeleted) upd=\(object.isUpdated) "
                    + "now[\(current)] changed[\(dictionary(object.changedValues()))] "
                    + "committed[\(dictionary(object.committedValues(forKeys: nil)))] "
                    + "ctx=\(object.managedObjectContext === context)")
        }
        self.lines = lines.sorted()
    }
}

extension SaveIntegrity {
    @Suite struct AtomicityTests {
        typealias U = UniquenessConstraintTests

        /// Prepares a pending save of the given kind in `context`; returns nothing.
        enum Setup: String, CaseIterable, Sendable {
            case insertUpdateDeleteCascade, mergedConflict, rolledBackConflict, deletedElsewhere,
                upsert, upsertReplacingRegistered
        }

        private func prepare(_ setup: Setup, _ stack: Stack, _ context: ManagedObjectContext) throws
        {
            let other = stack.context()
            switch setup {
            case .insertUpdateDeleteCascade:
                try context.performAndWait {
                    let tags = try U.all(context, "Tag")
                    tags[0].setValue(7, forKey: "color")
                    context.delete(tags[1])
                    U.insert(context, "Tag", ["name": "green", "color": 3])
                    U.insert(context, "Post", ["title": "p", "tags": Set([tags[0]])])
                }
            case .mergedConflict, .rolledBackConflict, .deletedElsewhere:
                try context.performAndWait {
                    let tag = try U.all(context, "Tag")[0]
                    tag.setValue(5, forKey: "color")
                    U.insert(context, "Tag", ["name": "yellow"])
                }
                try other.performAndWait {
                    let tag = try U.all(other, "Tag")[0]
                    if setup == .deletedElsewhere {
                        other.delete(tag)
                    } else {
                        tag.setValue("renamed", forKey: "note")
                    }
                    try other.save()
                }
            case .upsert:
                context.performAndWait {
                    let red = U.insert(context, "Tag", ["name": "red", "color": 9])
                    U.insert(context, "Note", ["text": "n", "tag": red])
                    U.insert(context, "Tag", ["name": "blue", "color": 1])
                    U.insert(context, "Tag", ["name": "blue", "color": 2])
                }
            case .upsertReplacingRegistered:
                try context.performAndWait {
                    let old = try U.all(context, "Tag")[0]
                    _ = old.value(forKey: "notes")
                    let red = U.insert(context, "Tag", ["name": "red", "color": 9])
                    U.insert(context, "Note", ["text": "n", "tag": red])
                }
            }
        }

        @Test(arguments: Setup.allCases, StoreKind.all)
        func aCommitThatFailsLeavesContextAndStoreExactlyAsTheyWere(
            _ setup: Setup, _ kind: StoreKind
        ) throws {
            let stack = try Stack(IntegrityModels.upsert(), on: kind, failing: true)
            let seeder = stack.context()
            try seeder.performAndWait {
                let red = U.insert(seeder, "Tag", ["name": "red", "color": 1, "note": "keep"])
                U.insert(seeder, "Tag", ["name": "gone", "color": 2])
                U.insert(seeder, "Note", ["text": "n0", "tag": red])
                try seeder.save()
            }
            let policy: MergePolicy =
                setup == .rolledBackConflict ? .rollback : .mergeByPropertyObjectTrump
            let context = stack.context(policy)
            try prepare(setup, stack, context)
            let storeBefore = try stack.allRows()
            let store = stack.store as! FailingStore
            let (stateBefore, stateAfterFailure) = context.performAndWait {
                let before = ContextState(context)
                store.failing = true
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSPersistentStoreSaveError)
                return (before, ContextState(context))
            }
            #expect(stateAfterFailure == stateBefore)
            #expect(try stack.allRows() == storeBefore)
            store.failing = false
            let commits = store.commitCount
            try context.performAndWait {
                try context.save()
                #expect(!context.hasChanges)
            }
            #expect(store.commitCount == commits + 1)
            #expect(try stack.allRows() != storeBefore)
        }

        @Test func aFailingStepBeforeTheCommitLeavesEverythingToo() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            try stack.seed("Tag", ["name": "red", "color": 1])
            let before = try stack.allRows()
            let context = stack.context(.error)
            try context.performAndWait {
                U.insert(context, "Tag", ["name": "red", "color": 2])
                let tag = try U.all(context, "Tag").first { !$0.isInserted }!
                tag.setValue(3, forKey: "color")
                let state = ContextState(context)
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSManagedObjectConstraintMergeError)
                #expect(ContextState(context) == state)
                let other = stack.context()
                try other.performAndWait {
                    try U.all(other, "Tag")[0].setValue("x", forKey: "note")
                    try other.save()
                }
                let stateBeforeConflict = ContextState(context)
                #expect(expectNSError { try context.save() }?.code == NSManagedObjectMergeError)
                #expect(ContextState(context) == stateBeforeConflict)
            }
            #expect(try stack.rows("Tag").count == before.count)
        }
    }
}
