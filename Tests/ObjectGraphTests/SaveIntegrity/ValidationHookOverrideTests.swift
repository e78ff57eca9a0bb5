import Foundation
import Testing

@testable import ObjectGraph

extension SaveIntegrity {
    /// Whether a class overrides the per-key hook, read from its vtable
    /// (`ValidationHookOverride`): a save skips the hook of a class that does not, and calls
    /// that of a class that does, or whose superclass does, for every key.
    @Suite struct ValidationHookOverrideTests {
        /// Keys the hooks below were called with, per object.
        final class HookLog {
            var keys: [String] = []
        }

        /// Overrides nothing.
        final class Silent: ManagedObject {}

        /// Overrides the hook, logging each key.
        class Logging: ManagedObject {
            let log = HookLog()
            override func validate(_ value: Any?, forKey key: String) throws {
                log.keys.append(key)
                try super.validate(value, forKey: key)
            }
        }

        /// Inherits `Logging`'s hook.
        final class InheritsLogging: Logging {}

        /// Declares keys but overrides no hook.
        final class DeclaresOnly: ManagedObject {
            override class var validatedKeys: Set<String>? { ["name"] }
        }

        /// What `GenericLogging`'s hook throws.
        struct GenericHookError: Error {}

        /// A generic class that overrides the hook, and one that does not.
        final class GenericLogging<T>: ManagedObject {
            override func validate(_ value: Any?, forKey key: String) throws {
                throw GenericHookError()
            }
        }
        final class GenericSilent<T>: ManagedObject {}

        /// A class whose hook does nothing either, but is its own.
        final class EmptyOverride: ManagedObject {
            override func validate(_ value: Any?, forKey key: String) throws {}
        }

        @Test func theHooksEntryIsFoundWithoutObjectiveCInteroperability() {
            #if canImport(ObjectiveC)
                #expect(ValidationHookOverride.entryOffset == nil)
            #else
                #expect(ValidationHookOverride.entryOffset != nil)
            #endif
        }

        @Test func aClassIsToldToOverrideTheHookOnlyWhenItOrASuperclassDoes() {
            #if !canImport(ObjectiveC)
                #expect(!ValidationHookOverride.isOverridden(by: ManagedObject.self))
                #expect(!ValidationHookOverride.isOverridden(by: Silent.self))
                #expect(!ValidationHookOverride.isOverridden(by: DeclaresOnly.self))
                #expect(!ValidationHookOverride.isOverridden(by: GenericSilent<Int>.self))
                #expect(!ValidationHookOverride.isOverridden(by: GenericSilent<String>.self))
            #endif
            #expect(ValidationHookOverride.isOverridden(by: Logging.self))
            #expect(ValidationHookOverride.isOverridden(by: InheritsLogging.self))
            #expect(ValidationHookOverride.isOverridden(by: GenericLogging<Int>.self))
            #expect(ValidationHookOverride.isOverridden(by: EmptyOverride.self))
        }

        @Test func aClassThatOverridesNoHookAsksForNoKeyWhateverItDeclares() {
            #if !canImport(ObjectiveC)
                #expect(ValidationHookOverride.hookedKeys(of: Silent.self) == [])
                #expect(ValidationHookOverride.hookedKeys(of: DeclaresOnly.self) == [])
            #endif
            #expect(ValidationHookOverride.hookedKeys(of: Logging.self) == nil)
        }

        /// `Item(name, mandatory; tags: to-many with at most one member)` of class
        /// `itemClass` ⟷ `Tag(label)` with the to-one `item`.
        static func model(_ itemClass: ManagedObject.Type) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Item", managedObjectClass: itemClass,
                    properties: [
                        AttributeDescription(name: "name", type: .string, isOptional: false),
                        RelationshipDescription(
                            name: "tags", destination: "Tag", inverse: "item", isToMany: true,
                            maxCount: 1),
                    ]),
                EntityDescription(
                    name: "Tag",
                    properties: [
                        AttributeDescription(name: "label", type: .string),
                        RelationshipDescription(name: "item", destination: "Item", inverse: "tags"),
                    ]),
            ])
        }

        @Test func aSubclassOfAClassThatOverridesTheHookHasItCalledForEveryKeyAtSave() throws {
            let stack = try Stack(Self.model(InheritsLogging.self), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let item = try #require(
                    context.insertNewObject(forEntityName: "Item") as? InheritsLogging)
                item.setValue("a", forKey: "name")
                try context.save()
                #expect(Set(item.log.keys) == ["name", "tags"])
            }
        }

        @Test func aClassWithoutAHookStillHasEveryModelRuleChecked() throws {
            let stack = try Stack(Self.model(Silent.self), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let item = context.insertNewObject(forEntityName: "Item")
                let tags = (0..<2).map { _ in context.insertNewObject(forEntityName: "Tag") }
                item.setValue(Set(tags), forKey: "tags")
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                let codes = Set(
                    (error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []).map(\.code))
                #expect(
                    codes == [
                        NSValidationMissingMandatoryPropertyError,
                        NSValidationRelationshipExceedsMaximumCountError,
                    ])
                item.setValue("a", forKey: "name")
                item.setValue(Set(tags.prefix(1)), forKey: "tags")
                try context.save()
            }
        }
    }
}
