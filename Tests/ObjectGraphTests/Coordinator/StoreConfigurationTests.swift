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

    /// A parent over two RAM stores, a child of it, and the second store.
    static func childOverTwoStores() throws -> (
        parent: ManagedObjectContext, child: ManagedObjectContext, second: any PersistentStore
    ) {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        _ = try coordinator.addPersistentStore(with: Kind.ram.description())
        let second = try coordinator.addPersistentStore(with: Kind.ram.description())
        let parent = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        let child = ManagedObjectContext(concurrencyType: .privateQueue)
        child.parent = parent
        return (parent, child, second)
    }

    @Test func aChildContextsAssignmentGoesUpWithItsSave() throws {
        let (parent, child, second) = try Self.childOverTwoStores()
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
            #expect(saved.first?.objectID != id)
        }
    }

    /// Review finding: the child forgot its choice when its save handed it up, so making the
    /// child's object permanent there took a key from the first store.
    @Test func aChildKeepsItsAssignmentAfterItsSaveForObtainPermanentIDs() throws {
        let (_, child, second) = try Self.childOverTwoStores()
        let store = try child.performAndWait {
            let book = insert("Book", "title", "Kept", child)
            child.assign(book, to: second)
            try child.save()
            try child.obtainPermanentIDs(for: [book])
            return book.objectID.storeIdentifier
        }
        #expect(store == second.identifier)
    }

    /// Review finding: a save writing to two stores, one of them read-only, wrote the other
    /// (its identifier sorts first) before the read-only one refused, and a retry wrote it again.
    @Test func aSaveTouchingAReadOnlyStoreWritesNoStore() throws {
        let model = try Self.model()
        let catalogURL = TemporaryStoreFiles.next("catalog")
        let book = model.entitiesByName["Book"]!
        do {
            var options = StoreOptions()
            options.storeIdentifier = "FFFFFFFF-0000-4000-8000-000000000009"
            let writer = try JSONLinesStore(model: model, url: catalogURL, options: options)
            try writer.commit(
                StoreChangeSet(
                    inserted: [
                        StoreRow(
                            objectID: ManagedObjectID(
                                entity: book, storeIdentifier: writer.identifier,
                                primaryKey: try writer.allocatePrimaryKeys(for: book, count: 1)[0]),
                            version: 1,
                            values: [.attribute(.string("Old")), .toMany([])])
                    ], timestamp: Date(timeIntervalSinceReferenceDate: 0)))
            writer.close()
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let catalog = PersistentStoreDescription(url: catalogURL)
        catalog.isReadOnly = true
        let readOnly = try coordinator.addPersistentStore(with: catalog)
        let userDescription = Kind.ram.description()
        userDescription.storeOptions.storeIdentifier = "00000000-0000-4000-8000-000000000009"
        let user = try coordinator.addPersistentStore(with: userDescription)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let old = try #require(
                try context.fetch(FetchRequest<ManagedObject>(entityName: "Book")).first)
            old.setValue("Edited", forKey: "title")
            let note = insert("Feedback", "bookTitle", "New", context)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.reason == .readOnlyStore)
            #expect(note.objectID.isTemporaryID)
            #expect(try user.fetch(StoreFetchRequest(entity: note.entity)).isEmpty)
            #expect(
                try readOnly.fetch(StoreFetchRequest(entity: book)).first?["title"]
                    == .attribute(.string("Old")))
        }
    }

    /// Review finding: a store moved with `migratePersistentStore` lost its configuration and
    /// took every entity.
    @Test func aMigratedStoreKeepsItsConfiguration() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let feedback = try coordinator.addPersistentStore(
            with: Kind.ram.description(configuration: "Feedback"))
        let books = try coordinator.addPersistentStore(
            with: Kind.ram.description(configuration: "Books"))
        let moved = try coordinator.migratePersistentStore(
            feedback, to: TemporaryStoreFiles.next("moved"), type: JSONLinesStore.storeType)
        #expect(moved.configurationName == "Feedback")
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            let book = insert("Book", "title", "Where", context)
            try context.save()
            #expect(book.objectID.storeIdentifier == books.identifier)
        }
    }

    /// Uniqueness constraints hold within a store, as each Core Data SQLite file enforces its
    /// own: the same name in two stores is no clash, in one store it is (review finding: the
    /// check read every store's rows).
    @Test func aUniquenessConstraintHoldsWithinEachStore() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Label", properties: [AttributeDescription(name: "name", type: .string)],
                uniquenessConstraints: [["name"]])
        ])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        let first = try coordinator.addPersistentStore(with: Kind.ram.description())
        let second = try coordinator.addPersistentStore(with: Kind.ram.description())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            _ = insert("Label", "name", "x", context)
            try context.save()
            let elsewhere = insert("Label", "name", "x", context)
            context.assign(elsewhere, to: second)
            try context.save()
            #expect(elsewhere.objectID.storeIdentifier == second.identifier)
            let same = insert("Label", "name", "x", context)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == 133021)
            #expect(same.objectID.isTemporaryID)
            #expect(try first.fetch(StoreFetchRequest(entity: same.entity)).count == 1)
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

    /// A relationship between objects of two stores (both sides stored) fails the save with
    /// 1550, and nothing is written to either store (the one-way test below is the one that
    /// needs the coordinator's check before any commit).
    @Test(arguments: Kind.allCases)
    func aRelationshipAcrossStoresFailsTheSave(_ kind: Kind) throws {
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

    /// `affectedStores` restricts fetches (objects, counts, dictionaries, pending objects)
    /// and batch requests to the stores it lists (Core Data: "Restricts the request to the
    /// listed stores", `NSPersistentStoreRequest.affectedStores`).
    @Test(arguments: Kind.allCases)
    func affectedStoresRestrictFetchesAndBatchRequests(_ kind: Kind) throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try Self.model())
        let first = try coordinator.addPersistentStore(with: kind.description())
        let second = try coordinator.addPersistentStore(with: kind.description())
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            for (title, store) in [("a1", first), ("a2", first), ("b1", second)] {
                context.assign(insert("Book", "title", title, context), to: store)
            }
            try context.save()
            // Pending: one more in each store, unsaved.
            context.assign(insert("Book", "title", "b2", context), to: second)
            _ = insert("Book", "title", "a3", context)
            func titles(_ stores: [any PersistentStore]?) throws -> [String] {
                let request = FetchRequest<ManagedObject>(entityName: "Book")
                request.affectedStores = stores
                request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
                #expect(try context.count(for: request) == context.fetch(request).count)
                return try context.fetch(request).map { $0.value(forKey: "title") as! String }
            }
            #expect(try titles(nil) == ["a1", "a2", "a3", "b1", "b2"])
            #expect(try titles([first]) == ["a1", "a2", "a3"])
            #expect(try titles([second]) == ["b1", "b2"])
            let names = FetchRequest<[String: Any]>(entityName: "Book")
            names.resultType = .dictionaryResultType
            names.propertiesToFetch = ["title"]
            names.affectedStores = [second]
            #expect(try context.fetch(names).compactMap { $0["title"] as? String } == ["b1"])
            try context.save()

            let update = BatchUpdateRequest(entityName: "Book")
            update.propertiesToUpdate = ["title": "changed"]
            update.affectedStores = [second]
            update.resultType = .updatedObjectIDsResultType
            let updated = try context.execute(update).result as? [ManagedObjectID] ?? []
            #expect(updated.count == 2)
            #expect(updated.allSatisfy { $0.storeIdentifier == second.identifier })
            let firstRows = try first.fetch(
                StoreFetchRequest(entity: coordinator.managedObjectModel.entitiesByName["Book"]!))
            #expect(firstRows.allSatisfy { $0["title"] != .attribute(.string("changed")) })

            let fetch = FetchRequest<ManagedObject>(entityName: "Book")
            fetch.affectedStores = [first]
            let delete = BatchDeleteRequest(fetchRequest: fetch)
            delete.resultType = .resultTypeCount
            #expect(try context.execute(delete).result as? Int == 3)
            #expect(
                try first.fetch(StoreFetchRequest(entity: firstRows[0].objectID.entity)).isEmpty)
            #expect(
                try second.fetch(StoreFetchRequest(entity: firstRows[0].objectID.entity)).count == 2
            )

            let batchInsert = BatchInsertRequest(entityName: "Book", objects: [["title": "bulk"]])
            batchInsert.affectedStores = [second]
            batchInsert.resultType = .objectIDs
            let inserted = try context.execute(batchInsert).result as? [ManagedObjectID] ?? []
            #expect(inserted.count == 1 && inserted[0].storeIdentifier == second.identifier)
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
