import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// The uniqueness check numbers values by first use and makes a clash only for shared
    /// ones: the conflicts still come in the order of their values' first use, with every
    /// object and stored row that shares them.
    @Suite struct UniquenessGroupingTests {
        typealias U = UniquenessConstraintTests

        @Test(arguments: StoreKind.all)
        func conflictsComeInTheOrderOfTheirValuesFirstUseWithEveryMember(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.upsert(), on: kind)
            let storedID = try stack.seed("Tag", ["name": "c", "color": 9])
            let context = stack.context()
            try context.performAndWait {
                // "b" is used first but shared last; "c" is shared with the stored row only.
                let names = ["b", "a", "c", "x", "a", "y", "b", "a"]
                let objects = names.map { U.insert(context, "Tag", ["name": $0]) }
                let error = try #require(expectNSError { try context.save() })
                let conflicts =
                    (error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any] ?? [])
                    .compactMap { $0 as? ConstraintConflict }
                #expect(
                    conflicts.map { $0.constraintValues["name"] as? String } == ["b", "a", "c"])
                #expect(conflicts.map { $0.conflictingObjects.count } == [2, 3, 1])
                #expect(conflicts[0].conflictingObjects[0] === objects[0])
                #expect(conflicts[0].conflictingObjects[1] === objects[6])
                #expect(
                    conflicts[1].conflictingObjects.map(\.objectID)
                        == [1, 4, 7].map { objects[$0].objectID })
                #expect(conflicts.map { $0.databaseObject?.objectID } == [nil, nil, storedID])
            }
        }

        /// The check looks at each written entity once and keeps the objects of constrained
        /// ones: objects of unconstrained entities between them (runs switching back and
        /// forth) neither hide a clash nor take part in one, and a constrained entity met
        /// again after another keeps its answer.
        @Test(arguments: StoreKind.all)
        func objectsOfUnconstrainedEntitiesBetweenClashingOnesTakeNoPart(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.upsert(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let first = U.insert(context, "Tag", ["name": "a"])
                U.insert(context, "Note", ["text": "a"])
                U.insert(context, "Post", ["title": "a"])
                let second = U.insert(context, "Tag", ["name": "a"])
                U.insert(context, "Note", ["text": "a"])
                let seat = U.insert(context, "Seat", ["row": "a", "number": 1])
                U.insert(context, "Note", ["text": "b"])
                let otherSeat = U.insert(context, "Seat", ["row": "a", "number": 1])
                let error = try #require(expectNSError { try context.save() })
                #expect(error.code == NSManagedObjectConstraintMergeError)
                let conflicts =
                    (error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any] ?? [])
                    .compactMap { $0 as? ConstraintConflict }
                #expect(conflicts.count == 2)
                #expect(conflicts.map { $0.conflictingObjects.count } == [2, 2])
                #expect(
                    conflicts.first?.conflictingObjects.map(\.objectID)
                        == [first, second].map(\.objectID))
                #expect(
                    conflicts.last?.conflictingObjects.map(\.objectID)
                        == [seat, otherSeat].map(\.objectID))
                // Without the duplicates, everything saves.
                context.delete(second)
                context.delete(otherSeat)
                try context.save()
                #expect(
                    try context.count(for: FetchRequest<ManagedObject>(entityName: "Note")) == 3)
            }
        }

        @Test func aSuperentitysConstraintCoversItsSubentitiesInTheSaveAndInTheStore() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                U.insert(context, "Dog", ["name": "Rex"])
                U.insert(context, "Cat", ["name": "Rex"])
                // A superentity's constraint covers both subentities.
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSManagedObjectConstraintMergeError)
                context.rollback()
                U.insert(context, "Dog", ["name": "Rex"])
                try context.save()
                U.insert(context, "Cat", ["name": "Rex"])
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSManagedObjectConstraintMergeError)
            }
        }
    }
}
