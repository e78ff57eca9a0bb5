import Foundation
import ObjectGraph
import Testing

extension IntegrityModels {
    /// Records its `willSave()` and `didSave()` calls in the log it is given.
    final class Jot: ManagedObject {
        @Attribute var text: String?
        /// Where the calls go (set by the test, on the context's queue).
        var log: CallLog?
        /// The object whose text this one's `willSave()` changes, once.
        var touches: Jot?

        override func willSave() {
            super.willSave()
            log?.calls.append("willSave \(text ?? "-")")
            if let other = touches {
                touches = nil
                other.text = (other.text ?? "") + "+"
            }
        }

        override func didSave() {
            super.didSave()
            log?.calls.append("didSave \(text ?? "-")")
        }
    }

    /// The calls the objects of one test made, in order.
    final class CallLog {
        var calls: [String] = []
    }

    /// One entity, `Jot`, with one optional string.
    static func jots() throws -> ManagedObjectModel {
        let text = A(name: "text", type: .string)
        return try ManagedObjectModel(entities: [
            E(name: "Jot", managedObjectClass: Jot.self, properties: [text])
        ])
    }
}

extension SaveIntegrity {
    /// The save's walks over its objects (`willSave()` rounds, the classification into
    /// inserted, updated and deleted, `didSave()`, the flags cleared at the end) and the
    /// fetched faults' filling, which read their objects through the arrays' buffers.
    @Suite struct SaveCallbackOrderTests {
        typealias Jot = IntegrityModels.Jot

        /// `willSave()` runs once per changed object and save, in first-change order, then on
        /// what a `willSave()` changed (a second round); `didSave()` runs on the inserted, the
        /// updated, then the deleted objects; deleted objects leave the context not deleted;
        /// the next save calls `willSave()` again (the flags were cleared).
        @Test(arguments: StoreKind.all)
        func willSaveAndDidSaveRunOncePerObjectInOrderAndAgainOnTheNextSave(_ kind: StoreKind)
            throws
        {
            let stack = try Stack(IntegrityModels.jots(), on: kind)
            let context = stack.context()
            let log = IntegrityModels.CallLog()
            try context.performAndWait {
                let (kept, touched, doomed) = (
                    Jot(context: context), Jot(context: context), Jot(context: context)
                )
                (kept.text, touched.text, doomed.text) = ("kept", "touched", "doomed")
                try context.save()
                for jot in [kept, touched, doomed] { jot.log = log }

                kept.text = "kept2"
                kept.touches = touched
                let fresh = Jot(context: context)
                fresh.log = log
                fresh.text = "fresh"
                context.delete(doomed)
                try context.save()
                #expect(
                    log.calls == [
                        "willSave kept2", "willSave fresh", "willSave doomed",
                        "willSave touched+",
                        "didSave fresh", "didSave kept2", "didSave touched+", "didSave doomed",
                    ])
                #expect(doomed.managedObjectContext == nil)
                #expect(!doomed.isDeleted && !fresh.isInserted && !kept.hasChanges)

                log.calls = []
                kept.text = "kept3"
                try context.save()
                #expect(log.calls == ["willSave kept3", "didSave kept3"])
                #expect(context.insertedObjects.isEmpty && context.deletedObjects.isEmpty)
            }
            let reopened = try stack.reopen().context()
            try reopened.performAndWait {
                let texts = try reopened.fetch(FetchRequest<Jot>(entityName: "Jot")).map(\.text)
                #expect(Set(texts) == ["kept3", "touched+", "fresh"])
            }
        }

        /// A fetched fault filled from the row its fetch kept, or from its fetch batch, holds
        /// the store's values with no changes; a write then marks only its key changed, and a
        /// refresh without merging brings the stored value back.
        @Test(arguments: StoreKind.all, [0, 2])
        func aFiredFaultHoldsTheStoresValuesUnchangedAndTakesAWriteAndARefresh(
            _ kind: StoreKind, batchSize: Int
        ) throws {
            let stack = try Stack(IntegrityModels.jots(), on: kind)
            let writer = stack.context()
            try writer.performAndWait {
                for text in ["a", "b", "c"] { Jot(context: writer).text = text }
                try writer.save()
            }
            let context = stack.context()
            try context.performAndWait {
                let request = FetchRequest<Jot>(entityName: "Jot")
                request.fetchBatchSize = batchSize
                request.sortDescriptors = [FetchSortDescriptor(key: "text")]
                let jots = try context.fetch(request)
                #expect(jots.count == 3 && jots.allSatisfy(\.isFault))
                #expect(jots.map(\.text) == ["a", "b", "c"])
                for jot in jots {
                    #expect(!jot.isFault && !jot.hasChanges && jot.changedValues().isEmpty)
                }
                jots[1].text = "B"
                #expect(jots[1].hasChanges && Set(jots[1].changedValues().keys) == ["text"])
                #expect(!jots[0].hasChanges && !jots[2].hasChanges)
                context.refresh(jots[1], mergeChanges: false)
                #expect(jots[1].text == "b" && !jots[1].hasChanges)
                #expect(context.updatedObjects.isEmpty)
            }
        }
    }
}
