import Foundation
import Testing

@testable import ObjectGraph

extension SaveIntegrity {
    /// Validating a to-many that deleted members left while it was a relationship fault
    /// (issue 25's W5): the per-key hook receives exactly the members left, as the set
    /// `value(forKey:)` gives, gathered one level up without loading the to-many, which
    /// stays a fault; a member the context never fetched comes as a registered fault.
    @Suite struct UnloadedToManyValidationTests {
        /// A shelf whose per-key hook records, for `books`, the numbers of the members it
        /// receives and whether they were all live objects of the shelf's context.
        final class RecordingShelf: ManagedObject {
            /// The numbers of the `books` the hook last received, sorted; `nil` if not called.
            var receivedNumbers: [Int64]?
            /// Whether every member received was a live (not deleted) object of this context.
            var membersWereLive = false
            /// Whether the hook throws for `books`, after recording.
            var refuses = false

            override func validate(_ value: Any?, forKey key: String) throws {
                guard key == "books" else { return }
                let members = value as? Set<ManagedObject>
                membersWereLive =
                    members?.allSatisfy {
                        !$0.isDeleted && $0.managedObjectContext === managedObjectContext
                    } ?? false
                receivedNumbers = members?.map { $0.value(forKey: "number") as? Int64 ?? -1 }
                    .sorted()
                if refuses {
                    refusals += 1
                    throw NSError(
                        domain: "RecordingShelf", code: 3,
                        userInfo: [NSLocalizedDescriptionKey: "this shelf refuses"])
                }
            }

            /// How many times the hook refused.
            var refusals = 0
        }

        private func stack(_ kind: StoreKind) throws -> Stack {
            try UnloadedToManyDeleteTests.shelvesAndBooks(kind, shelfClass: RecordingShelf.self)
        }

        private func booksAreAFault(_ shelf: ManagedObject) -> Bool {
            UnloadedToManyDeleteTests.booksAreAFault(shelf)
        }

        /// The books `format` accepts (all when `nil`), as faults, by number.
        private func books(_ context: ManagedObjectContext, _ format: String? = nil) throws
            -> [ManagedObject]
        {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try format.map { try FetchPredicate(format: $0) }
            request.sortDescriptors = [FetchSortDescriptor(key: "number")]
            return try context.fetch(request)
        }

        /// The shelf of `book`, of the recording class.
        private func shelf(of book: ManagedObject?) throws -> RecordingShelf {
            try #require(book?.value(forKey: "shelf") as? RecordingShelf)
        }

        /// Books deleted from two shelves whose `books` were never loaded: each shelf's hook
        /// gets the books left (those never fetched among them), the untouched shelf's hook is
        /// not called, and the to-manys are still faults after the save.
        @Test(arguments: StoreKind.all)
        func theHookReceivesExactlyTheMembersLeftAndTheToManyStaysAFault(kind: StoreKind)
            throws
        {
            let stack = try stack(kind)
            let context = stack.context()
            try context.performAndWait {
                // Only books 0–14 are fetched: 15–29 are not registered when the save starts.
                let books = try books(context, "number < 15")
                func number(_ book: ManagedObject) -> Int64 {
                    book.value(forKey: "number") as? Int64 ?? -1
                }
                let doomed = books.filter { number($0) % 3 == 0 || [1, 4].contains(number($0)) }
                let s0 = try shelf(of: doomed.first { number($0) == 0 })
                let s1 = try shelf(of: doomed.first { number($0) == 1 })
                let s2 = try shelf(of: books.first { number($0) == 2 })
                for book in doomed { context.delete(book) }
                context.processPendingChanges()
                #expect(booksAreAFault(s0) && booksAreAFault(s1))
                try context.save()
                #expect(s0.receivedNumbers == [15, 18, 21, 24, 27])
                #expect(s1.receivedNumbers == [7, 10, 13, 16, 19, 22, 25, 28])
                #expect(s0.membersWereLive && s1.membersWereLive)
                // Not changed, not validated.
                #expect(s2.receivedNumbers == nil)
                // Validation did not load the to-manys; read now, they hold the books left.
                #expect(booksAreAFault(s0) && booksAreAFault(s1))
                let left = (s0.value(forKey: "books") as? Set<ManagedObject> ?? [])
                    .map(number).sorted()
                #expect(left == [15, 18, 21, 24, 27])
            }
            let check = stack.context()
            let remaining = try check.performAndWait {
                try check.count(for: FetchRequest<ManagedObject>(entityName: "Book"))
            }
            #expect(remaining == 23)
        }

