import Foundation
import ObjectGraph
import Testing

/// `entity` after execution, `copy()`, `includesPropertyValues` and
/// `shouldRefreshRefetchedObjects`, as Core Data documents them.
@Suite struct FetchRequestOptionsTests {
    /// Two contexts on one store of `kind`; the writer has saved employees with `salaries`.
    private func contexts(_ kind: StoreKind, salaries: [String: Int]) throws -> (
        reader: ManagedObjectContext, writer: ManagedObjectContext
    ) {
        let reader = try StaffModel.context(kind)
        let writer = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: reader.persistentStoreCoordinator!)
        try writer.performAndWait { () throws in
            for (name, salary) in salaries { StaffModel.employee(name, salary: salary, in: writer) }
            try writer.save()
        }
        return (reader, writer)
    }

    /// FreeCoreData's Apple-run `testDefaults` (`Tests/NSFetchRequestTests.m`).
    @Test func defaultsAreCoreDatas() {
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        #expect(r.entity == nil)
        #expect(r.includesPropertyValues)
        #expect(r.returnsObjectsAsFaults)
        #expect(r.includesPendingChanges)
        #expect(!r.shouldRefreshRefetchedObjects)
        #expect(!r.returnsDistinctResults)
        #expect(r.propertiesToGroupBy == nil)
        #expect(r.havingPredicate == nil)
    }

    /// FreeCoreData's Apple-run `testEntityNameIsResolvedWhenExecuted`: a request made with a
    /// name answers `entity` once a context has used it.
    @Test func aNamedRequestHasItsEntityOnceExecuted() throws {
        let context = try StaffModel.context(.inMemory)
        try context.performAndWait { () throws in
            let r = FetchRequest<ManagedObject>(entityName: "Employee")
            #expect(r.entity == nil)
            _ = try context.fetch(r)
            #expect(r.entity?.name == "Employee")
            #expect(
                r.entity
                    === context.persistentStoreCoordinator?.managedObjectModel
                    .entitiesByName["Employee"])
            let counted = FetchRequest<ManagedObject>(entityName: "Department")
            _ = try context.count(for: counted)
            #expect(counted.entity?.name == "Department")
        }
    }

    /// A copy is independent: `NSFetchRequest` conforms to `NSCopying` (FreeCoreData's
    /// Apple-run `testCopy`).
    @Test func aCopyIsIndependentOfTheOriginal() throws {
        let r = FetchRequest<[String: Any]>(entityName: "Employee")
        r.predicate = try FetchPredicate(format: "salary > 10")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        r.fetchLimit = 7
        r.resultType = .dictionaryResultType
        r.propertiesToFetch = ["name"]
        r.includesPropertyValues = false
        r.shouldRefreshRefetchedObjects = true
        let copy = r.copy()
        #expect(copy !== r)
        #expect(copy.entityName == "Employee")
        #expect(copy.predicate == r.predicate)
        #expect(copy.sortDescriptors == r.sortDescriptors)
        #expect(copy.fetchLimit == 7)
        #expect(copy.resultType == .dictionaryResultType)
        #expect(copy.propertiesToFetch?.first as? String == "name")
        #expect(!copy.includesPropertyValues)
        #expect(copy.shouldRefreshRefetchedObjects)
        copy.fetchLimit = 1
        copy.predicate = nil
        copy.sortDescriptors = []
        copy.propertiesToFetch = nil
        #expect(r.fetchLimit == 7)
        #expect(r.predicate != nil)
        #expect(r.sortDescriptors.count == 1)
        #expect(r.propertiesToFetch?.count == 1)
    }

    /// Apple's `includesPropertyValues`: with `false` only IDs are fetched and the row cache
    /// is not filled, so each fault reads the store when it fires (it sees a change saved
    /// after the fetch); `returnsObjectsAsFaults` cannot fill objects it has no values for.
    @Test(arguments: StoreKind.all)
    func withoutPropertyValuesFaultsReadTheStoreWhenTheyFire(_ kind: StoreKind) throws {
        let (reader, writer) = try contexts(kind, salaries: ["alpha": 22])
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.includesPropertyValues = false
        r.returnsObjectsAsFaults = false
        let fetched = try reader.performAndWait { () throws in try reader.fetch(r) }
        reader.performAndWait { #expect(fetched.allSatisfy { $0.isFault }) }
        try writer.performAndWait { () throws in
            let alpha = try writer.fetch(FetchRequest<ManagedObject>(entityName: "Employee"))[0]
            alpha.setValue(99, forKey: "salary")
            try writer.save()
        }
        reader.performAndWait {
            #expect(fetched[0].value(forKey: "salary") as? Int32 == 99)
        }
    }

    /// Apple's `shouldRefreshRefetchedObjects`: "by default when you fetch objects, they
    /// maintain their current property values, even if the values in the persistent store
    /// have changed"; with `true` they get the store's values (unsaved changes kept on top).
    @Test(arguments: StoreKind.all)
    func refetchedObjectsKeepTheirValuesUnlessAskedToRefresh(_ kind: StoreKind) throws {
        let (reader, writer) = try contexts(kind, salaries: ["alpha": 22, "bravo": 25])
        let r = FetchRequest<ManagedObject>(entityName: "Employee")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        r.returnsObjectsAsFaults = false
        let loaded = try reader.performAndWait { () throws in try reader.fetch(r) }
        reader.performAndWait { loaded[1].setValue("bravo!", forKey: "name") }
        try writer.performAndWait { () throws in
            for e in try writer.fetch(FetchRequest<ManagedObject>(entityName: "Employee")) {
                e.setValue(99, forKey: "salary")
            }
            try writer.save()
        }
        try reader.performAndWait { () throws in
            _ = try reader.fetch(r)
            #expect(loaded.map { $0.value(forKey: "salary") as? Int32 } == [22, 25])
            r.shouldRefreshRefetchedObjects = true
            _ = try reader.fetch(r)
            #expect(loaded.map { $0.value(forKey: "salary") as? Int32 } == [99, 99])
            #expect(loaded[1].value(forKey: "name") as? String == "bravo!")
            #expect(loaded[1].hasChanges)
            #expect(!loaded[0].hasChanges)
            try reader.save()
        }
        try writer.performAndWait { () throws in
            writer.reset()
            let names = try writer.fetch(r).map { $0.value(forKey: "name") as? String }
            #expect(names == ["alpha", "bravo!"])
        }
    }
}
