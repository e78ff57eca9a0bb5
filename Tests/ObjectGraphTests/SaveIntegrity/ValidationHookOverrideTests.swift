import Foundation
import Testing

@testable import ObjectGraph

extension SaveIntegrity {
    /// Whether a class overrides the per-key hook, read from its vtable
    /// (`ValidationHookOverride`): a save skips the hook of a class that does not, and calls
    /// that of a class that does, or whose superclass does, for every key. Core Data's
    /// `NSManagedObject.validateValue(_:forKey:)` "searches for a method of the form
    /// `validate<Key>:error:` and invokes it if it exists"
    /// (https://developer.apple.com/documentation/coredata/nsmanagedobject/validatevalue(_:forkey:)):
    /// a class without one runs the model's rules alone.
    @Suite struct ValidationHookOverrideTests {
        /// Keys the hooks below were called with, per object.
        final class HookLog {
            /// The keys, in the order the hook saw them.
            var keys: [String] = []
        }

        /// Overrides nothing.
        final class Silent: ManagedObject {}

        /// Overrides the hook, logging each key.
        class Logging: ManagedObject {
            /// Where this object's hook writes.
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

        /// A generic class that overrides the hook.
        final class GenericLogging<T>: ManagedObject {
            override func validate(_ value: Any?, forKey key: String) throws {
                throw GenericHookError()
            }
        }

        /// A generic class that does not override the hook.
        final class GenericSilent<T>: ManagedObject {}

        /// Overrides no hook and declares keys, counting how often a save asks for them: a
        /// save that consults the vtable first never asks.
        final class CountsAsks: ManagedObject {
            nonisolated(unsafe) static var asks = 0
            override class var validatedKeys: Set<String>? {
                asks += 1
                return ["name"]
            }
        }

        /// Overrides the hook and declares keys, counting how often a save asks for them.
        final class HookedCountsAsks: Logging {
            nonisolated(unsafe) static var asks = 0
            override class var validatedKeys: Set<String>? {
                asks += 1
                return ["name"]
            }
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
        }

        @Test func aClassThatOverridesNoHookAsksForNoKeyWhateverItDeclares() {
            #if !canImport(ObjectiveC)
                #expect(ValidationHookOverride.hookedKeys(of: Silent.self) == [])
                #expect(ValidationHookOverride.hookedKeys(of: DeclaresOnly.self) == [])
            #endif
            #expect(ValidationHookOverride.hookedKeys(of: Logging.self) == nil)
        }

        /// `UnloadedToManyDeleteTests`' model: `Shelf(name; books, at least `minimum`)` of
        /// class `shelfClass` ⟷ `Book(number)`.
        static func model(_ shelfClass: ManagedObject.Type, minimum: Int = 0) throws
            -> ManagedObjectModel
        {
            try UnloadedToManyDeleteTests.model(minimum: minimum, shelfClass: shelfClass)
        }

        @Test func aSubclassOfAClassThatOverridesTheHookHasItCalledForEveryKeyAtSave() throws {
            let stack = try Stack(Self.model(InheritsLogging.self), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let shelf = try #require(
                    context.insertNewObject(forEntityName: "Shelf") as? InheritsLogging)
                try context.save()
                #expect(shelf.log.keys == ["name", "books"])
            }
        }

        /// The save itself consults the vtable: a class that overrides no hook is never asked
        /// for its keys (its plan has no hook step), one that does is asked (the review's
        /// should-fix: with the save asking `validatedKeys` directly, every other test passed).
        @Test func aSaveAsksForTheKeysOnlyOfAClassThatOverridesTheHook() throws {
            for (type, hooked) in [(CountsAsks.self, false), (HookedCountsAsks.self, true)]
                as [(ManagedObject.Type, Bool)]
            {
                CountsAsks.asks = 0
                HookedCountsAsks.asks = 0
                let stack = try Stack(Self.model(type), on: .inMemory)
                let context = stack.context()
                try context.performAndWait {
                    let shelf = context.insertNewObject(forEntityName: "Shelf")
                    try context.save()
                    shelf.setValue("renamed", forKey: "name")
                    try context.save()
                    if let logging = shelf as? Logging {
                        #expect(logging.log.keys == ["name", "name"])
                    }
                }
                #if !canImport(ObjectiveC)
                    #expect(CountsAsks.asks == 0)
                #endif
                #expect((HookedCountsAsks.asks > 0) == hooked)
            }
        }

        @Test func aClassWithoutAHookStillHasItsModelRulesChecked() throws {
            let stack = try Stack(Self.model(Silent.self, minimum: 2), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                // Each book placed from its own side: the shelf's count rule sees the inverse.
                let shelf = context.insertNewObject(forEntityName: "Shelf")
                context.insertNewObject(forEntityName: "Book").setValue(shelf, forKey: "shelf")
                let refused = details(expectNSError { try context.save() })
                let tooFew = NSValidationRelationshipLacksMinimumCountError
                #expect(refused == ["Shelf.books:\(tooFew)"])
                context.insertNewObject(forEntityName: "Book").setValue(shelf, forKey: "shelf")
                try context.save()
                #expect((shelf.value(forKey: "books") as? Set<ManagedObject>)?.count == 2)
            }
        }
    }
}
