import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    @Suite struct UniquenessConstraintTests {
        @discardableResult
        static func insert(
            _ context: ManagedObjectContext, _ entity: String, _ values: [String: Any?]
        ) -> ManagedObject {
            let object = context.insertNewObject(forEntityName: entity)
            for (key, value) in values.sorted(by: { $0.key < $1.key }) {
                object.setValue(value, forKey: key)
            }
            return object
        }

        static func all(_ context: ManagedObjectContext, _ entity: String) throws -> [ManagedObject]
        {
            try context.fetch(FetchRequest<ManagedObject>(entityName: entity))
        }

        /// Each stored tag as `name:color:note`, in primary-key order.
        static func tags(_ stack: Stack) throws -> [String] {
            try stack.reopen().rows("Tag").map { row in
                func text(_ key: String) -> String {
                    switch row[key]?.attributeValue {
                    case .string(let s): s
                    case .integer(let i): "\(i)"
                    default: "-"
                    }
                }
                return "\(text("name")):\(text("color")):\(text("note"))"
            }
        }

        private func seededStack(_ kind: StoreKind, failing: Bool = false) throws -> (
            Stack, ManagedObjectID
        ) {
            let stack = try Stack(IntegrityModels.upsert(), on: kind, failing: failing)
            let id = try stack.seed("Tag", ["name": "red", "color": 1, "note": "keep"])
            return (stack, id)
        }

        /// B05, first half: no in-memory uniquing; the error policy refuses with 133021 and
        /// lists the conflict; object trump then upserts, keeping the stored row's ID.
        @Test(arguments: StoreKind.all)
        func aConstraintActsOnlyAtSaveAndTheErrorPolicyRefuses(_ kind: StoreKind) throws {
            let (stack, storedID) = try seededStack(kind)
            let before = try stack.allRows()
            let context = stack.context()
            try context.performAndWait {
                let new = Self.insert(context, "Tag", ["name": "red", "color": 2])
                #expect(
                    try Self.all(context, "Tag").filter {
                        $0.value(forKey: "name") as? String == "red"
                    }.count == 2)
                let error = try #require(expectNSError { try context.save() })
                #expect(error.code == NSManagedObjectConstraintMergeError)
                #expect(error.userInfo[NSValidationKeyErrorKey] as? String == "name")
                let conflict = try #require(
                    (error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])?.first
                        as? ConstraintConflict)
                #expect(conflict.constraint == ["name"])
                #expect(conflict.constraintValues["name"] as? String == "red")
                #expect(conflict.databaseObject?.objectID == storedID)
                #expect((conflict.databaseSnapshot?["color"] as? NSNumber)?.intValue == 1)
                #expect(
                    conflict.conflictingObjects.count == 1 && conflict.conflictingObjects[0] === new
                )
                #expect(
                    conflict.conflictingSnapshots.count == 1
                        && conflict.conflictingSnapshots[0].isEmpty)
                #expect(error.localizedDescription.contains("Tag(name) name = \"red\": new Tag"))
                #expect(new.isInserted && new.objectID.isTemporaryID)
                #expect(try stack.allRows() == before)
                context.mergePolicy = .mergeByPropertyObjectTrump
                try context.save()
                #expect(new.objectID == storedID)
                #expect(!new.isInserted)
                #expect(context.registeredObject(for: storedID) === new)
                #expect(new.value(forKey: "note") as? String == "keep")
            }
            #expect(try Self.tags(stack) == ["red:2:keep"])
        }

        /// B05, second half: the trump policies decide whose values win; among unsaved
        /// duplicates the first inserted object survives and the last value set wins under
        /// object trump.
        @Test(
            arguments: StoreKind.all,
            [
                MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump, .overwrite,
                .rollback,
            ])
        func trumpPoliciesUpsertDeterministically(_ kind: StoreKind, _ policy: MergePolicy) throws {
            let (stack, storedID) = try seededStack(kind)
            let context = stack.context(policy)
            try context.performAndWait {
                let red = Self.insert(context, "Tag", ["name": "red", "color": 2])
                let blue3 = Self.insert(
                    context, "Tag", ["name": "blue", "color": 3, "note": "first"])
                let blue4 = Self.insert(context, "Tag", ["name": "blue", "color": 4])
                try context.save()
                #expect(red.objectID == storedID)
                #expect(blue3.managedObjectContext === context && !blue3.objectID.isTemporaryID)
                #expect(blue4.managedObjectContext == nil)
                #expect(blue4.objectID == blue3.objectID)
                #expect(context.registeredObject(for: blue3.objectID) === blue3)
            }
            let expected: [String] =
                switch policy {
                case .mergeByPropertyObjectTrump: ["red:2:keep", "blue:4:first"]
                case .overwrite: ["red:2:-", "blue:4:-"]
                default: ["red:1:keep", "blue:3:first"]
                }
            #expect(try Self.tags(stack) == expected)
        }

        /// B06: objects deleted in the same save take no part.
        @Test(arguments: StoreKind.all)
        func deletingAndReinsertingTheSameKeyInOneSaveCreatesANewObject(_ kind: StoreKind) throws {
            let (stack, storedID) = try seededStack(kind)
            let context = stack.context()
            let newID = try context.performAndWait {
                let old = try #require(try Self.all(context, "Tag").first)
                context.delete(old)
                let new = Self.insert(context, "Tag", ["name": "red", "note": "new"])
                try context.save()
                return new.objectID
            }
            #expect(newID != storedID)
            #expect(try Self.tags(stack) == ["red:-:new"])
            #expect(try stack.reopen().rows("Tag").map(\.objectID) == [newID])
        }

        @Test func nilNeverConflicts() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            try stack.seed("Tag", ["color": 1])
            try stack.seed("Seat", ["row": "A"])
            let context = stack.context()
            try context.performAndWait {
                Self.insert(context, "Tag", ["color": 2])
                Self.insert(context, "Tag", ["color": 3])
                Self.insert(context, "Seat", ["row": "A"])
                Self.insert(context, "Seat", ["number": 1])
                Self.insert(context, "Badge", ["kind": "gold"])
                Self.insert(context, "Badge", ["kind": "gold"])
                try context.save()
            }
            #expect(try stack.rows("Tag").count == 3)
            #expect(try stack.rows("Seat").count == 3)
            #expect(try stack.rows("Badge").count == 2)
        }

        @Test func compoundConstraintsConflictOnlyWhenEveryValueMatches() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            try stack.seed("Seat", ["row": "A", "number": 1, "holder": "ann"])
            let context = stack.context()
            try context.performAndWait {
                Self.insert(context, "Seat", ["row": "A", "number": 2])
                Self.insert(context, "Seat", ["row": "B", "number": 1])
                try context.save()
                let clash = Self.insert(
                    context, "Seat", ["row": "A", "number": 1, "holder": "bob"])
                let error = try #require(expectNSError { try context.save() })
                #expect(error.code == NSManagedObjectConstraintMergeError)
                let conflict =
                    (error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])?.first
                    as? ConstraintConflict
                #expect(conflict?.constraint == ["row", "number"])
                #expect(conflict?.constraintValues["row"] as? String == "A")
                #expect((conflict?.constraintValues["number"] as? NSNumber)?.intValue == 1)
                #expect(
                    error.localizedDescription.contains("Seat(row, number) row = \"A\", number = 1")
                )
                context.mergePolicy = .mergeByPropertyObjectTrump
                try context.save()
                #expect(clash.value(forKey: "holder") as? String == "bob")
            }
            #expect(try stack.rows("Seat").count == 3)
        }

        @Test func aConstraintOnAToOneComparesTheDestination() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let t1 = Self.insert(context, "Tag", ["name": "t1"])
                let t2 = Self.insert(context, "Tag", ["name": "t2"])
                Self.insert(context, "Badge", ["kind": "gold", "owner": t1, "level": 1])
                Self.insert(context, "Badge", ["kind": "gold", "owner": t2])
                Self.insert(context, "Badge", ["kind": "silver", "owner": t1])
                try context.save()
                Self.insert(context, "Badge", ["kind": "gold", "owner": t1, "level": 2])
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSManagedObjectConstraintMergeError)
                context.mergePolicy = .mergeByPropertyStoreTrump
                try context.save()
                let gold = (t1.value(forKey: "badges") as? Set<ManagedObject> ?? []).filter {
                    $0.value(forKey: "kind") as? String == "gold"
                }
                #expect(gold.count == 1)
                #expect(gold.first?.value(forKey: "level") as? Int16 == 1)
            }
            #expect(try stack.rows("Badge").count == 3)
        }

        @Test func unsavedDuplicatesConflictWithEachOther() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let a = Self.insert(context, "Tag", ["name": "green"])
                let b = Self.insert(context, "Tag", ["name": "green"])
                let error = try #require(expectNSError { try context.save() })
                #expect(error.code == NSManagedObjectConstraintMergeError)
                let conflict =
                    (error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])?.first
                    as? ConstraintConflict
                #expect(conflict?.databaseObject == nil)
                #expect(conflict?.databaseSnapshot == nil)
                #expect(conflict?.conflictingObjects.count == 2)
                #expect(
                    conflict?.conflictingObjects.first === a
                        && conflict?.conflictingObjects.last === b)
            }
            #expect(try stack.rows("Tag").isEmpty)
        }

        @Test func aConstraintDeclaredOnASuperentityCoversItsSubentities() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            let dogID = try stack.seed("Dog", ["name": "rex", "age": 3])
            let context = stack.context(.mergeByPropertyObjectTrump)
            try context.performAndWait {
                let cat = Self.insert(context, "Cat", ["name": "rex"])
                let error = try #require(expectNSError { try context.save() })
                #expect(error.code == NSManagedObjectConstraintMergeError)
                #expect(error.localizedDescription.contains("Animal(name)"))
                #expect(error.localizedDescription.contains("different entities"))
                context.delete(cat)
                let dog = Self.insert(context, "Dog", ["name": "rex", "age": 4])
                try context.save()
                #expect(dog.objectID == dogID)
            }
            #expect(try stack.rows("Animal").map { $0["age"]?.attributeValue } == [.integer(4)])
        }

        @Test func objectsAlreadyStoredAreNeverMergedIntoEachOther() throws {
            let (stack, _) = try seededStack(.inMemory)
            try stack.seed("Tag", ["name": "blue", "color": 2])
            let before = try stack.allRows()
            for policy in MergePolicy.allCases {
                let context = stack.context(policy)
                context.performAndWait {
                    let blue = try? Self.all(context, "Tag").first {
                        $0.value(forKey: "name") as? String == "blue"
                    }
                    blue?.setValue("red", forKey: "name")
                    let error = expectNSError { try context.save() }
                    #expect(error?.code == NSManagedObjectConstraintMergeError)
                    #expect(context.hasChanges)
                }
            }
            #expect(try stack.allRows() == before)
        }

        @Test(arguments: [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump])
        func anInsertMergesIntoAnUpdatedObjectWithTheSameValues(_ policy: MergePolicy) throws {
            let (stack, storedID) = try seededStack(.inMemory)
            let context = stack.context(policy)
            try context.performAndWait {
                let existing = try #require(try Self.all(context, "Tag").first)
                existing.setValue(5, forKey: "color")
                let new = Self.insert(context, "Tag", ["name": "red", "color": 7, "note": "new"])
                try context.save()
                #expect(existing.objectID == storedID)
                #expect(existing.managedObjectContext === context)
                #expect(new.managedObjectContext == nil)
                #expect(new.objectID == storedID)
            }
            #expect(
                try Self.tags(stack) == [
                    policy == .mergeByPropertyObjectTrump ? "red:7:new" : "red:5:keep"
                ])
        }

        @Test func theLosersRelationshipsMoveToTheSurvivor() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            let seeder = stack.context()
            let storedID = try seeder.performAndWait {
                let red = Self.insert(seeder, "Tag", ["name": "red"])
                Self.insert(seeder, "Note", ["text": "n0", "tag": red])
                Self.insert(seeder, "Post", ["title": "p0", "tags": Set([red])])
                try seeder.save()
                return red.objectID
            }
            let context = stack.context(.mergeByPropertyObjectTrump)
            try context.performAndWait {
                let red = Self.insert(context, "Tag", ["name": "red"])
                let n1 = Self.insert(context, "Note", ["text": "n1", "tag": red])
                let red2 = Self.insert(context, "Tag", ["name": "red"])
                let n2 = Self.insert(context, "Note", ["text": "n2", "tag": red2])
                let p2 = Self.insert(context, "Post", ["title": "p2", "tags": Set([red2])])
                try context.save()
                #expect(red.objectID == storedID)
                #expect(n1.value(forKey: "tag") as? ManagedObject === red)
                #expect(n2.value(forKey: "tag") as? ManagedObject === red)
                #expect(p2.value(forKey: "tags") as? Set<ManagedObject> == [red])
                let notes = (red.value(forKey: "notes") as? Set<ManagedObject> ?? []).compactMap {
                    $0.value(forKey: "text") as? String
                }
                #expect(notes.sorted() == ["n0", "n1", "n2"])
                let posts = (red.value(forKey: "posts") as? Set<ManagedObject> ?? []).compactMap {
                    $0.value(forKey: "title") as? String
                }
                #expect(posts.sorted() == ["p0", "p2"])
                #expect(!context.hasChanges)
            }
            let fresh = try stack.reopen().context()
            try fresh.performAndWait {
                let tags = try Self.all(fresh, "Tag")
                #expect(tags.map(\.objectID) == [storedID])
                let notes = (tags[0].value(forKey: "notes") as? Set<ManagedObject> ?? []).compactMap
                { $0.value(forKey: "text") as? String }
                #expect(notes.sorted() == ["n0", "n1", "n2"])
                let posts = (tags[0].value(forKey: "posts") as? Set<ManagedObject> ?? []).compactMap
                { $0.value(forKey: "title") as? String }
                #expect(posts.sorted() == ["p0", "p2"])
            }
        }

        @Test func anObjectAlreadyRegisteredForTheStoredRowIsReplacedByTheInsert() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            let seeder = stack.context()
            let storedID = try seeder.performAndWait {
                let red = Self.insert(seeder, "Tag", ["name": "red", "color": 1])
                Self.insert(seeder, "Note", ["text": "n0", "tag": red])
                try seeder.save()
                return red.objectID
            }
            let context = stack.context(.mergeByPropertyObjectTrump)
            try context.performAndWait {
                let old = try #require(try Self.all(context, "Tag").first)
                let n0 = try #require((old.value(forKey: "notes") as? Set<ManagedObject>)?.first)
                let new = Self.insert(context, "Tag", ["name": "red", "color": 9])
                let n1 = Self.insert(context, "Note", ["text": "n1", "tag": new])
                try context.save()
                #expect(context.registeredObject(for: storedID) === new)
                #expect(old.managedObjectContext == nil)
                #expect(n0.value(forKey: "tag") as? ManagedObject === new)
                #expect(n1.value(forKey: "tag") as? ManagedObject === new)
                #expect((new.value(forKey: "notes") as? Set<ManagedObject>) == [n0, n1])
                #expect(new.value(forKey: "color") as? Int16 == 9)
            }
            #expect(try Self.tags(stack) == ["red:9:-"])
        }

        @Test(arguments: [MergePolicy.mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump])
        func aOneToOneChosenByThePolicyLeavesTheOtherPartnerAlone(_ policy: MergePolicy) throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
            let context = stack.context(policy)
            try context.performAndWait {
                let f1 = Self.insert(context, "Note", ["text": "f1"])
                let f2 = Self.insert(context, "Note", ["text": "f2"])
                let first = Self.insert(context, "Tag", ["name": "red", "favorite": f1])
                Self.insert(context, "Tag", ["name": "red", "favorite": f2])
                try context.save()
                let (kept, dropped) = policy == .mergeByPropertyObjectTrump ? (f2, f1) : (f1, f2)
                #expect(first.value(forKey: "favorite") as? ManagedObject === kept)
                #expect(kept.value(forKey: "favoriteOf") as? ManagedObject === first)
                #expect(dropped.value(forKey: "favoriteOf") == nil)
            }
            let rows = try stack.reopen().rows("Note")
            let tagID = try stack.rows("Tag")[0].objectID
            #expect(
                rows.map { $0["favoriteOf"] }
                    == (policy == .mergeByPropertyObjectTrump
                        ? [.toOne(nil), .toOne(tagID)] : [.toOne(tagID), .toOne(nil)]))
        }

        @Test func aChildsInsertKeepsTrackOfWhatItSetThroughTheParent() throws {
            let (stack, storedID) = try seededStack(.inMemory)
            let parent = stack.context(.mergeByPropertyObjectTrump)
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            try child.performAndWait {
                Self.insert(child, "Tag", ["name": "red", "color": 9])
                try child.save()
            }
            try parent.performAndWait {
                try parent.save()
                #expect(parent.object(with: storedID).value(forKey: "color") as? Int16 == 9)
            }
            #expect(try Self.tags(stack) == ["red:9:keep"])
        }

        @Test func theSameSavesGiveTheSameRows() throws {
            func run() throws -> [String] {
                let stack = try Stack(IntegrityModels.upsert(), on: .inMemory)
                try stack.seed("Tag", ["name": "a", "color": 1])
                let context = stack.context(.mergeByPropertyObjectTrump)
                try context.performAndWait {
                    for (i, name) in ["b", "a", "c", "b", "a", "d", "c"].enumerated() {
                        let tag = Self.insert(context, "Tag", ["name": name, "color": i])
                        Self.insert(context, "Note", ["text": "\(name)\(i)", "tag": tag])
                    }
                    try context.save()
                }
                let rows = try stack.rows("Tag") + stack.rows("Note")
                return rows.map { row in
                    "\(row.objectID.entity.name)/\(row.objectID.primaryKey)@\(row.version): "
                        + row.values.map { value in
                            if case .toOne(let id?) = value { return "→\(id.primaryKey)" }
                            return "\(value)"
                        }.joined(separator: ",")
                }
            }
            let first = try run()
            #expect(try run() == first)
            #expect(first.filter { $0.hasPrefix("Tag/") }.count == 4)
            #expect(first.filter { $0.hasPrefix("Note/") }.count == 7)
        }

        @Test func constraintChecksScanTheStoreAtMostOncePerConstraint() throws {
            let stack = try Stack(IntegrityModels.upsert(), on: .inMemory, failing: true)
            let store = stack.store as! FailingStore
            try stack.seed("Tag", ["name": "t0"])
            let context = stack.context()
            try context.performAndWait {
                let start = store.fetchCount
                let tags = (1...200).map { (i: Int) in
                    Self.insert(context, "Tag", ["name": "t\(i)", "color": i])
                }
                try context.save()
                #expect(store.fetchCount - start == 1)
                for tag in tags { tag.setValue(0, forKey: "color") }
                let before = store.fetchCount
                try context.save()
                #expect(store.fetchCount == before)
                tags[0].setValue("renamed", forKey: "name")
                try context.save()
                #expect(store.fetchCount == before + 1)
            }
        }
    }
}
