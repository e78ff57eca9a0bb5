import Foundation
import Testing

@testable import ObjectGraph

private final class Shelf: ManagedObject {
    @Attribute var name: String?
    @Relationship var books: Set<Book>
    @Relationship var order: [Book]
}

private final class Book: ManagedObject {
    @Attribute var title: String?
    @Relationship var shelf: Shelf?
    /// Renamed: the key is `shelf`.
    @Relationship("shelf") var home: Shelf?
    /// Renamed: the key is `placedIn`, the ordered side.
    @Relationship("placedIn") var placement: Shelf?
}

/// A class whose wrappers do not match its entity: `missing` is no relationship at all, and
/// `shelf` is a to-one declared as a to-many.
private final class StrayBook: ManagedObject {
    @Relationship var missing: Shelf?
    @Relationship var shelf: Set<Shelf>
}

/// `@Relationship`'s accessors are specialised in the caller's module (inlinable) over one
/// non-generic call into the object: renamed keys, inverses, the kind check and its message,
/// and the same-context check must behave as through key-value coding.
@Suite struct RelationshipWrapperTests {
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Shelf", managedObjectClass: Shelf.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "books", destination: "Book", inverse: "shelf", isToMany: true),
                    RelationshipDescription(
                        name: "order", destination: "Book", inverse: "placedIn", isToMany: true,
                        isOrdered: true),
                ]),
            EntityDescription(
                name: "Book", managedObjectClass: Book.self,
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    RelationshipDescription(name: "shelf", destination: "Shelf", inverse: "books"),
                    RelationshipDescription(
                        name: "placedIn", destination: "Shelf", inverse: "order"),
                ]),
            EntityDescription(
                name: "StrayBook", managedObjectClass: StrayBook.self,
                properties: [
                    RelationshipDescription(name: "shelf", destination: "Shelf")
                ]),
        ])
    }

    private static func context(_ model: ManagedObjectModel? = nil) throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model ?? Self.model())
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test func settingAToOneUpdatesBothInversesAndReadsBackThroughEitherName() throws {
        let context = try Self.context()
        context.performAndWait {
            let a = Shelf(context: context)
            let b = Shelf(context: context)
            let book = Book(context: context)
            book.shelf = a
            #expect(book.shelf === a)
            #expect(book.home === a)
            #expect(book.value(forKey: "shelf") as? Shelf === a)
            #expect(a.books == [book])
            book.home = b
            #expect(book.shelf === b)
            #expect(a.books.isEmpty)
            #expect(b.books == [book])
            book.shelf = nil
            #expect(book.home == nil)
            #expect(b.books.isEmpty)
            #expect(book.changedValues()["shelf"] != nil)
        }
    }

    @Test func settingAToManyUpdatesTheMembersToOnes() throws {
        let context = try Self.context()
        context.performAndWait {
            let a = Shelf(context: context)
            let b = Shelf(context: context)
            let first = Book(context: context)
            let second = Book(context: context)
            a.books = [first, second]
            #expect(first.shelf === a)
            #expect(second.shelf === a)
            b.books = [second]
            #expect(second.shelf === b)
            #expect(a.books == [first])
            a.books = []
            #expect(first.shelf == nil)
            #expect(a.value(forKey: "books") as? Set<ManagedObject> == [])
        }
    }

    @Test func settingAnOrderedToManyKeepsTheOrderAndUpdatesTheToOnes() throws {
        let context = try Self.context()
        context.performAndWait {
            let shelf = Shelf(context: context)
            let first = Book(context: context)
            let second = Book(context: context)
            shelf.order = [second, first]
            #expect(shelf.order == [second, first])
            #expect(first.placement === shelf)
            shelf.order = [first, second]
            #expect(shelf.order == [first, second])
            second.placement = nil
            #expect(shelf.order == [first])
        }
    }

    @Test func aWrapperForNoRelationshipTrapsNamingTheKeyAndTheKindExpected() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try Self.context()
                context.performAndWait { StrayBook(context: context).missing = nil }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "@Relationship missing: entity StrayBook has no to-one relationship 'missing'"))
    }

    @Test func aToOneDeclaredAsAToManyTrapsNamingTheKindExpected() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try Self.context()
                context.performAndWait { _ = StrayBook(context: context).shelf }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(
            message.contains(
                "@Relationship shelf: entity StrayBook has no to-many relationship 'shelf'"))
    }

    @Test func relatingObjectsOfTwoLiveContextsTraps() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let model = try Self.model()
                let one = try Self.context(model)
                let two = try Self.context(model)
                let shelf = one.performAndWait { Shelf(context: one) }
                two.performAndWait { Book(context: two).shelf = shelf }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Book.shelf: cannot relate objects from different contexts"))
    }

    /// An object whose context was freed has no context: relating it to an object of a live
    /// context is not refused, as before, whichever context the live one is, a context
    /// allocated at the freed one's address included (the shelf still holds the freed
    /// context's token, which lives on with it, so no new context's token can share its
    /// address and the tokens always differ; the contexts are then loaded and the shelf's
    /// reads `nil`).
    @Test func anObjectWhoseContextIsGoneCanBeRelatedToOneInALiveContext() async throws {
        await #expect(processExitsWith: .success) {
            let model = try Self.model()
            // Alive throughout, so at another address than the context freed below.
            let other = try Self.context(model)
            var old: ManagedObjectContext? = try Self.context(model)
            let formerAddress = ObjectIdentifier(old!)
            // Not reset: the shelf keeps the token of its context, which is freed here.
            let shelf = old!.performAndWait { Shelf(context: old!) }
            old = nil
            #expect(shelf.managedObjectContext == nil)
            // New contexts until one lands where the old one was (or 64 tries).
            var contexts: [ManagedObjectContext] = [other]
            for _ in 0..<64 {
                let context = try Self.context(model)
                contexts.append(context)
                if ObjectIdentifier(context) == formerAddress { break }
            }
            for context in contexts {
                context.performAndWait {
                    let book = Book(context: context)
                    book.shelf = shelf
                    #expect(book.shelf === shelf)
                }
            }
        }
    }

    @Test func anObjectKeepsItsContextTokenInStepWithItsContext() throws {
        let context = try Self.context()
        context.performAndWait {
            let book = Book(context: context)
            #expect(book.contextToken === context.token)
            #expect(book.isIn(context))
            let detached = Book(entity: book.entity, insertInto: nil)
            #expect(detached.contextToken == nil)
            #expect(!detached.isIn(context))
            context.insert(detached)
            #expect(detached.contextToken === context.token)
            context.reset()
            #expect(book.managedObjectContext == nil)
            #expect(book.contextToken == nil)
            #expect(!book.isIn(context))
        }
    }
}
