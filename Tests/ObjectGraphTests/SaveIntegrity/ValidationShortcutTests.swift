import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// A class that declares the one key its per-key hook checks (`validatedKeys`).
    final class Ticket: ManagedObject {
        @Attribute var code: String?
        @Attribute var seat: String?
        @Relationship var holder: Holder?
        /// The keys the per-key hook was asked about at save, in order.
        var hookKeys: [String] = []

        override class var validatedKeys: Set<String>? { ["code"] }

        override func validate(_ value: Any?, forKey key: String) throws {
            hookKeys.append(key)
            if key == "code", let code = value as? String, code.hasPrefix("X") {
                throw TripRuleError(code: 7)
            }
            try super.validate(value, forKey: key)
        }
    }

    /// The to-one's other side, with a count rule on `tickets`; overrides no hook.
    final class Holder: ManagedObject {
        @Attribute var name: String?
        @Relationship var tickets: Set<Ticket>
    }

    /// A class that declares no hooked keys, so a save runs the model's rules alone.
    final class Quiet: ManagedObject {
        override class var validatedKeys: Set<String>? { [] }
    }

    /// The same entity shape as ``Quiet`` with the default (the hook for every key): its
    /// hook passes every value on, so the save takes the full pass (a class that overrides
    /// no hook takes the rules-only pass, as ``Quiet`` does).
    final class Chatty: ManagedObject {
        override func validate(_ value: Any?, forKey key: String) throws {
            try super.validate(value, forKey: key)
        }
    }

    /// Two entities of the same shape, `Quiet` and `Chatty`, each with rules on attributes
    /// and relationships interleaved in slot order (`owner` comes between attributes).
    static func twins() throws -> ManagedObjectModel {
        func properties(_ me: String) -> [PropertyDescription] {
            [
                A(name: "label", type: .string, isOptional: false, minLength: 2),
                R(
                    name: "owner", destination: "Owner",
                    inverse: me == "Quiet" ? "quiet" : "chatty",
                    isOptional: false),
                A(name: "amount", type: .decimal, minValue: .decimal(Decimal(string: "0.01")!)),
                A(name: "note", type: .string),
                R(name: "parts", destination: me, inverse: "whole", isToMany: true, maxCount: 1),
                R(name: "whole", destination: me, inverse: "parts"),
                A(name: "kind", type: .string, pattern: "^(in|out)$"),
            ]
        }
        return try ManagedObjectModel(entities: [
            E(name: "Quiet", managedObjectClass: Quiet.self, properties: properties("Quiet")),
            E(name: "Chatty", managedObjectClass: Chatty.self, properties: properties("Chatty")),
            E(
                name: "Owner",
                properties: [
                    R(name: "quiet", destination: "Quiet", inverse: "owner", isToMany: true),
                    R(name: "chatty", destination: "Chatty", inverse: "owner", isToMany: true),
                ]),
        ])
    }

    /// `Ticket(code pattern ^[A-Z]{2}[0-9]$, seat max 3)` and `Holder(name)`, plus the same
    /// rules on a class-less entity `Plain`.
    static func tickets() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Ticket", managedObjectClass: Ticket.self,
                properties: [
                    A(name: "code", type: .string, pattern: "^[A-Z]{2}[0-9]$"),
                    A(name: "seat", type: .string, maxLength: 3),
                    R(name: "holder", destination: "Holder", inverse: "tickets"),
                ]),
            E(
                name: "Holder", managedObjectClass: Holder.self,
                properties: [
                    A(name: "name", type: .string, isOptional: false),
                    R(
                        name: "tickets", destination: "Ticket", inverse: "holder", isToMany: true,
                        minCount: 0,
                        maxCount: 2),
                ]),
            E(
                name: "Plain",
                properties: [
                    A(name: "kind", type: .string, pattern: "^(K|L)$")
                ]),
        ])
    }
}

extension SaveIntegrity {
    /// The save's shortcuts in validation: the per-key hook only for declared keys, and the
    /// remembered pattern answers. Every model rule still runs on every property.
    @Suite struct ValidationShortcutTests {
        typealias Ticket = IntegrityModels.Ticket
        typealias Holder = IntegrityModels.Holder

        @Test func aClassThatDeclaresItsKeysHasTheHookCalledForThoseAloneAndItStillRejects() throws
        {
            let stack = try Stack(IntegrityModels.tickets(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let ticket = Ticket(context: context)
                ticket.code = "XB1"
                let error = expectNSError { try context.save() }
                #expect(error?.domain == "TripRules")
                #expect(error?.code == 7)
                #expect(ticket.hookKeys == ["code"])
                ticket.hookKeys = []
                ticket.code = "AB1"
                try context.save()
                #expect(ticket.hookKeys == ["code"])
                // validateValue(_:forKey:) still asks the hook about any key.
                ticket.hookKeys = []
                try ticket.validateValue("A1", forKey: "seat")
                #expect(ticket.hookKeys == ["seat"])
            }
        }

        @Test func theModelRulesStillRunOnKeysTheHookSkips() throws {
            let stack = try Stack(IntegrityModels.tickets(), on: .inMemory)
            let context = stack.context()
            context.performAndWait {
                let ticket = Ticket(context: context)
                ticket.code = "AB1"
                ticket.seat = "A1234"
                let holder = Holder(context: context)
                for _ in 0..<3 { Ticket(context: context).holder = holder }
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                let codes = Set(
                    (error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []).map(\.code))
                // seat too long, Holder.name missing, Holder.tickets too many.
                #expect(
                    codes == [
                        NSValidationStringTooLongError, NSValidationMissingMandatoryPropertyError,
                        NSValidationRelationshipExceedsMaximumCountError,
                    ])
            }
        }