        /// In a child context, the members one level up are the parent's, unsaved changes
        /// included: the hook of a shelf whose unloaded `books` lost a member deleted in the
        /// child gets the book inserted on it in the parent and neither the book deleted in
        /// the parent nor the one deleted in the child. (The child reads the shelf before the
        /// parent changes it, so that its `books` is unloaded: a shelf read from the parent
        /// after the parent linked a book to it comes with the parent's loaded `books`.)
        @Test(arguments: StoreKind.all)
        func inAChildTheHookReceivesTheMembersLeftOverTheParentsChanges(kind: StoreKind)
            throws
        {
            let stack = try stack(kind)
            let parent = stack.context()
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            let (zero, s0) = try child.performAndWait {
                let zero = try #require(try books(child, "number == 0").first)
                let s0 = try shelf(of: zero)
                _ = s0.value(forKey: "name")
                return (zero, s0)
            }
            try parent.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Shelf")
                request.predicate = try FetchPredicate(format: "name == 's0'")
                let shelf = try #require(try parent.fetch(request).first)
                let book = parent.insertNewObject(forEntityName: "Book")
                book.setValue(Int64(99), forKey: "number")
                book.setValue(shelf, forKey: "shelf")
                parent.delete(try #require(try books(parent, "number == 3").first))
            }
            try child.performAndWait {
                child.delete(zero)
                child.processPendingChanges()
                #expect(booksAreAFault(s0))
                try child.save()
                #expect(s0.receivedNumbers == [6, 9, 12, 15, 18, 21, 24, 27, 99])
                #expect(s0.membersWereLive)
            }
        }

        /// A to-many with a count rule (at least three) on a shelf whose only change is its
        /// name: the rule is checked and the hook gets every member without loading `books`,
        /// which is still a fault after the save.
        @Test(arguments: StoreKind.all)
        func aCountRuleOnAnUnchangedUnloadedToManyHandsTheHookEveryMemberWithoutLoadingIt(
            kind: StoreKind
        ) throws {
            let stack = try UnloadedToManyDeleteTests.shelvesAndBooks(
                kind, minimum: 3, shelfClass: RecordingShelf.self)
            let context = stack.context()
            try context.performAndWait {
                let request = FetchRequest<ManagedObject>(entityName: "Shelf")
                request.predicate = try FetchPredicate(format: "name == 's0'")
                let s0 = try #require(try context.fetch(request).first as? RecordingShelf)
                s0.setValue("renamed", forKey: "name")
                try context.save()
                #expect(s0.receivedNumbers == [0, 3, 6, 9, 12, 15, 18, 21, 24, 27])
                #expect(s0.membersWereLive)
                #expect(booksAreAFault(s0))
            }
        }

        /// A save the hook refuses leaves the to-many as it was: still a fault marked changed,
        /// reading the members left; rolled back, every book is back.
        @Test(arguments: StoreKind.all)
        func aFailedSaveLeavesTheUnloadedToManyChangedAndRollbackRestoresIt(kind: StoreKind)
            throws
        {
            let stack = try stack(kind)
            let context = stack.context()
            let books = try context.performAndWait { try self.books(context) }
            try context.performAndWait {
                let s0 = try shelf(of: books[0])
                context.delete(books[0])
                context.delete(books[3])
                s0.refuses = true
                var refusal: NSError?
                do { try context.save() } catch let error as NSError { refusal = error }
                #expect(refusal?.domain == "RecordingShelf")
                #expect(s0.refusals == 1)
                #expect(s0.receivedNumbers == [6, 9, 12, 15, 18, 21, 24, 27])
                #expect(booksAreAFault(s0))
                let changed = s0.changedValues()["books"] as? Set<ManagedObject>
                #expect(changed?.count == 8)
                context.rollback()
                let all = (s0.value(forKey: "books") as? Set<ManagedObject> ?? [])
                #expect(all.count == 10)
            }
        }
    }
}
