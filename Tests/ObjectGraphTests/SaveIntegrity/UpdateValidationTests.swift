import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// A class that declares no hooked keys (the default: the hook for every property) and
    /// records what its hook is asked about.
    final class Gauge: ManagedObject {
        @Attribute var label: String?
        @Attribute var reading: Int64
        @Attribute var code: String?
        @Relationship var panel: Panel?
        /// The keys the per-key hook was asked about at save, in order.
        var hookKeys: [String] = []

        override func validate(_ value: Any?, forKey key: String) throws {
            hookKeys.append(key)
            try super.validate(value, forKey: key)
        }
    }

    /// The to-one's destination; overrides nothing.
    final class Panel: ManagedObject {
        @Relationship var gauges: Set<Gauge>
    }

    /// `Gauge(label?, reading ≤ 10, code (mandatory, no other rule), panel?)` ⟷
    /// `Panel(gauges)`.
    static func gauges() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Gauge", managedObjectClass: Gauge.self,
                properties: [
                    A(name: "label", type: .string),
                    A(
                        name: "reading", type: .integer64, isOptional: false,
                        maxValue: .integer(10)),
                    A(name: "code", type: .string, isOptional: false),
                    R(name: "panel", destination: "Panel", inverse: "gauges"),
                ]),
            E(
                name: "Panel", managedObjectClass: Panel.self,
                properties: [
                    R(name: "gauges", destination: "Gauge", inverse: "panel", isToMany: true)
                ]),
        ])
    }
}

extension SaveIntegrity {
    /// What validating an updated object covers: every property, changed or not.
    @Suite struct UpdateValidationTests {
        typealias Gauge = IntegrityModels.Gauge

        /// Core Data's `validateForUpdate()` "iterates through all of the receiver's
        /// properties validating each in turn" (Apple's documentation of
        /// `NSManagedObject.validateForUpdate()`), not only the changed ones: a stored value
        /// that breaks a rule (here written by a batch update, which validates nothing, as in
        /// Core Data) fails the save of an object that changed another property, with the
        /// rule's own error, and the hook is asked about every other property.
        @Test(arguments: StoreKind.all)
        func anUpdateFailsOnARuleOfAPropertyItDidNotChange(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.gauges(), on: kind)
            let context = stack.context()
            let id = try context.performAndWait {
                let gauge = Gauge(context: context)
                gauge.label = "a"
                gauge.reading = 5
                gauge.code = "x"
                try context.save()
                return gauge.objectID
            }
            let update = BatchUpdateRequest(entityName: "Gauge")
            update.propertiesToUpdate = ["reading": Int64(50)]
            _ = try context.performAndWait { try context.execute(update) }
            let fresh = stack.context()
            try fresh.performAndWait {
                let gauge = try #require(try fresh.existingObject(with: id) as? Gauge)
                gauge.label = "b"
                let error = expectNSError { try fresh.save() }
                #expect(error?.code == NSValidationNumberTooLargeError)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "reading")
                #expect(gauge.hookKeys == ["label", "code", "panel"])
                gauge.hookKeys = []
                gauge.reading = 7
                try fresh.save()
                #expect(gauge.hookKeys == ["label", "reading", "code", "panel"])
            }
            #expect(try stack.rows("Gauge").first?["reading"] == .attribute(.integer(7)))
        }

        /// An attribute whose only rule is "not nil" is checked without the general rules: a
        /// nil one still fails with 1570 naming it (and its hook is not asked), a set one
        /// passes to the hook; an attribute with a limit beside it is still checked in full.
        @Test func aMandatoryAttributeWithNoOtherRuleFailsWhenNilAndPassesWhenSet() throws {
            let stack = try Stack(IntegrityModels.gauges(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let gauge = Gauge(context: context)
                gauge.reading = 11
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                let details = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                #expect(
                    details.map(\.code) == [
                        NSValidationNumberTooLargeError, NSValidationMissingMandatoryPropertyError,
                    ])
                #expect(
                    details.map { $0.userInfo[NSValidationKeyErrorKey] as? String }
                        == ["reading", "code"])
                #expect(gauge.hookKeys == ["label", "panel"])
                gauge.hookKeys = []
                gauge.reading = 10
                gauge.code = "z"
                try context.save()
                #expect(gauge.hookKeys == ["label", "reading", "code", "panel"])
            }
        }
    }
}
