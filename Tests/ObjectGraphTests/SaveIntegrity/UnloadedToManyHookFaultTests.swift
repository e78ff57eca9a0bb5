import Foundation
import Testing

@testable import ObjectGraph

extension SaveIntegrity {
    /// What validating an unloaded to-many after deletions makes (issue 25's W5, twenty-ninth
    /// session): the hook's set holds the members' registered objects, not new ones, and a
    /// member that is a fault stays one. In Core Data a fault is a placeholder whose persistent
    /// values are loaded only when they are used (Core Data Programming Guide, "Faulting and
    /// Uniquing", developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/
    /// FaultingandUniquing.html); `validateForUpdate()` validates every property through the
    /// per-key hook (../shared/reference/coredata-semantics.md (c)), and the value of `books`
    /// is the set of its members, not their values.
    @Suite struct UnloadedToManyHookFaultTests {
        /// A shelf whose per-key hook refuses a `books` member that is not the context's
        /// registered object for its ID, or that is no longer a fault (code 8; a saved member, not
        /// an insert): the refusal fails the save the test makes.
        final class InspectingShelf: ManagedObject {
            /// How many saved members the hook has inspected on this instance (so that the
            /// test can tell a hook that ran from one never called).
            var inspected = 0
            /// The IDs of the saved members the hook has inspected on this instance, in turn.
            var seen: [ManagedObjectID] = []

            override func validate(_ value: Any?, forKey key: String) throws {
                guard key == "books" else { return }
                // The setup's insert hands the hook its new books, which are no faults.
                for member in value as? Set<ManagedObject> ?? [] where !member.isInserted {
                    inspected += 1
                    seen.append(member.objectID)
                    let registered = managedObjectContext?.registeredObject(for: member.objectID)
                    if registered !== member || !member.isFault {
                        throw NSError(
                            domain: "InspectingShelf", code: 8,
                            userInfo: [NSLocalizedDescriptionKey: "a member was made or fired"])
                    }
                }
            }
        }

        /// The books whose number is below (or, `below` false, at least) 15, as faults.
        private func books(
            _ context: ManagedObjectContext, below: Bool
        ) throws -> [ManagedObject] {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.predicate = try FetchPredicate(format: below ? "number < 15" : "number >= 15")
            return try context.fetch(request)
        }

        /// Deleting half of the books of shelves that never loaded `books`, while the other
        /// half are held unread: the save validates each shelf's `books` through the hook with
        /// the held objects themselves (none made again), none of them fired, before and
        /// after the save; each shelf's `books` then lists exactly the books left.
        @Test(arguments: StoreKind.all)
        func theHookGetsTheHeldMembersStillFaults(kind: StoreKind) throws {
            let stack = try UnloadedToManyDeleteTests.shelvesAndBooks(
                kind, shelfClass: InspectingShelf.self)
            let context = stack.context()
            try context.performAndWait {
                let kept = try books(context, below: false)
                let doomed = try books(context, below: true)
                #expect(kept.count == 15 && doomed.count == 15)
                #expect(kept.filter { $0.isFault }.count == 15)
                for book in doomed { context.delete(book) }
                context.processPendingChanges()
                #expect(kept.filter { $0.isFault }.count == 15)
                try context.save()
                #expect(kept.filter { $0.isFault }.count == 15)
                for book in kept {
                    #expect(context.registeredObject(for: book.objectID) === book)
                }
                let request = FetchRequest<ManagedObject>(entityName: "Shelf")
                request.sortDescriptors = [FetchSortDescriptor(key: "name")]
                let shelves = try context.fetch(request)
                // Each shelf's hook saw its five books left, held and still faults.
                #expect(shelves.map { ($0 as? InspectingShelf)?.inspected } == [5, 5, 5])
                for (s, shelf) in shelves.enumerated() {
                    let members = shelf.value(forKey: "books") as? Set<ManagedObject> ?? []
                    let numbers = members.map { $0.value(forKey: "number") as? Int64 ?? -1 }
                    #expect(numbers.sorted() == (15..<30).filter { $0 % 3 == s }.map(Int64.init))
                    #expect(members.allSatisfy { m in kept.contains { $0 === m } })
                }
            }
        }

        /// Deleting half of the books of shelves that never loaded `books`, with the other half
        /// never fetched (not registered): the save validates each shelf's `books` through the
        /// hook with every book left, each once, as registered faults made from the IDs one
        /// level up (the validation's own look-ups, thirtieth session's `w5t`: the IDs moved
        /// out of the look-up's array one by one).
        @Test(arguments: StoreKind.all)
        func theHookGetsEveryMemberLeftWhenNoneIsRegistered(kind: StoreKind) throws {
            let stack = try UnloadedToManyDeleteTests.shelvesAndBooks(
                kind, shelfClass: InspectingShelf.self)
            // The books left, by shelf, read in another context: this one never registers them.
            var left: [[ManagedObjectID]] = [[], [], []]
            let reader = stack.context()
            try reader.performAndWait {
                for book in try books(reader, below: false) {
                    let number = book.value(forKey: "number") as? Int64 ?? -1
                    left[Int(number % 3)].append(book.objectID)
                }
            }
            let context = stack.context()
            try context.performAndWait {
                for book in try books(context, below: true) { context.delete(book) }
                try context.save()
                let request = FetchRequest<ManagedObject>(entityName: "Shelf")
                request.sortDescriptors = [FetchSortDescriptor(key: "name")]
                let shelves = try context.fetch(request)
                #expect(shelves.count == 3)
                for (s, shelf) in shelves.enumerated() {
                    let seen = (shelf as? InspectingShelf)?.seen ?? []
                    #expect(seen.count == 5)
                    #expect(Set(seen) == Set(left[s]))
                }
            }
        }
    }
}
