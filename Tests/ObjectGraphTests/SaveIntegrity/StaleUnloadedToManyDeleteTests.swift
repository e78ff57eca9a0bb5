import Foundation
import Testing

@testable import ObjectGraph

extension SaveIntegrity {
    /// Deleting an object whose to-one, as a stale context read it, names a target that no
    /// longer lists it (another context's save moved it, not merged here), when the target's
    /// inverse to-many is not loaded: the old target loses nothing, so it is not updated
    /// (no pending change, no did-save entry, no new row version).
    @Suite struct StaleUnloadedToManyDeleteTests {
        /// Shelves `s0` and `s1`, books 0–5, book `i` on shelf `i % 2`, saved.
        private func stack(_ kind: StoreKind) throws -> Stack {
            let stack = try Stack(try UnloadedToManyDeleteTests.model(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let shelves = (0..<2).map { i in
                    let shelf = context.insertNewObject(forEntityName: "Shelf")
                    shelf.setValue("s\(i)", forKey: "name")
                    return shelf
                }
                for i in 0..<6 {
                    let book = context.insertNewObject(forEntityName: "Book")
                    book.setValue(Int64(i), forKey: "number")
                    book.setValue(shelves[i % 2], forKey: "shelf")
                }
                try context.save()
            }
            return stack
        }

        /// Every object of `entity` in `context`, sorted by `key`. Also used by
        /// ``DeletedToOneInWillSaveTests``.
        static func fetch(_ entity: String, by key: String, _ context: ManagedObjectContext)
            throws -> [ManagedObject]
        {
            let request = FetchRequest<ManagedObject>(entityName: entity)
            request.sortDescriptors = [FetchSortDescriptor(key: key)]
            return try context.fetch(request)
        }

        private func number(_ book: ManagedObject) -> Int64 {
            book.value(forKey: "number") as? Int64 ?? -1
        }

        private func numbers(_ shelf: ManagedObject) -> [Int64] {
            (shelf.value(forKey: "books") as? Set<ManagedObject> ?? []).map(number).sorted()
        }

        /// The stored version of the row of `id`.
        private func version(_ stack: Stack, _ id: ManagedObjectID) throws -> Int64? {
            try stack.rows(id.entity.name).first { $0.objectID == id }?.version
        }

        /// A stale context deletes book 0 (on `s0` as it read it) after another context moved
        /// it to `s1`; with `alsoStillThere` it also deletes book 2, which `s0` still lists.
        @Test(arguments: StoreKind.all, [false, true])
        func aStaleDeletionLeavesTheOldTargetAloneUnlessItStillListsADeletedMember(
            kind: StoreKind, alsoStillThere: Bool
        ) throws {
            let stack = try stack(kind)
            let stale = stack.context(.mergeByPropertyObjectTrump)
            let recorder = SaveRecorder(stale)
            try stale.performAndWait {
                let books = try Self.fetch("Book", by: "number", stale)
                for book in books { _ = number(book) }  // fired: each names its shelf
                let shelves = try Self.fetch("Shelf", by: "name", stale)
                let s0 = shelves[0].objectID
                // Another context moves book 0 to s1 and saves; this one does not merge it.
                let mover = stack.context()
                let (moved, target) = (books[0].objectID, shelves[1].objectID)
                try mover.performAndWait {
                    let book = try mover.existingObject(with: moved)
                    book.setValue(try mover.existingObject(with: target), forKey: "shelf")
                    try mover.save()
                }
                // After the move, which updated s0 (it lost book 0) and s1 there.
                let s0Version = try version(stack, s0)
                stale.delete(books[0])
                if alsoStillThere { stale.delete(books[2]) }
                stale.processPendingChanges()
                #expect(shelves[0].isUpdated == alsoStillThere)
                #expect(stale.updatedObjects.contains(shelves[0]) == alsoStillThere)
                #expect(numbers(shelves[0]) == (alsoStillThere ? [4] : [2, 4]))
                try stale.save()
                #expect(recorder.updatedIDs.contains(s0) == alsoStillThere)
                let expected = alsoStillThere ? s0Version.map { $0 + 1 } : s0Version
                #expect(try version(stack, s0) == expected)
            }
            let check = stack.context()
            try check.performAndWait {
                let shelves = try Self.fetch("Shelf", by: "name", check)
                #expect(numbers(shelves[0]) == (alsoStillThere ? [4] : [2, 4]))
                #expect(numbers(shelves[1]) == [1, 3, 5])
            }
        }
    }
}
