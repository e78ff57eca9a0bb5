import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// A class whose per-key hook records every call (key and value) and throws
    /// `TripRuleError(code: 9)` for the value `"bad"` of any key.
    class HookRecorder: ManagedObject {
        /// The hook's calls, in order.
        var seen: [(key: String, value: Any?)] = []

        override func validate(_ value: Any?, forKey key: String) throws {
            seen.append((key, value))
            if let text = value as? String, text == "bad" { throw TripRuleError(code: 9) }
            try super.validate(value, forKey: key)
        }
    }

    /// Every attribute type, an optional left nil, a to-one and two to-manys; the default
    /// `validatedKeys` (the hook for every key).
    class Specimen: HookRecorder {}

    /// A subentity's class that declares its hooked keys: one inherited, one its own.
    final class Fossil: Specimen {
        override class var validatedKeys: Set<String>? { ["labels", "era"] }
    }

    final class Keeper: HookRecorder {}

    /// `Specimen` (every attribute type; `keeper` mandatory; `labels` and the ordered `steps`,
    /// both derived from `Label`'s to-ones, whose delete rule is `noAction`), its subentity
    /// `Fossil` (`era`), `Keeper` and a class-less `Label` (`name` mandatory).
    static func specimens() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Specimen", managedObjectClass: Specimen.self,
                properties: [
                    A(name: "name", type: .string, maxLength: 8),
                    A(name: "small", type: .integer16),
                    A(name: "medium", type: .integer32),
                    A(name: "large", type: .integer64, isOptional: false),
                    A(name: "exact", type: .decimal),
                    A(name: "ratio", type: .double, minValue: .double(0)),
                    A(name: "half", type: .float),
                    A(name: "flag", type: .boolean),
                    A(name: "found", type: .date),
                    A(name: "blob", type: .binaryData),
                    A(name: "code", type: .uuid),
                    A(name: "link", type: .uri),
                    A(
                        name: "extra", type: .transformable,
                        defaultValue: .transformable(Data("{\"k\":1}".utf8))),
                    A(name: "blank", type: .string),
                    R(
                        name: "keeper", destination: "Keeper", inverse: "specimens",
                        isOptional: false),
                    R(name: "labels", destination: "Label", inverse: "specimen", isToMany: true),
                    R(
                        name: "steps", destination: "Label", inverse: "stepOf", isToMany: true,
                        isOrdered: true),
                ]),
            E(
                name: "Fossil", managedObjectClass: Fossil.self, superentityName: "Specimen",
                properties: [A(name: "era", type: .string)]),
            E(
                name: "Keeper", managedObjectClass: Keeper.self,
                properties: [
                    A(name: "name", type: .string),
                    R(
                        name: "specimens", destination: "Specimen", inverse: "keeper",
                        isToMany: true),
                ]),
            E(
                name: "Label",
                properties: [
                    A(name: "name", type: .string, isOptional: false),
                    R(
                        name: "specimen", destination: "Specimen", inverse: "labels",
                        deleteRule: .noAction),
                    R(
                        name: "stepOf", destination: "Specimen", inverse: "steps",
                        deleteRule: .noAction),
                ]),
        ])
    }
}

extension SaveIntegrity {
    /// What the per-key hook receives at save, value by value: the values of every attribute
    /// type as `value(forKey:)` gives them, nil for an optional left unset, a to-one's object,
    /// a to-many's live members (a `Set`, or an array for an ordered one), only the keys a
    /// class declares (keys longer than a small string too), and the hook's and the rules'
    /// errors combined as Core Data combines them (Apple's documentation of
    /// `NSManagedObject.validateForUpdate()`: every property validated in turn, several errors
    /// under `NSDetailedErrorsKey` of one 1560).
    @Suite struct ValidationHookValuesTests {
        typealias Specimen = IntegrityModels.Specimen
        typealias Fossil = IntegrityModels.Fossil
        typealias Keeper = IntegrityModels.Keeper

        static let found = Date(timeIntervalSince1970: 1_700_000_000)
        static let code = UUID(uuidString: "6F1C2A9E-3B7D-4C11-9E5A-0D2B8F4A7C63")!

        /// The hook's calls as `key=Type(value)`; objects by their `name`, a set's sorted.
        static func described(_ seen: [(key: String, value: Any?)]) -> [String] {
            seen.map { "\($0.key)=\(describe($0.value))" }
        }

