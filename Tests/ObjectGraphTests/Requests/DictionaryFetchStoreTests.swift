import Foundation
import ObjectGraph
import Testing

/// Dictionary results reflect the persistent store alone. Apple documents it under
/// `includesPendingChanges` ("for dictionaries, the array returned from the fetch reflects
/// the current state in the persistent store, and does not take into account any pending
/// changes"), and FreeCoreData's Apple-run `testDictionaryFetchReflectsStoreOnly`
/// (`Tests/NSPendingChangesFetchTests.m`) observes it with this fixture.
@Suite struct DictionaryFetchStoreTests {
    /// alpha(22), bravo(25), charlie(10) saved; then alpha → 5, charlie → 21, bravo deleted,
    /// delta(30) and echo(40) inserted, none of it saved.
    private func dirty(_ context: ManagedObjectContext) throws {
        let alpha = StaffModel.employee("alpha", salary: 22, in: context)
        let bravo = StaffModel.employee("bravo", salary: 25, in: context)
        let charlie = StaffModel.employee("charlie", salary: 10, in: context)
        try context.save()
        alpha.setValue(5, forKey: "salary")
        charlie.setValue(21, forKey: "salary")
        context.delete(bravo)
        StaffModel.employee("delta", salary: 30, in: context)
        StaffModel.employee("echo", salary: 40, in: context)
    }

    private func request(_ format: String? = nil) throws -> FetchRequest<[String: Any]> {
        let r = FetchRequest<[String: Any]>(entityName: "Employee")
        r.resultType = .dictionaryResultType
        r.predicate = try format.map { try FetchPredicate(format: $0) }
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return r
    }

