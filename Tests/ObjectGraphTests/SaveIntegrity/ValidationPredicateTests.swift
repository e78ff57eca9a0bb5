import Foundation
import ObjectGraph
import Testing

/// Validation predicates with warnings, as FreeCoreData's Apple-run
/// `Tests/NSManagedObjectValidationTests.m` observes them: Employee.name is required with
/// `length >= 2` ("Name is too short."), Employee.salary optional with `SELF >= 0`
/// ("Salary may not be negative."). A failing predicate is 1550 with the value, the predicate
/// under `NSValidationPredicateErrorKey` and the warning as `localizedDescription`.
@Suite struct ValidationPredicateTests {
    private func model() throws -> ManagedObjectModel {
        let name = AttributeDescription(name: "name", type: .string, isOptional: false)
        name.setValidationPredicates(
            [try FetchPredicate(format: "length >= 2")],
            withValidationWarnings: ["Name is too short."])
        return try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Employee",
                properties: [
                    name,
                    AttributeDescription(
                        name: "salary", type: .integer32,
                        validationPredicates: [try FetchPredicate(format: "SELF >= 0")],
                        validationWarnings: ["Salary may not be negative."]),
                ])
        ])
    }

    private func context(_ kind: StoreKind, _ model: ManagedObjectModel? = nil) throws
        -> ManagedObjectContext
    {
        let model = try model ?? self.model()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test(arguments: StoreKind.all)
    func aFailingPredicateIs1550WithItsWarningPredicateAndValue(_ kind: StoreKind) throws {
        let context = try context(kind)
        try context.performAndWait { () throws in
            let employee = context.insertNewObject(forEntityName: "Employee")
            employee.setValue("A", forKey: "name")
            for error in [
                expectNSError { try employee.validateForInsert() },
                expectNSError { try context.save() },
            ] {
                #expect(error?.domain == NSCocoaErrorDomain)
                #expect(error?.code == NSManagedObjectValidationError)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "name")
                #expect(error?.userInfo[NSValidationValueErrorKey] as? String == "A")
                #expect(error?.userInfo[NSValidationPredicateErrorKey] != nil)
                #expect(
                    error?.userInfo[NSValidationPredicateErrorKey] as? FetchPredicate
                        == (try? FetchPredicate(format: "length >= 2")))
                #expect(error?.localizedDescription == "Name is too short.")
                #expect(error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject === employee)
            }
            employee.setValue("Al", forKey: "name")
            try context.save()
        }
    }

    /// `testValidateValueForKeyDirectly` and `testMultipleValidationErrorsAreCombined`.
    @Test func validateValueAndSeveralFailures() throws {
        let context = try context(.inMemory)
        try context.performAndWait { () throws in
            let employee = context.insertNewObject(forEntityName: "Employee")
            employee.setValue("Alice", forKey: "name")
            let negative = expectNSError { try employee.validateValue(-5, forKey: "salary") }
            #expect(negative?.code == NSManagedObjectValidationError)
            #expect(negative?.localizedDescription == "Salary may not be negative.")
            try employee.validateValue(50, forKey: "salary")
            try employee.validateValue(nil, forKey: "salary")  // nil is not tested

            employee.setValue(nil, forKey: "name")
            employee.setValue(-1, forKey: "salary")
            let both = expectNSError { try employee.validateForInsert() }
            #expect(both?.code == NSValidationMultipleErrorsError)
            let codes = (both?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []).map(\.code)
            #expect(
                codes.sorted() == [
                    NSManagedObjectValidationError, NSValidationMissingMandatoryPropertyError,
                ])
        }
    }

    /// `length` is `NSString.length` (UTF-16 units); numbers, dates and data have their keys.
    @Test func valueKeysFollowFoundations() throws {
        func attribute(_ type: AttributeType, _ format: String) throws -> AttributeDescription {
            AttributeDescription(
                name: "v", type: type, validationPredicates: [try FetchPredicate(format: format)],
                validationWarnings: ["bad"])
        }
        let cases: [(AttributeType, String, Any, Bool)] = [
            (.string, "length == 2", "👍", true), (.string, "length == 2", "ab", true),
            (.string, "SELF BEGINSWITH 'x'", "xy", true),
            (.string, "SELF MATCHES '[a-z]+'", "A", false),
            (.binaryData, "length < 3", Data([1, 2, 3]), false),
            (.double, "doubleValue > 0.5", 0.75, true),
            (.boolean, "boolValue == YES", false, false),
            (
                .date, "timeIntervalSinceReferenceDate > 0",
                Date(timeIntervalSinceReferenceDate: 5), true
            ),
            (.decimal, "SELF BETWEEN {1, 2}", Decimal(string: "1.5")!, true),
        ]
        for (type, format, value, passes) in cases {
            let model = try ManagedObjectModel(entities: [
                EntityDescription(name: "T", properties: [try attribute(type, format)])
            ])
            let context = try context(.inMemory, model)
            try context.performAndWait { () throws in
                let object = context.insertNewObject(forEntityName: "T")
                let failed = (try? object.validateValue(value, forKey: "v")) == nil
                #expect(failed != passes, "\(format) on \(value)")
            }
        }
    }

    @Test func buildingTheModelChecksPredicatesAndWarnings() throws {
        func build(_ predicates: [FetchPredicate], _ warnings: [String]) throws {
            _ = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "T",
                    properties: [
                        AttributeDescription(
                            name: "v", type: .string, validationPredicates: predicates,
                            validationWarnings: warnings)
                    ])
            ])
        }
        let short = try FetchPredicate(format: "length >= 2")
        #expect(throws: ObjectGraphError.self) { try build([short], []) }
        #expect(throws: ObjectGraphError.self) {
            try build([try FetchPredicate(format: "name.length > 1")], ["x"])
        }
        #expect(throws: ObjectGraphError.self) {
            try build([try FetchPredicate(format: "SELF == $LIMIT")], ["x"])
        }
        try build([short], ["too short"])
    }

    /// The JSON model format keeps them as format strings, in order, with their warnings.
    @Test func theJSONModelFormatKeepsPredicatesAndWarnings() throws {
        let model = try model()
        let copy = try ManagedObjectModel(jsonData: model.jsonData())
        let name = try #require(copy.entitiesByName["Employee"]?.attributesByName["name"])
        #expect(name.validationPredicates == [try FetchPredicate(format: "length >= 2")])
        #expect(name.validationWarnings == ["Name is too short."])
        let text = String(decoding: model.jsonData(), as: UTF8.self)
        #expect(text.contains(#""validationPredicates":["length >= 2"]"#))
        #expect(text.contains(#""validationWarnings":["Name is too short."]"#))
        let bad = text.replacingOccurrences(of: "length >= 2", with: "length >=")
        #expect(throws: ObjectGraphError.self) {
            try ManagedObjectModel(jsonData: Data(bad.utf8))
        }
    }
}
