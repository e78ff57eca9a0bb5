import Foundation
import Testing

@testable import ObjectGraph

/// A book whose `willSave()` runs `onWillSave` once (set by the test, on the context's queue).
private final class HookedBook: ManagedObject {
    /// Run by the next `willSave()` with the book, then cleared.
    nonisolated(unsafe) var onWillSave: ((ManagedObject) -> Void)?

    override func willSave() {
        super.willSave()
        if let hook = onWillSave {
            onWillSave = nil
            hook(self)
        }
    }
}

extension SaveIntegrity {
    /// A deleted object's to-one destination read twice in a save (by delete propagation's
    /// nullify, and again as the object leaves its context at the end of the save), with user
    /// code in between: a `willSave()` that moves or clears the deleted book's shelf, or
    /// deletes the shelf. The did-save notification, the shelves' books and the deleted book's
    /// own `shelf` after the save are what the engine answered before the destination was kept
    /// between the two reads.
    @Suite struct DeletedToOneInWillSaveTests {
        /// Shelves `s0`–`s2` ⟷ six `HookedBook`s, book `i` on shelf `i % 3` (both sides
        /// nullify), saved.
        private func stack(_ kind: StoreKind) throws -> Stack {
            try UnloadedToManyDeleteTests.shelvesAndBooks(
                kind, books: 6, bookClass: HookedBook.self)
        }

        /// What the hook does to the deleted book (book 0, on shelf `s0`).
        enum Change: String, CaseIterable, Sendable {
            /// Sets the deleted book's shelf to `s1`.
            case moveToAnotherShelf
            /// Sets the deleted book's shelf to `nil`.
            case clear
            /// Deletes the deleted book's shelf `s0`.
            case deleteTheShelf
        }

        private func number(_ book: ManagedObject) -> Int64 {
            book.value(forKey: "number") as? Int64 ?? -1
        }

        /// Each shelf's books' numbers, ascending, by the shelf's name.
        private func contents(_ shelves: [ManagedObject]) -> [String: [Int64]] {
            Dictionary(
                uniqueKeysWithValues: shelves.map { shelf in
                    let books = shelf.value(forKey: "books") as? Set<ManagedObject> ?? []
                    let name = shelf.value(forKey: "name") as? String ?? "?"
                    return (name, books.map(number).sorted())
                })
        }

        @Test(arguments: StoreKind.all, Change.allCases)
        func aWillSaveThatChangesADeletedBooksShelfSavesWhatItLeft(kind: StoreKind, change: Change)
            throws
        {
            let stack = try stack(kind)
            let context = stack.context()
            let recorder = SaveRecorder(context)
            try context.performAndWait {
                let books = try StaleUnloadedToManyDeleteTests.fetch("Book", by: "number", context)
                for book in books { _ = number(book) }  // fired: each keeps its row
                let shelves = try StaleUnloadedToManyDeleteTests.fetch("Shelf", by: "name", context)
                let deleted = try #require(books.first as? HookedBook)
                deleted.onWillSave = { book in
                    switch change {
                    case .moveToAnotherShelf: book.setValue(shelves[1], forKey: "shelf")
                    case .clear: book.setValue(nil, forKey: "shelf")
                    case .deleteTheShelf: context.delete(shelves[0])
                    }
                }
                context.delete(deleted)
                try context.save()
                #expect(deleted.onWillSave == nil)  // the hook ran
                let after = deleted.value(forKey: "shelf") as? ManagedObject
                var deletedIDs: Set = [deleted.objectID]
                var expected = ["s0": [Int64(3)], "s1": [1, 4], "s2": [2, 5]]
                // The store lists what the saved books point at: the deleted book in none.
                var stored = expected
                var updated = Set([shelves[0].objectID])
                switch change {
                case .moveToAnotherShelf:
                    #expect(after === shelves[1])
                    // The deleted book was added to `s1`'s books here (nothing removes it).
                    expected["s1"] = [0, 1, 4]
                    updated.insert(shelves[1].objectID)
                case .clear:
                    #expect(after == nil)
                case .deleteTheShelf:
                    #expect(after === shelves[0])
                    deletedIDs.insert(shelves[0].objectID)
                    expected["s0"] = nil
                    stored["s0"] = nil
                    updated = [books[3].objectID]
                    #expect(books[3].value(forKey: "shelf") == nil)
                }
                #expect(recorder.deletedIDs == deletedIDs)
                #expect(recorder.updatedIDs == updated)
                let live = shelves.filter { !deletedIDs.contains($0.objectID) }
                #expect(contents(live) == expected)
                let check = try stack.reopen().context()
                let reopened = try check.performAndWait {
                    contents(try StaleUnloadedToManyDeleteTests.fetch("Shelf", by: "name", check))
                }
                #expect(reopened == stored)
            }
        }

        /// A save that inserts a shelf named like the deleted book's shelf `s0`, under
        /// `.mergeByPropertyObjectTrump`, after delete propagation found `s0` (kept as `K`) for
        /// the deleted book: the inserted shelf merges into `K`, which the save updates, and
        /// the book reads `K` after the save; when `K`'s changes were discarded first
        /// (`refreshesTheShelf`), the inserted shelf takes over `K`'s ID (`K` leaves the
        /// context) and the book reads the inserted shelf. The did-save lists the book as
        /// deleted and `s0`'s ID as updated, and nothing as inserted, either way (what the
        /// look-up at the save's end answers).
        @Test(arguments: StoreKind.all, [false, true])
        func anInsertThatTakesOverTheDeletedBooksShelfIsWhatTheBookReadsAfterTheSave(
            kind: StoreKind, refreshesTheShelf: Bool
        ) throws {
            let stack = try UnloadedToManyDeleteTests.shelvesAndBooks(
                kind, books: 6, shelfConstraints: [["name"]])
            let context = stack.context(.mergeByPropertyObjectTrump)
            let recorder = SaveRecorder(context)
            try context.performAndWait {
                let books = try StaleUnloadedToManyDeleteTests.fetch("Book", by: "number", context)
                for book in books { _ = number(book) }  // fired: each keeps its row
                let deleted = books[0]
                // Not read through the book: that would convert its row into slots.
                let shelves = try StaleUnloadedToManyDeleteTests.fetch("Shelf", by: "name", context)
                let found = shelves[0]
                let id = found.objectID
                context.delete(deleted)
                context.processPendingChanges()  // delete propagation finds (keeps) `found`
                if refreshesTheShelf { context.refresh(found, mergeChanges: false) }
                let taking = context.insertNewObject(forEntityName: "Shelf")
                taking.setValue("s0", forKey: "name")
                try context.save()
                let after = deleted.value(forKey: "shelf") as? ManagedObject
                #expect(taking.objectID == id)
                #expect(after === (refreshesTheShelf ? taking : found))
                #expect(recorder.insertedIDs.isEmpty)
                #expect(recorder.updatedIDs == [id])
                #expect(recorder.deletedIDs == [deleted.objectID])
            }
        }
    }
}
