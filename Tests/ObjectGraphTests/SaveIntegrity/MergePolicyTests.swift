import Foundation
import ObjectGraph
import Testing

/// What another context did to a person row between our read and our save, and what we did.
enum ConflictKind: String, CaseIterable, Sendable {
    /// They renamed Ann to Anna; we changed the age (B08 case 1).
    case otherProperty
    /// They renamed Ann to Anna; we renamed her Annie and changed the age (B08 case 2).
    case sameProperty
    /// They moved her to company "There"; we moved her to "Here".
    case toOneBothSides
    /// They deleted the row; we changed the age (B36).
    case deletedThere
    /// They renamed her; we deleted the row.
    case deletedHere
}

/// The stored person after our save, or `nil` when the row is gone.
struct StoredPerson: Equatable, CustomStringConvertible {
    var name: String
    var age: Int64
    var employer: String?
    var description: String { "(\(name), \(age), \(employer ?? "-"))" }
}

extension SaveIntegrity {
    @Suite struct MergePolicyTests {
        /// The B08 table, extended to the other kinds of conflict; `nil` means the row is gone.
        static func expected(_ policy: MergePolicy, _ kind: ConflictKind) -> StoredPerson?? {
            let store = StoredPerson(name: "Anna", age: 30, employer: "Start")
            switch (policy, kind) {
            case (.error, _):
                return .some(
                    kind == .deletedThere
                        ? nil
                        : (kind == .toOneBothSides
                            ? StoredPerson(name: "Ann", age: 30, employer: "There") : store))
            case (_, .deletedThere), (_, .deletedHere): return .some(nil)
            case (.mergeByPropertyObjectTrump, .otherProperty):
                return StoredPerson(name: "Anna", age: 31, employer: "Start")
            case (.mergeByPropertyObjectTrump, .sameProperty):
                return StoredPerson(name: "Annie", age: 31, employer: "Start")
            case (.mergeByPropertyObjectTrump, .toOneBothSides):
                return StoredPerson(name: "Ann", age: 30, employer: "Here")
            case (.mergeByPropertyStoreTrump, .otherProperty),
                (.mergeByPropertyStoreTrump, .sameProperty):
                return StoredPerson(name: "Anna", age: 31, employer: "Start")
            case (.mergeByPropertyStoreTrump, .toOneBothSides):
                return StoredPerson(name: "Ann", age: 30, employer: "There")
            case (.overwrite, .otherProperty):
                return StoredPerson(name: "Ann", age: 31, employer: "Start")
            case (.overwrite, .sameProperty):
                return StoredPerson(name: "Annie", age: 31, employer: "Start")
            case (.overwrite, .toOneBothSides):
                return StoredPerson(name: "Ann", age: 30, employer: "Here")
            case (.rollback, .toOneBothSides):
                return StoredPerson(name: "Ann", age: 30, employer: "There")
            case (.rollback, _): return store
            }
        }

        private func person(_ context: ManagedObjectContext) throws -> ManagedObject? {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Person")).first
        }

        private func company(_ context: ManagedObjectContext, _ name: String) throws
            -> ManagedObject
        {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Company"))
                .first { $0.value(forKey: "name") as? String == name }!
        }

        private func describe(_ p: ManagedObject) -> StoredPerson {
            StoredPerson(
                name: p.value(forKey: "name") as! String, age: p.value(forKey: "age") as! Int64,
                employer: (p.value(forKey: "employer") as? ManagedObject)?.value(forKey: "name")
                    as? String)
        }

