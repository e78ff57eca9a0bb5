import Foundation
import ObjectGraph
import Testing

/// Grouped dictionary fetches: aggregates over to-many key paths, sorting by an aggregate's
/// name, and Core Data's rules for having-predicates and grouped columns.
@Suite struct DictionaryGroupingTests {
    /// amy(10), ben(10), cal(20), saved.
    private func salaries(_ kind: StoreKind) throws -> ManagedObjectContext {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            for (name, salary) in [("amy", 10), ("ben", 10), ("cal", 20)] {
                StaffModel.employee(name, salary: salary, in: context)
            }
            try context.save()
        }
        return context
    }

    /// Salary and headcount per salary.
    private func bySalary() throws -> FetchRequest<[String: Any]> {
        let r = FetchRequest<[String: Any]>(entityName: "Employee")
        r.resultType = .dictionaryResultType
        r.propertiesToFetch = ["salary", try StaffModel.aggregate("headcount", "count", "name")]
        r.propertiesToGroupBy = ["salary"]
        return r
    }

    /// FreeCoreData's Apple-run `testAggregatesAcrossARelationship`: `count:(employees)` and
    /// `sum:(employees.salary)` per department count the rows they reach (two employees on
    /// the same salary count twice); a department with none counts 0.
    @Test(arguments: StoreKind.all)
    func aggregatesOverToManyKeyPathsCountAndSumTheRowsTheyReach(_ kind: StoreKind) throws {
        let context = try StaffModel.context(kind)
        try context.performAndWait { () throws in
            let engineering = StaffModel.department("Engineering", in: context)
            let sales = StaffModel.department("Sales", in: context)
            StaffModel.department("Empty", in: context)
            StaffModel.employee("amy", salary: 10, department: engineering, in: context)
            StaffModel.employee("ben", salary: 10, department: engineering, in: context)
            StaffModel.employee("cal", salary: 25, department: sales, in: context)
            try context.save()
            let r = FetchRequest<[String: Any]>(entityName: "Department")
            r.resultType = .dictionaryResultType
            r.propertiesToFetch = [
                "name", try StaffModel.aggregate("headcount", "count", "employees"),
                try StaffModel.aggregate("payroll", "sum", "employees.salary"),
            ]
            r.propertiesToGroupBy = ["name"]
            r.sortDescriptors = [FetchSortDescriptor(key: "name")]
            let rows = try context.fetch(r)
            #expect(rows.map { $0["name"] as? String } == ["Empty", "Engineering", "Sales"])
            #expect(StaffModel.ints(rows, "headcount") == [0, 2, 1])
            #expect(StaffModel.ints(Array(rows.dropFirst()), "payroll") == [20, 25])
        }
    }

    /// Core Data's selector spelling `count:(x)` is the same function as `count(x)`.
    @Test func coreDataFunctionSpellingParsesToTheSameExpressions() throws {
        let pairs = [
            ("count:(employees)", "count(employees)"),
            ("sum:(employees.salary)", "sum(employees.salary)"),
            ("lowercase:(name)", "lowercase(name)"), ("add:to:(1, 2)", "1 + 2"),
            ("castObject:toType:(0, 'NSDate')", "CAST(0, 'NSDate')"),
        ]
        for (colon, plain) in pairs {
            #expect(
                try FetchExpression(format: colon) == FetchExpression(format: plain), "\(colon)")
        }
        #expect(throws: ObjectGraphError.self) { try FetchExpression(format: "nosuch:(1)") }
        #expect(throws: ObjectGraphError.self) { try FetchExpression(format: "sum:amount") }
        #expect(
            try FetchPredicate(format: "uppercase:(name) == 'AMY'")
                == FetchPredicate(format: "uppercase(name) == 'AMY'"))
    }

    /// FreeCoreData's Apple-run `testGroupBySortedByAggregateName`: a grouped fetch sorts by
    /// an expression description's name, both ways.
    @Test(arguments: StoreKind.all)
    func aGroupedFetchSortsByAnAggregatesName(_ kind: StoreKind) throws {
        let context = try salaries(kind)
        try context.performAndWait { () throws in
            let r = try bySalary()
            r.sortDescriptors = [FetchSortDescriptor(key: "headcount", ascending: false)]
            var rows = try context.fetch(r)
            #expect(StaffModel.ints(rows, "headcount") == [2, 1])
            #expect(StaffModel.ints(rows, "salary") == [10, 20])
            r.sortDescriptors = [FetchSortDescriptor(key: "headcount", ascending: true)]
            rows = try context.fetch(r)
            #expect(StaffModel.ints(rows, "headcount") == [1, 2])
            // The window applies to the sorted groups.
            r.fetchLimit = 1
            #expect(StaffModel.ints(try context.fetch(r), "salary") == [20])
        }
    }

    /// A having-predicate names an aggregate as `$NAME` (Fatbobman, "Count Queries in Core
    /// Data", https://fatbobman.com/en/posts/countincoredata, section 12); a bare alias and an
    /// aggregate function are refused as Core Data refuses them (FreeCoreData's Apple-run
    /// `testGroupByWithHavingPredicate`, observed on macOS).
    @Test(arguments: StoreKind.all)
    func havingNamesAggregatesAsVariables(_ kind: StoreKind) throws {
        let context = try salaries(kind)
        try context.performAndWait { () throws in
            let r = try bySalary()
            r.havingPredicate = try FetchPredicate(format: "$headcount > 1")
            var rows = try context.fetch(r)
            #expect(StaffModel.ints(rows, "salary") == [10])
            #expect(StaffModel.ints(rows, "headcount") == [2])
            // A grouped property is a key path of the entity.
            r.havingPredicate = try FetchPredicate(format: "salary == 20 OR $headcount >= 2")
            rows = try context.fetch(r)
            #expect(StaffModel.ints(rows, "salary").sorted() == [10, 20])

            r.havingPredicate = try FetchPredicate(format: "headcount > 1")
            let alias = expectNSError { _ = try context.fetch(r) }
            #expect(alias?.code == 134060)
            #expect(alias?.localizedDescription.contains("$headcount") == true)
            r.havingPredicate = try FetchPredicate(format: "count:(name) > 1")
            let function = expectNSError { _ = try context.fetch(r) }
            #expect(function?.code == 134060)
            #expect(function?.localizedDescription.contains("$NAME") == true)
        }
    }

    /// Apple's `havingPredicate` documentation: "specifying a HAVING predicate requires that a
    /// GROUP BY also be specified"; `propertiesToGroupBy`: it needs dictionary results, and
    /// "the SELECT values must be literals, aggregates, or columns specified in the GROUP BY".
    @Test func groupingRulesAreCoreDatas() throws {
        let context = try salaries(.inMemory)
        try context.performAndWait { () throws in
            let r = try bySalary()
            r.propertiesToGroupBy = nil
            r.propertiesToFetch = [try StaffModel.aggregate("headcount", "count", "name")]
            r.havingPredicate = try FetchPredicate(format: "$headcount > 1")
            #expect(throws: ObjectGraphError.self) { try context.fetch(r) }

            let ungrouped = try bySalary()
            ungrouped.propertiesToFetch = ["name", "salary"]
            #expect(throws: ObjectGraphError.self) { try context.fetch(ungrouped) }
            let constant = try bySalary()
            constant.propertiesToFetch?.append(
                ExpressionDescription(name: "one", expression: .constant(.integer(1))))
            #expect(try context.fetch(constant).count == 2)

            let objects = FetchRequest<ManagedObject>(entityName: "Employee")
            objects.propertiesToGroupBy = ["salary"]
            #expect(throws: ObjectGraphError.self) { try context.fetch(objects) }
        }
    }

    @Test(arguments: StoreKind.all)
    func distinctAndCountOfAGroupedFetch(_ kind: StoreKind) throws {
        let context = try salaries(kind)
        try context.performAndWait { () throws in
            let r = FetchRequest<[String: Any]>(entityName: "Employee")
            r.resultType = .dictionaryResultType
            r.propertiesToFetch = ["salary"]
            r.returnsDistinctResults = true
            r.sortDescriptors = [FetchSortDescriptor(key: "salary")]
            #expect(StaffModel.ints(try context.fetch(r), "salary") == [10, 20])
            #expect(try context.count(for: try bySalary()) == 2)
        }
    }

    /// Odd grouping inputs (an unknown key, a value that is no property, a deeply nested
    /// expression, a having-predicate on an unknown name) are refused with 134060 (Core Data
    /// raises NSInvalidArgumentException), never a crash; a refused fetch changes nothing.
    @Test func oddGroupingInputsAreRefusedWith134060() throws {
        let context = try salaries(.inMemory)
        try context.performAndWait { () throws in
            var refused: [String] = []
            func check(_ label: String, _ change: (FetchRequest<[String: Any]>) throws -> Void)
                throws
            {
                let r = try bySalary()
                do {
                    try change(r)
                    let rows = try context.fetch(r)
                    refused.append("\(label): returned \(rows.count) rows")
                } catch let error as NSError {
                    if error.code != 134060 { refused.append("\(label): code \(error.code)") }
                }
            }
            try check("unknown key") { $0.propertiesToGroupBy = ["nope"] }
            try check("number") { $0.propertiesToGroupBy = [42] }
            try check("unknown having variable") {
                $0.havingPredicate = try FetchPredicate(format: "$nobody > 1")
            }
            try check("deep expression") {
                let deep =
                    String(repeating: "abs:(", count: 2000) + "salary"
                    + String(repeating: ")", count: 2000)
                $0.propertiesToFetch = [
                    "salary",
                    ExpressionDescription(
                        name: "deep", expression: try FetchExpression(format: deep),
                        resultType: .integer64),
                ]
            }
            #expect(refused.isEmpty, "\(refused)")
            #expect(!context.hasChanges)
        }
    }
}
