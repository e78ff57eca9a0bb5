import Foundation
import Testing

@testable import ObjectGraph

extension SaveIntegrity {
    /// Delete propagation's nullify rule when the deleted objects' targets have not loaded
    /// the inverse to-many (issue 25's W5): the to-many stays a fault, marked changed, and
    /// leaves the deleted members out when it is read, before and after the save, in this
    /// context, its parent and a context that merges the save.
    @Suite struct UnloadedToManyDeleteTests {
        /// `Shelf(name)` (of class `shelfClass`) with an unordered to-many `books` (derived
        /// from `Book.shelf`, delete rule `shelfRule`, at least `minimum` members) ⟷
        /// `Book(number)` (of class `bookClass`) with the to-one `shelf` (nullify); the shelf's
        /// uniqueness constraints are `shelfConstraints`. Also the model of
        /// ``StaleUnloadedToManyDeleteTests`` and ``DeletedToOneInWillSaveTests``.
        static func model(
            shelfRule: DeleteRule = .nullify, minimum: Int = 0,
            shelfClass: ManagedObject.Type = ManagedObject.self,
            bookClass: ManagedObject.Type = ManagedObject.self,
            shelfConstraints: [[String]] = []
        ) throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Shelf", managedObjectClass: shelfClass,
                    properties: [
                        AttributeDescription(name: "name", type: .string),
                        RelationshipDescription(
                            name: "books", destination: "Book", inverse: "shelf",
                            isToMany: true, minCount: minimum, deleteRule: shelfRule),
                    ], uniquenessConstraints: shelfConstraints),
                EntityDescription(
                    name: "Book", managedObjectClass: bookClass,
                    properties: [
                        AttributeDescription(name: "number", type: .integer64),
                        RelationshipDescription(
                            name: "shelf", destination: "Shelf", inverse: "books",
                            deleteRule: .nullify),
                    ]),
            ])
        }

        /// Shelves `s0`–`s2`, book `i` on shelf `i % 3`, saved.
        private func stack(
            _ kind: StoreKind, books: Int = 30, shelfRule: DeleteRule = .nullify,
            minimum: Int = 0
        ) throws -> Stack {
            try Self.shelvesAndBooks(kind, books: books, shelfRule: shelfRule, minimum: minimum)
        }

        /// Shelves `s0`–`s2` (of class `shelfClass`), book `i` (of class `bookClass`) on shelf
        /// `i % 3`, saved; the shelf's uniqueness constraints are `shelfConstraints`. Also the
        /// stack of ``UnloadedToManyValidationTests`` and ``DeletedToOneInWillSaveTests``.
        static func shelvesAndBooks(
            _ kind: StoreKind, books: Int = 30, shelfRule: DeleteRule = .nullify,
            minimum: Int = 0, shelfClass: ManagedObject.Type = ManagedObject.self,
            bookClass: ManagedObject.Type = ManagedObject.self, shelfConstraints: [[String]] = []
        ) throws -> Stack {
            let model = try Self.model(
                shelfRule: shelfRule, minimum: minimum, shelfClass: shelfClass,
                bookClass: bookClass, shelfConstraints: shelfConstraints)
            let stack = try Stack(model, on: kind)
            let context = stack.context()
            try context.performAndWait {
                let shelves = (0..<3).map { i in
                    let shelf = context.insertNewObject(forEntityName: "Shelf")
                    shelf.setValue("s\(i)", forKey: "name")
                    return shelf
                }
                for i in 0..<books {
                    let book = context.insertNewObject(forEntityName: "Book")
                    book.setValue(Int64(i), forKey: "number")
                    book.setValue(shelves[i % 3], forKey: "shelf")
                }
                try context.save()
            }
            return stack
        }

        private func shelves(_ context: ManagedObjectContext) throws -> [ManagedObject] {
            let request = FetchRequest<ManagedObject>(entityName: "Shelf")
            request.sortDescriptors = [FetchSortDescriptor(key: "name")]
            return try context.fetch(request)
        }

        /// Every book as a fault fired through its number (so each shelf is registered as a
        /// fault through the books' to-one, and no shelf has loaded its books), in order.
        private func books(_ context: ManagedObjectContext) throws -> [ManagedObject] {
            let request = FetchRequest<ManagedObject>(entityName: "Book")
            request.sortDescriptors = [FetchSortDescriptor(key: "number")]
            let books = try context.fetch(request)
            for book in books { _ = book.value(forKey: "number") }
            return books
        }

        private func number(_ book: ManagedObject) -> Int64 {
            book.value(forKey: "number") as? Int64 ?? -1
        }

        /// The numbers of a shelf's books, ascending.
        private func numbers(_ shelf: ManagedObject) -> [Int64] {
            (shelf.value(forKey: "books") as? Set<ManagedObject> ?? []).map(number).sorted()
        }

        /// Whether the shelf's `books` is still a relationship fault (not loaded).
        private func booksAreAFault(_ shelf: ManagedObject) -> Bool {
            Self.booksAreAFault(shelf)
        }

        /// Whether the shelf's `books` is still a relationship fault (not loaded).
        static func booksAreAFault(_ shelf: ManagedObject) -> Bool {
            guard !shelf.slots.isEmpty, let r = shelf.entity.relationshipsByName["books"],
                case .toMany(nil) = shelf.slots[r.index]
            else { return false }
            return true
        }

        private func expected(shelf: Int, books: Int = 30, keep: (Int) -> Bool) -> [Int64] {
            (0..<books).filter { $0 % 3 == shelf && keep($0) }.map(Int64.init)
        }

        /// Expects each shelf (in name order) to hold exactly the books `keep` accepts.
        private func expectBooks(
            on shelves: [ManagedObject], keep: (Int) -> Bool,
            sourceLocation: SourceLocation = #_sourceLocation
        ) {
            for (s, shelf) in shelves.enumerated() {
                #expect(
                    numbers(shelf) == expected(shelf: s, keep: keep), sourceLocation: sourceLocation
                )
            }
        }

        @Test(arguments: StoreKind.all, [false, true])
        func deletedBooksLeaveTheirShelvesWhetherOrNotTheShelvesLoadedThem(
            kind: StoreKind, loadedFirst: Bool
        ) throws {
            let stack = try stack(kind)
            let context = stack.context()
            let recorder = SaveRecorder(context)
            try context.performAndWait {
                let books = try books(context)
                let shelves = try shelves(context)
                if loadedFirst { for shelf in shelves { _ = numbers(shelf) } }
                var deleted: [ManagedObjectID] = []
                for book in books where number(book) % 2 == 0 {
                    deleted.append(book.objectID)
                    context.delete(book)
                }
                context.processPendingChanges()
                for shelf in shelves {
                    #expect(booksAreAFault(shelf) == !loadedFirst)
                    #expect(shelf.isUpdated)
                }
                #expect(context.updatedObjects == Set(shelves))
                // A deleted book keeps its own to-one, as under Core Data's nullify.
                #expect(books[0].value(forKey: "shelf") as? ManagedObject === shelves[0])
                expectBooks(on: shelves) { $0 % 2 == 1 }
                try context.save()
                #expect(recorder.updatedIDs == Set(shelves.map(\.objectID)))
                #expect(recorder.deletedIDs == Set(deleted))
                expectBooks(on: shelves) { $0 % 2 == 1 }
            }
            let check = try stack.reopen().context()
            try check.performAndWait {
                expectBooks(on: try shelves(check)) { $0 % 2 == 1 }
            }
        }

        @Test(arguments: StoreKind.all)
        func aShelfsChangedValuesListTheBooksLeft(kind: StoreKind) throws {
            let stack = try stack(kind)
            let context = stack.context()
            try context.performAndWait {
                let books = try books(context)
                let shelves = try shelves(context)
                for book in books where number(book) < 6 { context.delete(book) }
                context.processPendingChanges()
                #expect(booksAreAFault(shelves[1]))
                let changed = shelves[1].changedValues()["books"] as? Set<ManagedObject>
                #expect(changed.map { $0.map(number).sorted() } == [7, 10, 13, 16, 19, 22, 25, 28])
            }
        }

        @Test(arguments: StoreKind.all)
        func rollbackBringsTheDeletedBooksBack(kind: StoreKind) throws {
            let stack = try stack(kind)
            let context = stack.context()
            try context.performAndWait {
                let books = try books(context)
                let shelves = try shelves(context)
                for book in books where number(book) % 2 == 0 { context.delete(book) }
                context.processPendingChanges()
                #expect(booksAreAFault(shelves[0]))
                context.rollback()
                #expect(!context.hasChanges)
                for (s, shelf) in shelves.enumerated() {
                    #expect(!shelf.isUpdated)
                    #expect(numbers(shelf) == expected(shelf: s) { _ in true })
                }
                #expect(books.allSatisfy { !$0.isDeleted })
            }
        }

        @Test(arguments: StoreKind.all)
        func undoAndRedoOfTheDeletionsMoveTheBooksInAndOut(kind: StoreKind) throws {
            let stack = try stack(kind)
            let context = stack.context()
            try context.performAndWait {
                context.undoManager = ObjectGraphUndoManager()
                let books = try books(context)
                let shelves = try shelves(context)
                context.processPendingChanges()
                for book in books where number(book) % 2 == 0 { context.delete(book) }
                context.processPendingChanges()
                #expect(numbers(shelves[2]) == expected(shelf: 2) { $0 % 2 == 1 })
                context.undo()
                #expect(books.allSatisfy { !$0.isDeleted })
                expectBooks(on: shelves) { _ in true }
                context.redo()
                for (s, shelf) in shelves.enumerated() {
                    #expect(numbers(shelf) == expected(shelf: s) { $0 % 2 == 1 })
                    #expect(shelf.isUpdated)
                }
                try context.save()
            }
            let check = stack.context()
            try check.performAndWait {
                expectBooks(on: try shelves(check)) { $0 % 2 == 1 }
            }
        }

        @Test(arguments: StoreKind.all)
        func aContextMergingTheSaveSeesTheBooksGone(kind: StoreKind) throws {
            let stack = try stack(kind)
            let other = stack.context()
            let otherShelves = try other.performAndWait {
                let shelves = try shelves(other)
                _ = numbers(shelves[0])  // loaded; shelves 1 and 2 stay faults
                return shelves
            }
            let context = stack.context()
            let saved = SavedNotification(context)
            try context.performAndWait {
                for book in try books(context) where number(book) % 2 == 0 {
                    context.delete(book)
                }
                try context.save()
            }
            let note = try #require(saved.last)
            other.performAndWait {
                other.mergeChanges(fromContextDidSave: note)
                expectBooks(on: otherShelves) { $0 % 2 == 1 }
            }
        }

        @Test(arguments: StoreKind.all)
        func aCascadeFromTheShelfReachesOnlyTheBooksLeftOnIt(kind: StoreKind) throws {
            let stack = try stack(kind, shelfRule: .cascade)
            let context = stack.context()
            try context.performAndWait {
                let books = try books(context)
                let shelves = try shelves(context)
                for book in books where number(book) % 2 == 0 { context.delete(book) }
                context.processPendingChanges()
                #expect(booksAreAFault(shelves[0]))
                context.delete(shelves[0])
                context.processPendingChanges()
                for book in books where number(book) % 3 == 0 {
                    #expect(book.isDeleted)
                    // The even ones left by nullify keep their to-one; the cascade took the
                    // shelf from the odd ones it reached.
                    let shelf = book.value(forKey: "shelf") as? ManagedObject
                    #expect((shelf === shelves[0]) == (number(book) % 2 == 0))
                }
                try context.save()
            }
            let check = stack.context()
            try check.performAndWait {
                let left = try books(check).map(number)
                let shelfCount = try shelves(check).count
                #expect(left == (0..<30).filter { $0 % 2 == 1 && $0 % 3 != 0 }.map(Int64.init))
                #expect(shelfCount == 2)
            }
        }

        @Test(arguments: StoreKind.all)
        func aChildsDeletionsReachItsParentWithTheShelvesUpdated(kind: StoreKind) throws {
            let stack = try stack(kind)
            let parent = stack.context()
            let child = ManagedObjectContext(concurrencyType: .privateQueue)
            child.parent = parent
            try child.performAndWait {
                for book in try books(child) where number(book) < 15 { child.delete(book) }
                child.processPendingChanges()
                let third = try shelves(child)[2]
                #expect(booksAreAFault(third))
                try child.save()
            }
            let recorder = SaveRecorder(parent)
            try parent.performAndWait {
                let shelves = try shelves(parent)
                #expect(parent.updatedObjects == Set(shelves))
                #expect(numbers(shelves[2]) == [17, 20, 23, 26, 29])
                try parent.save()
                #expect(recorder.updatedIDs == Set(shelves.map(\.objectID)))
                #expect(recorder.deletedIDs.count == 15)
            }
            let check = stack.context()
            try check.performAndWait {
                let first = try shelves(check)[0]
                #expect(numbers(first) == [15, 18, 21, 24, 27])
            }
        }

        @Test(arguments: StoreKind.all)
        func aMinimumCountCountsTheBooksLeft(kind: StoreKind) throws {
            let stack = try stack(kind, minimum: 3)
            let context = stack.context()
            try context.performAndWait {
                let books = try books(context)
                // Shelf s0 holds 0, 3, …, 27: deleting eight leaves two.
                let doomed = books.filter { number($0) % 3 == 0 && number($0) < 24 }
                for book in doomed { context.delete(book) }
                var code: Int?
                do { try context.save() } catch let error as NSError { code = error.code }
                #expect(code == NSValidationRelationshipLacksMinimumCountError)
                context.rollback()
                for book in doomed.dropLast() { context.delete(book) }
                try context.save()
            }
            let check = stack.context()
            try check.performAndWait {
                let first = try shelves(check)[0]
                #expect(numbers(first) == [21, 24, 27])
            }
        }

        /// A shelf whose per-key hook refuses an empty `books` (a rule in code, not a
        /// minimum count in the model).
        final class GuardedShelf: ManagedObject {
            override func validate(_ value: Any?, forKey key: String) throws {
                guard key == "books" else { return }
                let members = value as? Set<ManagedObject> ?? []
                if members.isEmpty {
                    throw NSError(
                        domain: "GuardedShelf", code: 7,
                        userInfo: [NSLocalizedDescriptionKey: "a shelf keeps a book"])
                }
            }
        }

        /// Regression (the lead's review of the `flt` merge): deleting every book of a shelf
        /// whose `books` was never loaded skipped the shelf's per-key hook for `books`, so a
        /// save that the hook refuses went through; before `unlinkDeleted` the deletions
        /// loaded `books` and the hook saw it empty. `validateForUpdate()` iterates all of the
        /// object's properties through `validateValue(_:forKey:)`, which calls the per-key
        /// rule (developer.apple.com/documentation/coredata/nsmanagedobject/validateforupdate()
        /// and .../validatevalue(_:forkey:); ../shared/reference/coredata-semantics.md (c)).
        @Test(arguments: StoreKind.all)
        func theHookSeesTheBooksLeftAfterDeletionsFromAnUnloadedShelf(kind: StoreKind) throws {
            let stack = try Stack(try Self.model(shelfClass: GuardedShelf.self), on: kind)
            let setup = stack.context()
            try setup.performAndWait {
                let shelf = setup.insertNewObject(forEntityName: "Shelf")
                shelf.setValue("s0", forKey: "name")
                for i in 0..<3 {
                    let book = setup.insertNewObject(forEntityName: "Book")
                    book.setValue(Int64(i), forKey: "number")
                    book.setValue(shelf, forKey: "shelf")
                }
                try setup.save()
            }
            let context = stack.context()
            try context.performAndWait {
                let books = try books(context)
                let shelf = try #require(books.first?.value(forKey: "shelf") as? ManagedObject)
                for book in books { context.delete(book) }
                context.processPendingChanges()
                // The deletions left `books` unloaded (the path under test).
                #expect(booksAreAFault(shelf))
                var refusal: NSError?
                do { try context.save() } catch let error as NSError { refusal = error }
                #expect(refusal?.domain == "GuardedShelf")
                #expect(refusal?.code == 7)
                context.rollback()
                for book in books.dropLast() { context.delete(book) }
                try context.save()
            }
            let check = stack.context()
            try check.performAndWait {
                let shelf = try shelves(check)[0]
                #expect(numbers(shelf) == [2])
            }
        }
    }
}

/// The last did-save notification of a context, kept to merge into another.
final class SavedNotification: @unchecked Sendable {
    // Sendable: written on the saving context's queue inside its `performAndWait`, read by
    // the test after that call returns.
    private(set) var last: Notification?
    private var observer: (any NSObjectProtocol)?

    init(_ context: ManagedObjectContext) {
        observer = NotificationCenter.default.addObserver(
            forName: ManagedObjectContext.didSaveObjectsNotification, object: context, queue: nil
        ) { [self] note in last = note }
    }

    deinit { if let observer { NotificationCenter.default.removeObserver(observer) } }
}
