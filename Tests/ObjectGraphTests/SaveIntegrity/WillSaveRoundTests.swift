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

extension SaveIntegrity {
    /// The `willSave()` rounds when every pending object awaits its call: the round is the
    /// context's own list (shared, not copied), and each object's `willSave()` is called on a
    /// reference the round holds, not retained for the call.
    @Suite struct WillSaveRoundTests {
        typealias Spawner = IntegrityModels.Spawner

        /// A first round whose `willSave()` calls insert many objects (the context's pending
        /// list grows past its capacity while the round is walked) and delete their own
        /// object: each object's `willSave()` runs exactly once, the spawned ones in the second
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
    }
}
