import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// A `Jot` whose `willSave()` inserts `spawn` new jots (each spawning nothing), and
    /// deletes itself when `deletesItself` (an insert: it then leaves the save).
    final class Spawner: ManagedObject {
        @Attribute var text: String?
        /// Where the calls go (set by the test, on the context's queue).
        var log: CallLog?
        /// How many new objects this object's next `willSave()` inserts.
        var spawn = 0
        /// Whether this object's `willSave()` deletes it.
        var deletesItself = false

        override func willSave() {
            super.willSave()
            log?.calls.append("willSave \(text ?? "-")")
            guard let context = managedObjectContext else { return }
            for i in 0..<spawn {
                let child = Spawner(context: context)
                child.log = log
                child.text = "\(text ?? "-").\(i)"
            }
            spawn = 0
            if deletesItself { context.delete(self) }
        }
    }
}

extension IntegrityModels {
    /// An object whose `willSave()` logs its call and, while `breeding.on`, inserts one more
    /// `Breeder` (which breeds in its own `willSave()`, the next round).
    final class Breeder: ManagedObject {
        /// Whether the breeders breed, and their calls (set by the test).
        final class Breeding {
            var on = true
            var calls: [String] = []
        }

        @Attribute var text: String?
        /// The breeders' switch and log (set by the test).
        var breeding: Breeding?

        override func willSave() {
            super.willSave()
            guard let breeding, let context = managedObjectContext else { return }
            breeding.calls.append("willSave \(text ?? "-")")
            guard breeding.on else { return }
            let child = Breeder(context: context)
            child.breeding = breeding
            child.text = "g\(breeding.calls.count)"
        }
    }
}

extension SaveIntegrity {
    /// The `willSave()` rounds when every pending object awaits its call: the round is the
    /// context's own list (shared, not copied), and each object's `willSave()` is called on a
    /// reference the round holds, not retained for the call.
    @Suite struct WillSaveRoundTests {
        typealias Spawner = IntegrityModels.Spawner

        /// A first round, which shares the context's list, whose `willSave()` calls insert many
        /// objects (which must not join the round being walked) and delete their own object: each object's `willSave()` runs exactly once, the spawned ones in the second
        /// round, in order; the self-deleted inserts are not saved, and every other object is.
        @Test(arguments: StoreKind.all)
        func willSaveThatInsertsAndDeletesDuringTheFirstRoundRunsOncePerObject(
            _ kind: StoreKind
        ) throws {
            let log = IntegrityModels.CallLog()
            let model = try ManagedObjectModel(entities: [
                IntegrityModels.E(
                    name: "Spawner", managedObjectClass: Spawner.self,
                    properties: [IntegrityModels.A(name: "text", type: .string)])
            ])
            let stack = try Stack(model, on: kind)
            let context = stack.context()
            try context.performAndWait {
                // Made in a loop without keeping them: the context holds them alone.
                for i in 0..<4 {
                    let s = Spawner(context: context)
                    s.log = log
                    s.text = "s\(i)"
                    s.spawn = 40
                    s.deletesItself = i % 2 == 1
                }
                try context.save()
                let first = (0..<4).map { "willSave s\($0)" }
                let second = (0..<4).flatMap { i in (0..<40).map { "willSave s\(i).\($0)" } }
                #expect(log.calls == first + second)
                #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
            }
            let reopened = try stack.reopen().context()
            try reopened.performAndWait {
                let texts = try reopened.fetch(FetchRequest<Spawner>(entityName: "Spawner"))
                    .map { $0.text ?? "-" }
                let kept = ["s0", "s2"] + (0..<4).flatMap { i in (0..<40).map { "s\(i).\($0)" } }
                #expect(Set(texts) == Set(kept) && texts.count == kept.count)
            }
        }

        /// `willSave()` that inserts an object every round: the save stops after 100 rounds
        /// with 134060 and the context keeps its changes; once the inserting stops, the next
        /// save calls `willSave()` again on every object (the flags were cleared when the
        /// rounds threw) and saves them all.
        @Test(arguments: StoreKind.all)
        func willSaveThatNeverSettlesFailsAfterAHundredRoundsAndClearsTheFlags(_ kind: StoreKind)
            throws
        {
            let model = try ManagedObjectModel(entities: [
                IntegrityModels.E(
                    name: "Breeder", managedObjectClass: IntegrityModels.Breeder.self,
                    properties: [IntegrityModels.A(name: "text", type: .string)])
            ])
            let stack = try Stack(model, on: kind)
            let context = stack.context()
            let breeding = IntegrityModels.Breeder.Breeding()
            try context.performAndWait {
                let first = IntegrityModels.Breeder(context: context)
                first.breeding = breeding
                first.text = "b"
                let error = expectNSError { try context.save() }
                #expect(error?.code == 134060)
                #expect(error?.localizedDescription.contains("for 100 rounds") == true)
                let spawned = (1..<100).map { "willSave g\($0)" }
                #expect(breeding.calls == ["willSave b"] + spawned)
                #expect(context.insertedObjects.count == 101)
                breeding.on = false
                breeding.calls = []
                try context.save()
                // Every object's willSave() again, the last spawned one (never called) too.
                #expect(breeding.calls == ["willSave b"] + spawned + ["willSave g100"])
                #expect(!context.hasChanges)
            }
            let reopened = try stack.reopen().context()
            try reopened.performAndWait {
                let texts = try reopened.fetch(
                    FetchRequest<IntegrityModels.Breeder>(entityName: "Breeder"))
                #expect(texts.count == 101)
            }
        }
    }
}
