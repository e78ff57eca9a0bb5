import Foundation
import ObjectGraph
import Testing

extension SaveIntegrity {
    /// A new object's values and the row its insert writes (issue 25's W1): every new object
    /// starts from its entity's defaults and owns its values, each slot kind reaches the row
    /// as the store keeps it, and linking to a to-many that is still a relationship fault
    /// loads it first.
    @Suite struct InsertedObjectValuesTests {
        /// `Shelf(label = "new", scratch transient)` ⟷ `Book(title)` (the to-many derived from
        /// `Book.shelf`), and `Shelf.tags` ⟷ `Tag.shelves` (many-to-many, kept in the rows).
        private func model() throws -> ManagedObjectModel {
            try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Shelf",
                    properties: [
                        AttributeDescription(name: "label", type: .string, defaultValue: "new"),
                        AttributeDescription(name: "scratch", type: .string, isTransient: true),
                        RelationshipDescription(
                            name: "books", destination: "Book", inverse: "shelf", isToMany: true),
                        RelationshipDescription(
                            name: "tags", destination: "Tag", inverse: "shelves", isToMany: true),
                    ]),
                EntityDescription(
                    name: "Book",
                    properties: [
                        AttributeDescription(name: "title", type: .string),
                        RelationshipDescription(
                            name: "shelf", destination: "Shelf", inverse: "books"),
                    ]),
                EntityDescription(
                    name: "Tag",
                    properties: [
                        AttributeDescription(name: "name", type: .string),
                        RelationshipDescription(
                            name: "shelves", destination: "Shelf", inverse: "tags", isToMany: true),
                    ]),
            ])
        }

        private func members(_ object: ManagedObject, _ key: String) -> Set<ManagedObject> {
            object.value(forKey: key) as? Set<ManagedObject> ?? []
        }

        /// Two shelves inserted one after the other: changing every kind of slot of the first
        /// leaves the second with the entity's defaults (label "new", no scratch, no books,
        /// no tags) and no changes, and the second's own changes leave the first as it was.
        @Test(arguments: StoreKind.all)
        func aNewObjectStartsFromTheDefaultsAndSharesNothingWithTheNext(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let first = context.insertNewObject(forEntityName: "Shelf")
                #expect(first.value(forKey: "label") as? String == "new")
                first.setValue("A", forKey: "label")
                first.setValue("draft", forKey: "scratch")
                let book = context.insertNewObject(forEntityName: "Book")
                book.setValue(first, forKey: "shelf")
                let tag = context.insertNewObject(forEntityName: "Tag")
                first.add(tag, toRelationship: "tags")
                let second = context.insertNewObject(forEntityName: "Shelf")
                #expect(second.value(forKey: "label") as? String == "new")
                #expect(second.value(forKey: "scratch") == nil)
                #expect(members(second, "books").isEmpty)
                #expect(members(second, "tags").isEmpty)
                #expect(second.changedValues().isEmpty)
                let other = context.insertNewObject(forEntityName: "Book")
                other.setValue(second, forKey: "shelf")
                second.setValue("B", forKey: "label")
                #expect(first.value(forKey: "label") as? String == "A")
                #expect(members(first, "books") == [book])
                #expect(members(second, "books") == [other])
                #expect(members(first, "tags") == [tag])
                try context.save()
                let labels = try stack.rows("Shelf").map { $0.values[0] }
                #expect(Set(labels) == [.attribute(.string("A")), .attribute(.string("B"))])
            }
        }

        /// The rows of an insert save: an attribute's value, `.notStored` for a transient
        /// attribute and for the to-many the store derives from `Book.shelf`, a to-one's new
        /// ID, and a kept to-many's new IDs in order, without a member deleted before the save.
        @Test(arguments: StoreKind.all)
        func insertedRowsCarryEachSlotKindsValue(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let shelf = context.insertNewObject(forEntityName: "Shelf")
                shelf.setValue("A", forKey: "label")
                shelf.setValue("draft", forKey: "scratch")
                let book = context.insertNewObject(forEntityName: "Book")
                book.setValue("Kim", forKey: "title")
                book.setValue(shelf, forKey: "shelf")
                let tags = (0..<3).map { i in
                    let tag = context.insertNewObject(forEntityName: "Tag")
                    tag.setValue("t\(i)", forKey: "name")
                    shelf.add(tag, toRelationship: "tags")
                    return tag
                }
                context.delete(tags[1])
                try context.save()
                let shelfRow = try #require(stack.rows("Shelf").first)
                #expect(shelfRow.objectID == shelf.objectID)
                #expect(shelfRow.values[0] == .attribute(.string("A")))
                #expect(shelfRow.values[1] == .notStored)
                #expect(shelfRow.values[2] == .notStored)
                #expect(shelfRow.values[3] == .toMany([tags[0].objectID, tags[2].objectID]))
                let bookRow = try #require(stack.rows("Book").first)
                #expect(bookRow.values[0] == .attribute(.string("Kim")))
                #expect(bookRow.values[1] == .toOne(shelf.objectID))
                #expect(try stack.rows("Tag").count == 2)
            }
        }

        /// A saved shelf fetched again in a new context keeps its to-manys as relationship
        /// faults; a new book set to it, a book moved off it, and a new tag linked to it load
        /// them first, so they hold the stored members and the change, in the context and in
        /// the store after the save.
        @Test(arguments: StoreKind.all)
        func linkingToAnUnloadedToManyLoadsItFirst(kind: StoreKind) throws {
            let stack = try Stack(try model(), on: kind)
            let seeding = stack.context()
            try seeding.performAndWait {
                let shelf = seeding.insertNewObject(forEntityName: "Shelf")
                for title in ["a", "b"] {
                    let book = seeding.insertNewObject(forEntityName: "Book")
                    book.setValue(title, forKey: "title")
                    book.setValue(shelf, forKey: "shelf")
                }
                let tag = seeding.insertNewObject(forEntityName: "Tag")
                shelf.add(tag, toRelationship: "tags")
                try seeding.save()
            }
            let context = stack.context()
            try context.performAndWait {
                let shelf = try #require(
                    try context.fetch(FetchRequest<ManagedObject>(entityName: "Shelf")).first)
                let books = try context.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
                let b = try #require(books.first { $0.value(forKey: "title") as? String == "b" })
                let added = context.insertNewObject(forEntityName: "Book")
                added.setValue("c", forKey: "title")
                added.setValue(shelf, forKey: "shelf")
                b.setValue(nil, forKey: "shelf")
                let tag = context.insertNewObject(forEntityName: "Tag")
                tag.setValue(Set([shelf]), forKey: "shelves")
                let titles = members(shelf, "books").map { $0.value(forKey: "title") as? String }
                #expect(Set(titles) == ["a", "c"])
                #expect(members(shelf, "tags").count == 2)
                try context.save()
            }
            let reopened = try stack.reopen()
            let check = reopened.context()
            try check.performAndWait {
                let shelf = try #require(
                    try check.fetch(FetchRequest<ManagedObject>(entityName: "Shelf")).first)
                let titles = members(shelf, "books").map { $0.value(forKey: "title") as? String }
                #expect(Set(titles) == ["a", "c"])
                #expect(members(shelf, "tags").count == 2)
            }
        }
    }
}