        @Test func theRulesAloneGiveTheSameErrorsInTheSameOrderAsTheFullPass() throws {
            let stack = try Stack(IntegrityModels.twins(), on: .inMemory)
            let context = stack.context()
            func failures(_ entity: String, _ setUp: (ManagedObject, ManagedObjectContext) -> Void)
                -> [String]
            {
                context.performAndWait {
                    context.rollback()
                    let object = context.insertNewObject(forEntityName: entity)
                    setUp(object, context)
                    let error = expectNSError { try context.save() }
                    let list =
                        error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? error.map { [$0] }
                        ?? []
                    return list.map {
                        "\($0.code) \($0.userInfo[NSValidationKeyErrorKey] as? String ?? "")"
                    }
                }
            }
            let cases: [(ManagedObject, ManagedObjectContext) -> Void] = [
                { object, _ in
                    object.setValue("x", forKey: "label")
                    object.setValue(Decimal(string: "0.001")!, forKey: "amount")
                    object.setValue("up", forKey: "kind")
                },
                { object, context in
                    object.setValue("ok", forKey: "label")
                    object.setValue(
                        context.insertNewObject(forEntityName: "Owner"), forKey: "owner")
                    object.setValue(Decimal(string: "1E+2")!, forKey: "amount")
                    object.setValue("out", forKey: "kind")
                    let parts = (0..<2).map { _ in
                        let part = context.insertNewObject(forEntityName: object.entity.name)
                        part.setValue("pp", forKey: "label")
                        part.setValue(object.value(forKey: "owner"), forKey: "owner")
                        return part
                    }
                    object.setValue(Set(parts), forKey: "parts")
                },
            ]
            let expected = [
                ["1670 label", "1570 owner", "1620 amount", "1680 kind"],
                ["1590 parts"],
            ]
            for (setUp, wanted) in zip(cases, expected) {
                let quiet = failures("Quiet", setUp)
                #expect(quiet == failures("Chatty", setUp))
                #expect(quiet == wanted)
            }
        }

        @Test func aClassThatDeclaresNothingHasTheHookCalledForEveryKey() throws {
            let stack = try Stack(IntegrityModels.trips(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let trip = IntegrityModels.Trip(context: context)
                trip.title = "Oslo"
                try context.save()
                #expect(Set(trip.hookKeys) == ["title", "start", "end", "locked", "stops"])
            }
        }

        @Test func aChildSaveAndItsParentSaveBothAskTheDeclaredHook() throws {
            let stack = try Stack(IntegrityModels.tickets(), on: .inMemory)
            let root = stack.context()
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = root
            let id = try child.performAndWait {
                let ticket = Ticket(context: child)
                ticket.code = "AB1"
                try child.save()
                #expect(ticket.hookKeys == ["code"])
                return ticket.objectID
            }
            try root.performAndWait {
                let ticket = try #require(root.registeredObject(for: id) as? Ticket)
                try root.save()
                #expect(ticket.hookKeys == ["code"])
            }
        }

        @Test func aPatternAnswersTheSameForARepeatedValueAndNeverForAnEquivalentOne() throws {
            let stack = try Stack(IntegrityModels.tickets(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                for _ in 0..<3 {
                    context.insertNewObject(forEntityName: "Plain").setValue("K", forKey: "kind")
                }
                try context.save()
                // U+212A KELVIN SIGN equals "K" as a Swift string, but the pattern's K is
                // the letter: the remembered answer for "K" must not be reused.
                let kelvin = context.insertNewObject(forEntityName: "Plain")
                kelvin.setValue("\u{212A}", forKey: "kind")
                #expect("\u{212A}" == "K")
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSValidationStringPatternMatchingError)
                kelvin.setValue("M", forKey: "kind")
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSValidationStringPatternMatchingError)
                kelvin.setValue("L", forKey: "kind")
                try context.save()
            }
            #expect(try stack.rows("Plain").count == 4)
        }

        @Test func manyDistinctValuesAreEachCheckedBeyondTheMemory() throws {
            let stack = try Stack(IntegrityModels.tickets(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                // More distinct codes than a pattern remembers, then a bad one.
                for i in 0..<1_300 {
                    let ticket = Ticket(context: context)
                    let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWYZ")
                    ticket.code = "\(letters[i % 25])\(letters[(i / 25) % 25])\(i % 10)"
                }
                try context.save()
                Ticket(context: context).code = "ab1"
                #expect(
                    expectNSError { try context.save() }?.code
                        == NSValidationStringPatternMatchingError)
            }
        }
    }
}
