import Foundation
import ObjectGraph
import Testing

/// One attribute rule on one attribute type, with a passing value, a failing value and
/// the code the failure carries.
struct RuleCase: Sendable, CustomTestStringConvertible {
    let type: AttributeType
    let rule: String
    let good: AttributeValue
    let bad: AttributeValue
    let code: Int

    var testDescription: String { "\(rule) on \(type.rawValue)" }

    func attribute() -> AttributeDescription {
        switch rule {
        case "min": AttributeDescription(name: "a", type: type, minValue: bound(10))
        case "max": AttributeDescription(name: "a", type: type, maxValue: bound(20))
        case "minLength": AttributeDescription(name: "a", type: type, minLength: 2)
        case "maxLength": AttributeDescription(name: "a", type: type, maxLength: 4)
        case "pattern": AttributeDescription(name: "a", type: type, pattern: "[a-z]+")
        default: AttributeDescription(name: "a", type: type, isOptional: false)
        }
    }

    private func bound(_ n: Int64) -> AttributeValue {
        type == .date ? .date(Date(timeIntervalSince1970: Double(n))) : .integer(n)
    }

    static let numericTypes: [AttributeType] = [
        .integer16, .integer32, .integer64, .decimal, .double, .float,
    ]

    static func number(_ type: AttributeType, _ n: Int) -> AttributeValue {
        switch type {
        case .decimal: .decimal(Decimal(n))
        case .double: .double(Double(n))
        case .float: .float(Float(n))
        case .date: .date(Date(timeIntervalSince1970: Double(n)))
        default: .integer(Int64(n))
        }
    }

    static let all: [RuleCase] = {
        var cases: [RuleCase] = []
        for type in numericTypes + [.date] {
            let small =
                type == .date ? NSValidationDateTooSoonError : NSValidationNumberTooSmallError
            let large =
                type == .date ? NSValidationDateTooLateError : NSValidationNumberTooLargeError
            cases.append(
                RuleCase(
                    type: type, rule: "min", good: number(type, 10), bad: number(type, 9),
                    code: small))
            cases.append(
                RuleCase(
                    type: type, rule: "max", good: number(type, 20), bad: number(type, 21),
                    code: large))
        }
        cases.append(
            RuleCase(
                type: .string, rule: "minLength", good: "ab", bad: "a",
                code: NSValidationStringTooShortError))
        cases.append(
            RuleCase(
                type: .string, rule: "maxLength", good: "abcd", bad: "abcde",
                code: NSValidationStringTooLongError))
        cases.append(
            RuleCase(
                type: .string, rule: "pattern", good: "abc", bad: "abc1",
                code: NSValidationStringPatternMatchingError))
        let samples: [AttributeType: AttributeValue] = [
            .string: "s", .boolean: false, .binaryData: .data(Data([1])), .uuid: .uuid(UUID()),
            .uri: .uri(URL(string: "https://example.com")!),
            .transformable: .transformable(Data("{}".utf8)),
        ]
        for type in numericTypes + [.date] {
            cases.append(
                RuleCase(
                    type: type, rule: "mandatory", good: number(type, 0), bad: .null,
                    code: NSValidationMissingMandatoryPropertyError))
        }
        for (type, sample) in samples.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            cases.append(
                RuleCase(
                    type: type, rule: "mandatory", good: sample, bad: .null,
                    code: NSValidationMissingMandatoryPropertyError))
        }
        return cases
    }()
}

extension SaveIntegrity {
    @Suite struct ValidationRuleTests {
        @Test(arguments: RuleCase.all, StoreKind.all)
        func eachRuleOnEachTypeFailsTheSaveWithItsCodeAndPassesAtTheBound(
            _ rule: RuleCase, _ kind: StoreKind
        ) throws {
            let stack = try Stack(IntegrityModels.single(rule.attribute()), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let v = context.insertNewObject(forEntityName: "V")
                v.setAttributeValue(rule.bad, forKey: "a")
                let error = expectNSError { try context.save() }
                #expect(error?.code == rule.code)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "a")
                #expect((error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === v)
                let text = error?.localizedDescription ?? ""
                #expect(text.hasPrefix("V.a "))
                #expect(throws: (any Error).self) {
                    try v.validateValue(v.value(forKey: "a"), forKey: "a")
                }
                v.setAttributeValue(rule.good, forKey: "a")
                try v.validateValue(v.value(forKey: "a"), forKey: "a")
                try context.save()
            }
            #expect(try stack.rows("V").map { $0["a"]?.attributeValue } == [rule.good])
        }