        static func describe(_ value: Any?) -> String {
            func name(_ object: ManagedObject) -> String {
                object.value(forKey: "name") as? String ?? "?"
            }
            guard let value else { return "nil" }
            switch value {
            case let set as Set<ManagedObject>:
                return "Set(\(set.map(name).sorted().joined(separator: ",")))"
            case let array as [ManagedObject]:
                return "Array(\(array.map(name).joined(separator: ",")))"
            case let object as ManagedObject:
                return "Object(\(name(object)))"
            default:
                return "\(type(of: value))(\(value))"
            }
        }

        func label(_ context: ManagedObjectContext, _ name: String) -> ManagedObject {
            let label = context.insertNewObject(forEntityName: "Label")
            label.setValue(name, forKey: "name")
            return label
        }

        /// A specimen with every attribute set but `blank`, kept by `keeper`, labelled with
        /// `labels`, and `steps` in that order.
        func specimen(
            _ context: ManagedObjectContext, _ name: String, keeper: Keeper?,
            labels: [ManagedObject], steps: [ManagedObject], fossil: Bool = false
        ) -> Specimen {
            let object: Specimen = fossil ? Fossil(context: context) : Specimen(context: context)
            object.setValue(name, forKey: "name")
            object.setValue(Int16(-7), forKey: "small")
            object.setValue(Int32(70_000), forKey: "medium")
            object.setValue(Int64(1) << 40, forKey: "large")
            object.setValue(Decimal(string: "12.345")!, forKey: "exact")
            object.setValue(2.5, forKey: "ratio")
            object.setValue(Float(0.25), forKey: "half")
            object.setValue(true, forKey: "flag")
            object.setValue(Self.found, forKey: "found")
            object.setValue(Data([1, 2, 3]), forKey: "blob")
            object.setValue(Self.code, forKey: "code")
            object.setValue(URL(string: "https://example.com/a")!, forKey: "link")
            object.setValue(keeper, forKey: "keeper")
            object.setValue(Set(labels), forKey: "labels")
            object.setValue(steps, forKey: "steps")
            return object
        }

        /// The attribute calls of a specimen made by ``specimen(_:_:keeper:labels:steps:fossil:)``.
        /// `half`: the description of `half`'s value (`nil` once it is set to nil).
        static func attributeCalls(_ name: String, half: String? = "Float(0.25)") -> [String] {
            [
                "name=String(\(name))", "small=Int16(-7)", "medium=Int32(70000)",
                "large=Int64(1099511627776)", "exact=Decimal(12.345)", "ratio=Double(2.5)",
                "half=\(half ?? "nil")", "flag=Bool(true)", "found=Date(\(found))",
                "blob=Data(3 bytes)", "code=UUID(\(code))", "link=URL(https://example.com/a)",
                "extra=Data(7 bytes)", "blank=nil",
            ]
        }

