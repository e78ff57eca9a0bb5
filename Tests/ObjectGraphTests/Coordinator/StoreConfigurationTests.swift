import Foundation
import ObjectGraph
import Testing

/// Model configurations route new objects to stores, and `assign(_:to:)` chooses among
/// stores that could take one (Core Data: "It is only necessary to use this method if the
/// receiver's persistent store coordinator manages multiple writable stores that have
/// object's entity in their configuration", NSManagedObjectContext `assign(_:to:)`; Apple's
/// sample "Linking Data Between Two Core Data Stores" puts each configuration's entities in
/// its own store and links them with a fetched property, since relationships do not cross
/// stores).
@Suite struct StoreConfigurationTests {
    /// Book ⟷ Tag, many to many (new entity descriptions each call).
    static func bookAndTag() -> [EntityDescription] {
        [
            EntityDescription(
                name: "Book",
                properties: [
                    AttributeDescription(name: "title", type: .string),
                    RelationshipDescription(
                        name: "tags", destination: "Tag", inverse: "books", isToMany: true,
                        deleteRule: .nullify),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "books", destination: "Book", inverse: "tags", isToMany: true,
                        deleteRule: .nullify),
                ]),
        ]
    }

    /// Book ⟷ Tag in configuration "Books", Feedback alone in "Feedback".
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: bookAndTag() + [
                EntityDescription(
                    name: "Feedback",
                    properties: [
                        AttributeDescription(name: "bookTitle", type: .string),
                        // One way (no inverse): only the feedback's row names the book.
                        RelationshipDescription(name: "book", destination: "Book"),
                    ])
            ],
            configurations: ["Books": ["Book", "Tag"], "Feedback": ["Feedback"]])
    }

    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case ram, file
        var testDescription: String { rawValue }

        func description(configuration: String? = nil, readOnly: Bool = false)
            -> PersistentStoreDescription
        {
            let description =
                self == .ram
                ? PersistentStoreDescription()
                : PersistentStoreDescription(url: TemporaryStoreFiles.next("config"))
            description.configuration = configuration
            description.isReadOnly = readOnly
            return description
        }
    }

    private func insert(
        _ entity: String, _ key: String, _ value: String, _ context: ManagedObjectContext
    )
        -> ManagedObject
    {
        let object = context.insertNewObject(forEntityName: entity)
        object.setValue(value, forKey: key)
        return object
    }

    @Test(arguments: Kind.allCases)
    func newObjectsGoToTheStoreWhoseConfigurationHasTheirEntity(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let books = try coordinator.addPersistentStore(
            with: kind.description(configuration: "Books"))
        let feedback = try coordinator.addPersistentStore(
            with: kind.description(configuration: "Feedback"))
        #expect(books.configurationName == "Books")
        #expect(feedback.configurationName == "Feedback")
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            // Feedback first: the first store added (Books) does not hold it.
            let note = insert("Feedback", "bookTitle", "Dune", context)
            let book = insert("Book", "title", "Dune", context)
            let tag = insert("Tag", "name", "sf", context)
            book.mutableSetValue(forKey: "tags").add(tag)
            try context.save()
            #expect(note.objectID.storeIdentifier == feedback.identifier)
            #expect(book.objectID.storeIdentifier == books.identifier)
            #expect(tag.objectID.storeIdentifier == books.identifier)
            #expect(try feedback.row(for: note.objectID) != nil)
            #expect(try books.row(for: book.objectID)?["tags"] == .toMany([tag.objectID]))
            let inBooks = StoreFetchRequest(entity: note.entity)
            #expect(try books.fetch(inBooks).isEmpty)
            #expect(try feedback.fetch(StoreFetchRequest(entity: book.entity)).isEmpty)
        }
        // A fresh context reads both stores through the coordinator.
        let reader = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let counts = try reader.performAndWait {
            try ["Feedback", "Book"].map {
                try reader.count(for: FetchRequest<ManagedObject>(entityName: $0))
            }
        }
        #expect(counts == [1, 1])
    }

    /// Regression: new objects went to the first store added, even a read-only one, so a
    /// read-only store added before the writable one made every insert save fail.
    @Test(arguments: Kind.allCases)
    func aReadOnlyStoreIsPassedOverForNewObjects(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let bundled = try coordinator.addPersistentStore(with: Kind.ram.description(readOnly: true))
        let user = try coordinator.addPersistentStore(with: kind.description())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let book = insert("Book", "title", "Emma", context)
            try context.save()
            #expect(book.objectID.storeIdentifier == user.identifier)
            #expect(try user.row(for: book.objectID) != nil)
            #expect(try bundled.fetch(StoreFetchRequest(entity: book.entity)).isEmpty)
        }
    }

    @Test(arguments: Kind.allCases)
    func assignChoosesTheStoreOfANewObject(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let first = try coordinator.addPersistentStore(with: kind.description())
        let second = try coordinator.addPersistentStore(with: kind.description())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let a = insert("Book", "title", "A", context)
            let b = insert("Book", "title", "B", context)
            let c = insert("Book", "title", "C", context)
            context.assign(b, to: second)
            // obtainPermanentIDs honours the choice too.
            let d = insert("Book", "title", "D", context)
            context.assign(d, to: second)
            try context.obtainPermanentIDs(for: [d])
            #expect(d.objectID.storeIdentifier == second.identifier)
            try context.save()
            #expect(a.objectID.storeIdentifier == first.identifier)
            #expect(b.objectID.storeIdentifier == second.identifier)
            #expect(c.objectID.storeIdentifier == first.identifier)
            #expect(try second.row(for: b.objectID)?["title"] == .attribute(.string("B")))
            #expect(try second.row(for: d.objectID)?["title"] == .attribute(.string("D")))
            #expect(try first.fetch(StoreFetchRequest(entity: a.entity)).count == 2)
        }
    }

    @Test func aChildContextsAssignmentGoesUpWithItsSave() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        _ = try coordinator.addPersistentStore(with: Kind.ram.description())
        let second = try coordinator.addPersistentStore(with: Kind.ram.description())
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        let id = try child.performAndWait {
            let book = insert("Book", "title", "Up", child)
            child.assign(book, to: second)
            try child.save()
            return book.objectID
        }
        try parent.performAndWait {
            try parent.save()
            let saved = try parent.fetch(FetchRequest<ManagedObject>(entityName: "Book"))
            #expect(saved.count == 1)
            #expect(saved.first?.objectID.storeIdentifier == second.identifier)
            #expect(id.isTemporaryID)
        }
    }

    @Test func rollbackForgetsAnAssignment() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let first = try coordinator.addPersistentStore(with: Kind.ram.description())
        let second = try coordinator.addPersistentStore(with: Kind.ram.description())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let book = insert("Book", "title", "Again", context)
            context.assign(book, to: second)
            context.rollback()
            // Inserted again (it keeps its temporary ID), it is a new insert: the coordinator
            // chooses its store.
            context.insert(book)
            try context.save()
            #expect(book.objectID.storeIdentifier == first.identifier)
            #expect(try second.fetch(StoreFetchRequest(entity: book.entity)).isEmpty)
        }
    }

    @Test(arguments: Kind.allCases)
    func anUnknownConfigurationIsRefusedWhenTheStoreIsAdded(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let description = kind.description(configuration: "Bookz")
        let error = try #require(throws: ObjectGraphError.self) {
            try coordinator.addPersistentStore(with: description)
        }
        #expect(error.code == 134060)
        #expect(error.reason == .invalidConfiguration)
        #expect(error.message.contains("'Bookz'"))
        #expect(error.message.contains("'Books', 'Feedback'"))
        #expect(coordinator.persistentStores.isEmpty)
        if kind == .file {
            #expect(!FileManager.default.fileExists(atPath: description.url!.path))
        }
        // Xcode's name for the default configuration is accepted.
        let store = try coordinator.addPersistentStore(
            with: kind.description(configuration: "Default"))
        #expect(store.configurationName == "Default")
    }

    @Test(arguments: Kind.allCases)
    func aSaveNoStoreCanTakeFailsNamingTheStoresAndChangesNothing(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let feedback = try coordinator.addPersistentStore(
            with: kind.description(configuration: "Feedback"))
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let note = insert("Feedback", "bookTitle", "X", context)
            let book = insert("Book", "title", "X", context)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == 134030)
            #expect(error.entityName == "Book")
            #expect(error.message.contains("\(feedback.identifier) holds configuration 'Feedback'"))
            #expect(book.objectID.isTemporaryID && note.objectID.isTemporaryID)
            #expect(try feedback.fetch(StoreFetchRequest(entity: note.entity)).isEmpty)
            #expect(context.insertedObjects.count == 2)
            // With a store for books, the same save goes through.
            let books = try coordinator.addPersistentStore(
                with: kind.description(configuration: "Books"))
            try context.save()
            #expect(book.objectID.storeIdentifier == books.identifier)
            #expect(note.objectID.storeIdentifier == feedback.identifier)
        }
    }

    @Test func aSaveToAnAssignedStoreThatWasRemovedFails() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let first = try coordinator.addPersistentStore(with: Kind.ram.description())
        let second = try coordinator.addPersistentStore(with: Kind.ram.description())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let book = insert("Book", "title", "Lost", context)
            context.assign(book, to: second)
            try coordinator.remove(second)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == 134030)
            #expect(error.message.contains("no longer open"))
            #expect(book.objectID.isTemporaryID)
            #expect(try first.fetch(StoreFetchRequest(entity: book.entity)).isEmpty)
        }
    }

    /// A relationship between objects of two stores fails the save with 1550 before either
    /// store commits: nothing is written to either.
    @Test(arguments: Kind.allCases)
    func aRelationshipAcrossStoresFailsTheSaveBeforeAnyStoreCommits(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let first = try coordinator.addPersistentStore(with: kind.description())
        let second = try coordinator.addPersistentStore(with: kind.description())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let book = insert("Book", "title", "Split", context)
            let tag = insert("Tag", "name", "apart", context)
            book.mutableSetValue(forKey: "tags").add(tag)
            context.assign(tag, to: second)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == 1550)
            #expect(error.message.contains("cannot cross stores"))
            #expect(
                error.message.contains(first.identifier)
                    && error.message.contains(second.identifier))
            #expect(error.userInfo[NSValidationObjectErrorKey] as? ManagedObject != nil)
            #expect(book.objectID.isTemporaryID && tag.objectID.isTemporaryID)
            for store in [first, second] {
                #expect(try store.fetch(StoreFetchRequest(entity: book.entity)).isEmpty)
                #expect(try store.fetch(StoreFetchRequest(entity: tag.entity)).isEmpty)
            }
            // Both in one store: the same objects save.
            context.assign(tag, to: first)
            try context.save()
            #expect(tag.objectID.storeIdentifier == first.identifier)
            #expect(try first.row(for: book.objectID)?["tags"] == .toMany([tag.objectID]))
        }
    }

    /// Regression for the order of the stores' commits: the store that sorts first holds the
    /// book and would have committed it before the second store refused the feedback that
    /// points at it, leaving half the save written.
    @Test(arguments: Kind.allCases)
    func aOneWayReferenceAcrossStoresWritesNeitherStore(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        var stores: [any PersistentStore] = []
        for identifier in [
            "00000000-0000-4000-8000-000000000001", "FFFFFFFF-0000-4000-8000-000000000002",
        ] {
            let description = kind.description()
            description.storeOptions.storeIdentifier = identifier
            stores.append(try coordinator.addPersistentStore(with: description))
        }
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let book = insert("Book", "title", "Here", context)
            let note = insert("Feedback", "bookTitle", "There", context)
            note.setValue(book, forKey: "book")
            context.assign(book, to: stores[0])
            context.assign(note, to: stores[1])
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == 1550)
            #expect(error.key == "book")
            #expect(error.message.contains("cannot cross stores"))
            #expect(try stores[0].fetch(StoreFetchRequest(entity: book.entity)).isEmpty)
            #expect(try stores[1].fetch(StoreFetchRequest(entity: note.entity)).isEmpty)
            #expect(book.objectID.isTemporaryID && note.objectID.isTemporaryID)
        }
    }

    @Test func persistentStoreForURLFindsAFileStore() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let description = Kind.file.description()
        let store = try coordinator.addPersistentStore(with: description)
        #expect(coordinator.persistentStore(for: description.url!) === store)
        #expect(coordinator.persistentStore(for: TemporaryStoreFiles.next("none")) == nil)
    }
}