        @Test(arguments: MergePolicy.allCases, ConflictKind.allCases)
        func eachPolicyResolvesEachKindOfConflict(_ policy: MergePolicy, _ kind: ConflictKind)
            throws
        {
            for storeKind in StoreKind.all {
                let stack = try Stack(IntegrityModels.people(), on: storeKind)
                let seeder = stack.context()
                try seeder.performAndWait {
                    for name in ["Start", "Here", "There"] {
                        seeder.insertNewObject(forEntityName: "Company").setValue(
                            name, forKey: "name")
                    }
                    let p = seeder.insertNewObject(forEntityName: "Person")
                    p.setValue("Ann", forKey: "name")
                    p.setValue(30, forKey: "age")
                    p.setValue(try company(seeder, "Start"), forKey: "employer")
                    try seeder.save()
                }
                let a = stack.context(name: "A")
                let b = stack.context(policy, name: "B")
                let pb = try b.performAndWait { try #require(try person(b)) }
                b.performAndWait { #expect(describe(pb).name == "Ann") }
                try a.performAndWait {
                    let p = try #require(try person(a))
                    switch kind {
                    case .otherProperty, .sameProperty, .deletedHere:
                        p.setValue("Anna", forKey: "name")
                    case .toOneBothSides: p.setValue(try company(a, "There"), forKey: "employer")
                    case .deletedThere: a.delete(p)
                    }
                    try a.save()
                }
                let error: NSError? = try b.performAndWait {
                    switch kind {
                    case .otherProperty, .deletedThere: pb.setValue(31, forKey: "age")
                    case .sameProperty:
                        pb.setValue("Annie", forKey: "name")
                        pb.setValue(31, forKey: "age")
                    case .toOneBothSides: pb.setValue(try company(b, "Here"), forKey: "employer")
                    case .deletedHere: b.delete(pb)
                    }
                    do { try b.save() } catch { return error as NSError }
                    return nil
                }
                // The error policy poisons later saves too (checked before the store is reopened,
                // which closes a file store under `b`).
                let again: NSError? =
                    policy == .error ? b.performAndWait { expectNSError { try b.save() } } : nil
                let stored = try stack.reopen().context()
                let after = try stored.performAndWait { try person(stored).map(describe) }
                #expect(after == Self.expected(policy, kind), "\(storeKind.name)")
                if policy == .error {
                    #expect(error?.code == NSManagedObjectMergeError)
                    b.performAndWait {
                        #expect(b.hasChanges)
                        #expect(again?.code == NSManagedObjectMergeError)
                    }
                } else {
                    #expect(error == nil)
                    b.performAndWait {
                        #expect(!b.hasChanges)
                        if let after {
                            #expect(describe(pb) == after)
                        } else {
                            // Saved deletions leave the context (isDeleted is false again, as
                            // in Core Data); deletions made elsewhere stay marked deleted.
                            #expect(
                                kind == .deletedHere ? pb.managedObjectContext == nil : pb.isDeleted
                            )
                            #expect(b.registeredObject(for: pb.objectID) == nil)
                        }
                    }
                }
            }
        }

        @Test func theConflictListNamesObjectSnapshotsVersionsAndBothValues() throws {
            let stack = try Stack(IntegrityModels.people(), on: .inMemory)
            try stack.seed("Person", ["name": "Ann", "age": 30])
            let a = stack.context()
            let b = stack.context()
            try b.performAndWait {
                let p = try #require(try person(b))
                p.setValue("Annie", forKey: "name")
                p.setValue(31, forKey: "age")
            }
            try a.performAndWait {
                let p = try #require(try person(a))
                p.setValue("Anna", forKey: "name")
                try a.save()
            }
            try b.performAndWait {
                let p = try #require(try person(b))
                let error = try #require(expectNSError { try b.save() })
                #expect(error.code == NSManagedObjectMergeError)
                let list = try #require(
                    error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])
                #expect(list.count == 1)
                let conflict = try #require(list.first as? MergeConflict)
                #expect(conflict.sourceObject === p)
                #expect(conflict.objectSnapshot?["name"] as? String == "Ann")
                #expect((conflict.objectSnapshot?["age"] as? NSNumber)?.int64Value == 30)
                #expect(conflict.cachedSnapshot?["name"] as? String == "Anna")
                #expect(conflict.persistedSnapshot == nil)
                #expect(conflict.oldVersionNumber == 1)
                #expect(conflict.newVersionNumber == 2)
                #expect(conflict.conflictingKeys == ["name"])
                #expect(
                    conflict.description.hasSuffix(
                        "changed on both sides: name: here \"Annie\", store \"Anna\""))
                #expect(error.localizedDescription.contains("name: here \"Annie\", store \"Anna\""))
                #expect(
                    (error.userInfo[NSAffectedObjectsErrorKey] as? [Any])?.first as? ManagedObject
                        === p)
            }
        }

        /// A save of many objects of which one was changed elsewhere conflicts on that one
        /// alone: Core Data's conflict list holds an `NSMergeConflict` per object whose store
        /// version moved (developer.apple.com/documentation/coredata/nsmergeconflict), and
        /// the others are written. The save reads every row's version but keeps only the
        /// conflicting rows (W7's peak held all of them).
        @Test(arguments: StoreKind.all)
        func onlyTheObjectChangedElsewhereIsAConflict(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.people(), on: kind)
            for i in 0..<5 { _ = try stack.seed("Person", ["name": "P\(i)", "age": Int64(i)]) }
            let request = FetchRequest<ManagedObject>(entityName: "Person")
            request.sortDescriptors = [FetchSortDescriptor(key: "age", ascending: true)]
            let a = stack.context()
            let b = stack.context()
            let mine = try b.performAndWait {
                let people = try b.fetch(request)
                for p in people {
                    p.setValue((p.value(forKey: "age") as! Int64) + 10, forKey: "age")
                }
                return people
            }
            try a.performAndWait {
                try a.fetch(request)[3].setValue("Changed", forKey: "name")
                try a.save()
            }
            try b.performAndWait {
                let error = try #require(expectNSError { try b.save() })
                #expect(error.code == NSManagedObjectMergeError)
                let list = try #require(
                    error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])
                #expect(list.count == 1)
                #expect((list.first as? MergeConflict)?.sourceObject === mine[3])
                b.mergePolicy = .mergeByPropertyObjectTrump
                try b.save()
            }
            let stored = try stack.rows("Person").map {
                ($0["name"]?.attributeValue, $0["age"]?.attributeValue)
            }
            #expect(stored.count == 5)
            for (name, age) in stored {
                guard case .string(let n) = name, case .integer(let v) = age else {
                    Issue.record("unexpected row \(String(describing: name))")
                    continue
                }
                #expect(v >= 10)
                #expect(n == (v == 13 ? "Changed" : "P\(v - 10)"))
            }
        }

        /// B36: a deletion committed by another context wins; nothing is resurrected.
        @Test(arguments: StoreKind.all)
        func aSaveOfAnObjectDeletedMeanwhileNeverResurrectsIt(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.people(), on: kind)
            try stack.seed("Item", ["state": "new"])
            let m = stack.context(name: "M")
            let w = stack.context(name: "W")
            let x = try w.performAndWait {
                let x = try #require(
                    try w.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first)
                x.setValue("uploaded", forKey: "state")
                w.insertNewObject(forEntityName: "Item").setValue("y", forKey: "state")
                return x
            }
            try m.performAndWait {
                m.delete(
                    try #require(try m.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first)
                )
                try m.save()
            }
            try w.performAndWait {
                let error = try #require(expectNSError { try w.save() })
                #expect(error.code == NSManagedObjectMergeError)
                let conflict =
                    (error.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any])?.first
                    as? MergeConflict
                #expect(conflict?.sourceObject === x)
                #expect(conflict?.newVersionNumber == 0)
                #expect(conflict?.cachedSnapshot == nil)
                #expect(error.localizedDescription.contains("was deleted in the store"))
            }
            #expect(try stack.rows("Item").isEmpty)
            w.mergePolicy = .mergeByPropertyObjectTrump
            try w.performAndWait {
                try w.save()
                #expect(x.isDeleted)
                #expect(!w.hasChanges)
            }
            #expect(try stack.reopen().rows("Item").map { $0["state"]?.attributeValue } == ["y"])
        }
    }
}