        @Test(arguments: StoreKind.all)
        func anInsertAsksTheHookAboutEveryKeyWithItsValue(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.specimens(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let keeper = Keeper(context: context)
                keeper.setValue("K1", forKey: "name")
                let (l1, l2, l3) = (
                    label(context, "L1"), label(context, "L2"), label(context, "L3")
                )
                let s = specimen(context, "S1", keeper: keeper, labels: [l1, l2], steps: [l2, l1])
                let f = specimen(
                    context, "F1", keeper: keeper, labels: [l3], steps: [l3], fossil: true)
                f.setValue("Jurassic", forKey: "era")
                try context.save()
                #expect(
                    Self.described(s.seen)
                        == Self.attributeCalls("S1") + [
                            "keeper=Object(K1)", "labels=Set(L1,L2)", "steps=Array(L2,L1)",
                        ])
                // The subclass's declared keys alone, in slot order (the inherited one first).
                #expect(Self.described(f.seen) == ["labels=Set(L3)", "era=String(Jurassic)"])
                #expect(
                    Self.described(keeper.seen) == ["name=String(K1)", "specimens=Set(F1,S1)"])
            }
        }

        @Test(arguments: StoreKind.all)
        func anUpdateAsksAboutItsChangedToManysLiveMembersAndSkipsUnloadedOnes(
            _ kind: StoreKind
        ) throws {
            let stack = try Stack(IntegrityModels.specimens(), on: kind)
            let context = stack.context()
            let id = try context.performAndWait {
                let keeper = Keeper(context: context)
                keeper.setValue("K1", forKey: "name")
                let (l1, l2, l3) = (
                    label(context, "L1"), label(context, "L2"), label(context, "L3")
                )
                let s = specimen(
                    context, "S1", keeper: keeper, labels: [l1, l2, l3], steps: [l2, l1])
                try context.save()
                s.seen = []
                keeper.seen = []
                // In the same save: one member removed, one added, one deleted (`noAction`
                // leaves it listed; the hook sees the live members), an attribute set to nil.
                // (The ordered `steps` is stored in the row: a deleted member left in it would
                // be a dangling reference, so only `labels` keeps one.)
                s.remove(l1, fromRelationship: "labels")
                s.add(label(context, "L4"), toRelationship: "labels")
                context.delete(l3)
                s.setValue(nil, forKey: "half")
                try context.save()
                #expect(
                    Self.described(s.seen)
                        == Self.attributeCalls("S1", half: nil) + [
                            "keeper=Object(K1)", "labels=Set(L2,L4)", "steps=Array(L2,L1)",
                        ])
                // Not changed: not validated, so not asked.
                #expect(keeper.seen.isEmpty)
                return s.objectID
            }
            // In a fresh context `labels` (derived from its members' to-ones) is a
            // relationship fault, unchanged and without rules: not loaded for the hook, so not
            // asked about. The ordered `steps`, stored in the row, came loaded with it.
            let fresh = stack.context()
            try fresh.performAndWait {
                let s = try #require(try fresh.existingObject(with: id) as? Specimen)
                s.setValue("S2", forKey: "name")
                try fresh.save()
                #expect(
                    Self.described(s.seen)
                        == Self.attributeCalls("S2", half: nil) + [
                            "keeper=Object(K1)", "steps=Array(L2,L1)",
                        ])
            }
        }

        @Test(arguments: StoreKind.all)
        func theHooksAndTheRulesErrorsAreCombinedAsBefore(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.specimens(), on: kind)
            let context = stack.context()
            context.performAndWait {
                // One object, three failures in slot order: the hook's own error for `name`,
                // `ratio` below its minimum (1620), `keeper` missing (1570).
                let s = specimen(context, "bad", keeper: nil, labels: [], steps: [])
                s.setValue(-1.0, forKey: "ratio")
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                let list = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                #expect(
                    list.map(\.domain) == ["TripRules", NSCocoaErrorDomain, NSCocoaErrorDomain])
                #expect(
                    list.map(\.code)
                        == [
                            9, NSValidationNumberTooSmallError,
                            NSValidationMissingMandatoryPropertyError,
                        ])
                #expect(
                    list.dropFirst().map { $0.userInfo[NSValidationKeyErrorKey] as? String }
                        == ["ratio", "keeper"])
                // The rules' failures are not handed to the hook; the others are.
                #expect(!s.seen.contains { $0.key == "ratio" || $0.key == "keeper" })
                #expect(s.seen.contains { $0.key == "name" })
                context.rollback()

                // Two objects, one failure each (the declared key of a subclass, the mandatory
                // name of a class-less object): one 1560 listing both.
                let keeper = Keeper(context: context)
                keeper.setValue("K1", forKey: "name")
                let f = specimen(context, "F1", keeper: keeper, labels: [], steps: [], fossil: true)
                f.setValue("bad", forKey: "era")
                context.insertNewObject(forEntityName: "Label")
                let both = expectNSError { try context.save() }
                #expect(both?.code == NSValidationMultipleErrorsError)
                let entries = (both?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [])
                    .map { "\($0.domain) \($0.code)" }
                #expect(
                    entries.sorted()
                        == [
                            "NSCocoaErrorDomain \(NSValidationMissingMandatoryPropertyError)",
                            "TripRules 9",
                        ])
                // A single failure alone is itself, not a 1560.
                f.setValue("Eocene", forKey: "era")
                let single = expectNSError { try context.save() }
                #expect(single?.code == NSValidationMissingMandatoryPropertyError)
                #expect(single?.userInfo[NSValidationKeyErrorKey] as? String == "name")
            }
            #expect(try stack.allRows().isEmpty)
        }
    }
}