        @Test func validateValueChecksRelationshipRulesAndTypes() throws {
            let model = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Team",
                    properties: [
                        RelationshipDescription(
                            name: "players", destination: "Player", inverse: "team", isToMany: true,
                            minCount: 2, maxCount: 3),
                        AttributeDescription(name: "size", type: .integer16),
                    ]),
                EntityDescription(
                    name: "Player",
                    properties: [
                        RelationshipDescription(
                            name: "team", destination: "Team", inverse: "players", isOptional: false
                        )
                    ]),
            ])
            let stack = try Stack(model, on: .inMemory)
            let context = stack.context()
            context.performAndWait {
                let team = context.insertNewObject(forEntityName: "Team")
                let players = (0..<4).map { _ in context.insertNewObject(forEntityName: "Player") }
                #expect(
                    expectNSError {
                        try team.validateValue(Set(players.prefix(1)), forKey: "players")
                    }?.code
                        == NSValidationRelationshipLacksMinimumCountError)
                #expect(
                    expectNSError { try team.validateValue(players, forKey: "players") }?.code
                        == NSValidationRelationshipExceedsMaximumCountError)
                #expect(throws: Never.self) {
                    try team.validateValue(Array(players.prefix(2)), forKey: "players")
                }
                #expect(
                    expectNSError { try players[0].validateValue(nil, forKey: "team") }?.code
                        == NSValidationMissingMandatoryPropertyError)
                #expect(throws: Never.self) { try players[0].validateValue(team, forKey: "team") }
                #expect(
                    expectNSError { try players[0].validateValue("a team", forKey: "team") }?.code
                        == NSManagedObjectValidationError)
                #expect(
                    expectNSError { try team.validateValue("big", forKey: "size") }?.code
                        == NSManagedObjectValidationError)
                #expect(team.value(forKey: "players") as? Set<ManagedObject> == [])
            }
        }

        @Test func toManyCountRulesFailTheSave() throws {
            let model = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Team",
                    properties: [
                        RelationshipDescription(
                            name: "players", destination: "Player", inverse: "team", isToMany: true,
                            minCount: 2, maxCount: 3)
                    ]),
                EntityDescription(
                    name: "Player",
                    properties: [
                        RelationshipDescription(
                            name: "team", destination: "Team", inverse: "players")
                    ]),
            ])
            let stack = try Stack(model, on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let team = context.insertNewObject(forEntityName: "Team")
                let players = (0..<4).map { _ in context.insertNewObject(forEntityName: "Player") }
                team.setValue(Set(players.prefix(1)), forKey: "players")
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSValidationRelationshipLacksMinimumCountError)
                team.setValue(Set(players), forKey: "players")
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSValidationRelationshipExceedsMaximumCountError)
                team.setValue(Set(players.prefix(3)), forKey: "players")
                try context.save()
            }
        }

        /// B15: several problems are reported together; fixing all but one leaves that one alone.
        @Test(arguments: StoreKind.all)
        func severalFailuresComeTogetherAsOne1560AndASingleOneComesAlone(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.parcels(), on: kind)
            let context = stack.context()
            context.performAndWait {
                let x = context.insertNewObject(forEntityName: "Parcel")
                x.setValue("ok", forKey: "name")
                x.setValue("TOOLONG1", forKey: "code")
                let y = context.insertNewObject(forEntityName: "Parcel")
                y.setValue("y", forKey: "slug")
                y.setValue("ok", forKey: "code")
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                #expect(
                    details(error) == ["Parcel.slug:1570", "Parcel.code:1660", "Parcel.name:1570"])
                let list = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                let objects = list.map { $0.userInfo[NSValidationObjectErrorKey] as? ManagedObject }
                #expect(objects.filter { $0 === x }.count == 2)
                #expect(objects.filter { $0 === y }.count == 1)
                #expect(
                    list.first { $0.code == 1660 }?.userInfo[NSValidationValueErrorKey] as? String
                        == "TOOLONG1")
                x.setValue("x", forKey: "slug")
                x.setValue("SHORT", forKey: "code")
                let single = expectNSError { try context.save() }
                #expect(single?.code == NSValidationMissingMandatoryPropertyError)
                #expect((single?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === y)
                #expect(single?.userInfo[NSValidationKeyErrorKey] as? String == "name")
                #expect(single?.userInfo[NSDetailedErrorsKey] == nil)
            }
            #expect(try stack.rows("Parcel").isEmpty)
        }

        /// B14: inverse maintenance on assignment invalidates the older object; the error names it.
        @Test(arguments: StoreKind.all)
        func aWrongInverseCardinalityInvalidatesTheOlderObject(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.orders(fixed: false), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let c = context.insertNewObject(forEntityName: "Customer")
                let o1 = context.insertNewObject(forEntityName: "Order")
                o1.setValue(c, forKey: "customer")
                try context.save()
                let o2 = context.insertNewObject(forEntityName: "Order")
                o2.setValue(c, forKey: "customer")
                #expect(c.value(forKey: "order") as? ManagedObject === o2)
                #expect(o1.value(forKey: "customer") == nil)
                #expect(context.updatedObjects.contains(o1))
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMissingMandatoryPropertyError)
                #expect((error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === o1)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "customer")
            }
            let fixed = try Stack(IntegrityModels.orders(fixed: true), on: kind)
            let other = fixed.context()
            try other.performAndWait {
                let c = other.insertNewObject(forEntityName: "Customer")
                let o1 = other.insertNewObject(forEntityName: "Order")
                o1.setValue(c, forKey: "customer")
                try other.save()
                let o2 = other.insertNewObject(forEntityName: "Order")
                o2.setValue(c, forKey: "customer")
                try other.save()
                #expect(c.value(forKey: "orders") as? Set<ManagedObject> == [o1, o2])
            }
        }
    }
}