    @Test(arguments: StoreKind.all)
    func dictionaryRowsIgnoreTheContextsPendingChanges(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            try dirty(context)
            let r = try request("salary > 20")
            r.propertiesToFetch = ["name", "salary"]
            let rows = try context.fetch(r)
            #expect(rows.map { $0["name"] as? String } == ["alpha", "bravo"])
            #expect(StaffModel.ints(rows, "salary") == [22, 25])
            // includesPendingChanges does not change it: dictionaries never see them.
            r.includesPendingChanges = false
            #expect(try context.fetch(r).count == 2)
            // The object fetch of the same request does see them.
            let objects = FetchRequest<ManagedObject>(entityName: "Employee")
            objects.predicate = r.predicate
            objects.sortDescriptors = r.sortDescriptors
            #expect(
                try context.fetch(objects).map { $0.value(forKey: "name") as? String }
                    == ["charlie", "delta", "echo"])
        }
    }

    @Test(arguments: StoreKind.all)
    func aggregatesIgnoreTheContextsPendingChanges(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            try dirty(context)
            let r = try request()
            r.sortDescriptors = []
            r.propertiesToFetch = [
                try StaffModel.aggregate("total", "sum", "salary"),
                try StaffModel.aggregate("headcount", "count", "name"),
                try StaffModel.aggregate("top", "max", "salary"),
            ]
            let rows = try context.fetch(r)
            try #require(rows.count == 1)
            #expect(StaffModel.ints(rows, "total") == [57])
            #expect(StaffModel.ints(rows, "headcount") == [3])
            #expect(StaffModel.ints(rows, "top") == [25])
            #expect(try context.count(for: r) == 1)
        }
    }

    @Test(arguments: StoreKind.all)
    func aChildContextSeesNeitherItsOwnNorItsParentsUnsavedChanges(_ kind: StoreKind) throws {
        let parent = try StaffModel.context(kind)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        try parent.performAndWait { () throws in try dirty(parent) }
        try child.performAndWait { () throws in
            StaffModel.employee("foxtrot", salary: 50, in: child)
            let r = try request("salary > 20")
            r.propertiesToFetch = ["name"]
            #expect(try child.fetch(r).map { $0["name"] as? String } == ["alpha", "bravo"])
            r.predicate = nil
            r.sortDescriptors = []
            r.propertiesToFetch = [try StaffModel.aggregate("total", "sum", "salary")]
            #expect(StaffModel.ints(try child.fetch(r), "total") == [57])
            // Objects, by contrast, see the parent's and the child's changes.
            #expect(try child.count(for: FetchRequest<ManagedObject>(entityName: "Employee")) == 5)
        }
    }

    /// FreeCoreData's Apple-run `testDictionaryFetchDefaultKeysAreAllAttributes`: with no
    /// `propertiesToFetch`, every attribute and no relationship.
    @Test(arguments: StoreKind.all)
    func withoutPropertiesToFetchARowHoldsEveryAttributeAndNoRelationship(_ kind: StoreKind)
        throws
    {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            let sales = StaffModel.department("Sales", in: context)
            let alice = StaffModel.employee("alice", salary: 9, department: sales, in: context)
            alice.setValue(Date(timeIntervalSinceReferenceDate: 1000), forKey: "hireDate")
            try context.save()
            let rows = try context.fetch(try request())
            try #require(rows.count == 1)
            #expect(Set(rows[0].keys) == ["name", "salary", "hireDate"])
            #expect(rows[0]["salary"] as? Int32 == 9)
            #expect(rows[0]["hireDate"] as? Date == Date(timeIntervalSinceReferenceDate: 1000))
        }
    }

    /// FreeCoreData's Apple-run `testToOneRelationshipColumnYieldsObjectID`; an expression of
    /// `SELF` with the object-ID result type gives the row's own ID.
    @Test(arguments: StoreKind.all)
    func toOneColumnsAndSelfExpressionsGiveObjectIDs(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            let sales = StaffModel.department("Sales", in: context)
            let alpha = StaffModel.employee("alpha", salary: 22, department: sales, in: context)
            try context.save()
            let r = try request()
            r.propertiesToFetch = [
                "name", "department",
                ExpressionDescription(
                    name: "objectID", expression: .evaluatedObject, resultType: .objectID),
            ]
            let rows = try context.fetch(r)
            try #require(rows.count == 1)
            #expect(rows[0]["department"] as? ManagedObjectID == sales.objectID)
            #expect(rows[0]["objectID"] as? ManagedObjectID == alpha.objectID)
        }
    }

    /// Apple's documentation of `propertiesToFetch`: a to-many relationship is not a column
    /// (FreeCoreData's Apple-run `testToManyRelationshipInPropertiesToFetchThrows`).
    @Test func aToManyRelationshipIsNotAColumn() throws {
        let context = try StaffModel.context(.inMemory)
        try context.performAndWait { () throws in
            let r = FetchRequest<[String: Any]>(entityName: "Department")
            r.resultType = .dictionaryResultType
            r.propertiesToFetch = ["employees"]
            #expect(throws: ObjectGraphError.self) { try context.fetch(r) }
            r.propertiesToFetch = [StaffModel.departmentEmployees(context)]
            #expect(throws: ObjectGraphError.self) { try context.fetch(r) }
        }
    }

    @Test(arguments: StoreKind.all)
    func aStoreSortedDictionaryFetchIsWindowedAfterSorting(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            for (name, salary) in [("d", 40), ("a", 5), ("c", 30), ("b", 21)] {
                StaffModel.employee(name, salary: salary, in: context)
            }
            try context.save()
            let r = try request()
            r.propertiesToFetch = ["name"]
            r.sortDescriptors = [FetchSortDescriptor(key: "salary", ascending: false)]
            r.fetchOffset = 1
            r.fetchLimit = 2
            #expect(try context.fetch(r).map { $0["name"] as? String } == ["c", "b"])
        }
    }
}

extension StaffModel {
    /// `Department.employees`, as a description.
    static func departmentEmployees(_ context: ManagedObjectContext) -> PropertyDescription {
        context.persistentStoreCoordinator!.managedObjectModel
            .entitiesByName["Department"]!.propertiesByName["employees"]!
    }
}
