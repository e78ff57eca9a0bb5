import Foundation
import ObjectGraph
import Testing

/// The shape of the relationship `Owner.link` → `Item` whose delete rule is under test.
enum LinkShape: String, CaseIterable, Sendable {
    case oneToOne, toOneOfMany, toMany, manyToMany, ordered, orderedManyToMany, noInverse

    var isToMany: Bool { ![.oneToOne, .toOneOfMany].contains(self) }
    var isOrdered: Bool { self == .ordered || self == .orderedManyToMany }
    /// The inverse on `Item`: none, to-one `owner` or to-many `owners`.
    var inverse: String? {
        switch self {
        case .noInverse: nil
        case .oneToOne, .toMany, .ordered: "owner"
        case .toOneOfMany, .manyToMany, .orderedManyToMany: "owners"
        }
    }
    /// Whether two owners can share the items (the inverse is to-many).
    var isShared: Bool { inverse == "owners" }

    func model(_ rule: DeleteRule) throws -> ManagedObjectModel {
        typealias A = AttributeDescription
        typealias R = RelationshipDescription
        var itemProperties: [PropertyDescription] = [A(name: "name", type: .string)]
        if let inverse {
            itemProperties.append(
                R(name: inverse, destination: "Owner", inverse: "link", isToMany: isShared))
        }
        return try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Owner",
                properties: [
                    A(name: "name", type: .string),
                    R(
                        name: "link", destination: "Item", inverse: inverse, isToMany: isToMany,
                        isOrdered: isOrdered,
                        deleteRule: rule),
                ]),
            EntityDescription(name: "Item", properties: itemProperties),
        ])
    }
}

extension SaveIntegrity {
    @Suite struct DeleteRuleTests {
        static let rules: [DeleteRule] = [.nullify, .cascade, .deny, .noAction]

        /// Seeds owner `a` (and, when items can be shared, owner `b`) linked to the items.
        private func seed(_ stack: Stack, _ shape: LinkShape) throws -> [String] {
            let context = stack.context()
            return try context.performAndWait {
                let names = shape.isToMany ? ["i1", "i2"] : ["i1"]
                let items = names.map { name in
                    let item = context.insertNewObject(forEntityName: "Item")
                    item.setValue(name, forKey: "name")
                    return item
                }
                for owner in shape.isShared ? ["a", "b"] : ["a"] {
                    let o = context.insertNewObject(forEntityName: "Owner")
                    o.setValue(owner, forKey: "name")
                    o.setValue(
                        shape.isToMany
                            ? (shape.isOrdered ? items as Any : Set(items) as Any) : items[0],
                        forKey: "link")
                }
                try context.save()
                return names
            }
        }

        private func names(_ value: Any?) -> [String] {
            let objects: [ManagedObject]
            switch value {
            case let o as ManagedObject: objects = [o]
            case let set as Set<ManagedObject>: objects = Array(set)
            case let array as [ManagedObject]: objects = array
            default: objects = []
            }
            return objects.compactMap { $0.value(forKey: "name") as? String }.sorted()
        }

        private func stored(_ stack: Stack) throws -> (
            owners: [String: [String]], items: [String: [String]]
        ) {
            let context = try stack.reopen().context()
            return try context.performAndWait {
                var owners: [String: [String]] = [:]
                for o in try context.fetch(FetchRequest<ManagedObject>(entityName: "Owner")) {
                    owners[o.value(forKey: "name") as! String] = names(o.value(forKey: "link"))
                }
                var items: [String: [String]] = [:]
                for i in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
                    items[i.value(forKey: "name") as! String] =
                        i.entity.relationshipsByName["owner"] != nil
                        ? names(i.value(forKey: "owner"))
                        : i.entity.relationshipsByName["owners"] != nil
                            ? names(i.value(forKey: "owners")) : []
                }
                return (owners, items)
            }
        }

        /// Deletes owner `a` in a fresh context (its relationship never loaded) and saves.
        private func deleteOwnerA(_ stack: Stack) throws -> (
            ManagedObjectContext, ManagedObject, NSError?
        ) {
            let context = stack.context()
            return try context.performAndWait {
                let owners = try context.fetch(FetchRequest<ManagedObject>(entityName: "Owner"))
                let a = owners.first { $0.value(forKey: "name") as? String == "a" }!
                context.delete(a)
                do { try context.save() } catch { return (context, a, error as NSError) }
                return (context, a, nil)
            }
        }

        @Test(arguments: rules, LinkShape.allCases)
        func eachDeleteRuleOnEachShape(_ rule: DeleteRule, _ shape: LinkShape) throws {
            let stack = try Stack(shape.model(rule), on: .inMemory)
            let itemNames = try seed(stack, shape)
            let itemRowsBefore = try stack.rows("Item")
            let before = try stack.allRows()
            let (context, a, error) = try deleteOwnerA(stack)
            let survivorsLink = shape.isShared ? ["b": itemNames] : [:]
            switch rule {
            case .nullify:
                #expect(error == nil)
                let after = try stored(stack)
                #expect(after.owners == survivorsLink)
                let expectedInverse = shape.inverse == nil ? [] : (shape.isShared ? ["b"] : [])
                #expect(
                    after.items
                        == Dictionary(uniqueKeysWithValues: itemNames.map { ($0, expectedInverse) })
                )
            case .cascade:
                #expect(error == nil)
                let after = try stored(stack)
                #expect(after.items.isEmpty)
                #expect(after.owners == (shape.isShared ? ["b": []] : [:]))
            case .deny:
                #expect(error?.code == NSValidationRelationshipDeniedDeleteError)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "link")
                #expect((error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === a)
                #expect(try stack.allRows() == before)
                try context.performAndWait {
                    #expect(a.isDeleted)
                    for item in try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")) {
                        context.delete(item)
                    }
                    try context.save()
                }
                let after = try stored(stack)
                #expect(after.items.isEmpty)
                #expect(after.owners == (shape.isShared ? ["b": []] : [:]))
            case .noAction:
                #expect(error == nil)
                #expect(try stack.rows("Item") == itemRowsBefore)
                #expect(try stack.rows("Owner").count == (shape.isShared ? 1 : 0))
            }
        }

        @Test(arguments: StoreKind.all)
        func cascadeReachesObjectsNeverLoaded(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.blogs(), on: kind)
            let seeder = stack.context()
            try seeder.performAndWait {
                let blog = seeder.insertNewObject(forEntityName: "Blog")
                for title in ["p1", "p2", "p3"] {
                    let post = seeder.insertNewObject(forEntityName: "BlogPost")
                    post.setValue(title, forKey: "title")
                    post.setValue(blog, forKey: "blog")
                }
                try seeder.save()
            }
            let context = stack.context()
            try context.performAndWait {
                let blog = try #require(
                    try context.fetch(FetchRequest<ManagedObject>(entityName: "Blog")).first)
                #expect(context.registeredObjects.count == 1)
                context.delete(blog)
                context.processPendingChanges()
                #expect(context.deletedObjects.count == 4)
                let posts = context.deletedObjects.filter { $0.entity.name == "BlogPost" }
                #expect(
                    Set(posts.compactMap { $0.value(forKey: "title") as? String }) == [
                        "p1", "p2", "p3",
                    ])
                try context.save()
            }
            #expect(try stack.reopen().rows("BlogPost").isEmpty)
            #expect(try stack.reopen().rows("Blog").isEmpty)
        }

        @Test func cascadeRunsThroughCyclesAndStops() throws {
            let model = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Node",
                    properties: [
                        AttributeDescription(name: "name", type: .string),
                        RelationshipDescription(
                            name: "next", destination: "Node", inverse: "previous",
                            deleteRule: .cascade),
                        RelationshipDescription(
                            name: "previous", destination: "Node", inverse: "next",
                            deleteRule: .cascade),
                        RelationshipDescription(
                            name: "friends", destination: "Node", inverse: "friends",
                            isToMany: true,
                            deleteRule: .cascade),
                    ])
            ])
            let stack = try Stack(model, on: .inMemory)
            let seeder = stack.context()
            try seeder.performAndWait {
                let ring = (0..<4).map { i in
                    let n = seeder.insertNewObject(forEntityName: "Node")
                    n.setValue("n\(i)", forKey: "name")
                    return n
                }
                for i in 0..<3 { ring[i].setValue(ring[i + 1], forKey: "next") }
                let loner = seeder.insertNewObject(forEntityName: "Node")
                loner.setValue("loner", forKey: "name")
                let buddy = seeder.insertNewObject(forEntityName: "Node")
                buddy.setValue("buddy", forKey: "name")
                ring[3].setValue(Set([buddy]), forKey: "friends")
                try seeder.save()
            }
            let context = stack.context()
            try context.performAndWait {
                let nodes = try context.fetch(FetchRequest<ManagedObject>(entityName: "Node"))
                context.delete(nodes.first { $0.value(forKey: "name") as? String == "n2" }!)
                try context.save()
            }
            #expect(try stack.rows("Node").map { $0["name"]?.attributeValue } == ["loner"])
        }

        /// B12: clearing a required to-one fails the save with 1570; nothing is deleted.
        @Test(arguments: StoreKind.all)
        func clearingARequiredToOneFailsTheSaveAndDeletesNothing(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.blogs(), on: kind)
            let seeder = stack.context()
            try seeder.performAndWait {
                let blog = seeder.insertNewObject(forEntityName: "Blog")
                let post = seeder.insertNewObject(forEntityName: "BlogPost")
                post.setValue(blog, forKey: "blog")
                try seeder.save()
            }
            let before = try stack.allRows()
            let context = stack.context()
            try context.performAndWait {
                let post = try #require(
                    try context.fetch(FetchRequest<ManagedObject>(entityName: "BlogPost")).first)
                post.setValue(nil, forKey: "blog")
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMissingMandatoryPropertyError)
                #expect((error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === post)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "blog")
                #expect(!post.isDeleted)
            }
            #expect(try stack.allRows() == before)
        }

        @Test func nullifyingAMandatoryToOneMakesItsObjectInvalid() throws {
            let model = try ManagedObjectModel(entities: [
                EntityDescription(
                    name: "Blog",
                    properties: [
                        RelationshipDescription(
                            name: "posts", destination: "BlogPost", inverse: "blog", isToMany: true)
                    ]),
                EntityDescription(
                    name: "BlogPost",
                    properties: [
                        RelationshipDescription(
                            name: "blog", destination: "Blog", inverse: "posts", isOptional: false)
                    ]),
            ])
            let stack = try Stack(model, on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let blog = context.insertNewObject(forEntityName: "Blog")
                let post = context.insertNewObject(forEntityName: "BlogPost")
                post.setValue(blog, forKey: "blog")
                try context.save()
                context.delete(blog)
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMissingMandatoryPropertyError)
                #expect((error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === post)
            }
            #expect(try stack.rows("Blog").count == 1)
        }

        /// B13: deny is checked at save; delete() itself never throws.
        @Test(arguments: StoreKind.all)
        func theDenyRuleRefusesAtSaveUntilTheDestinationsGoToo(_ kind: StoreKind) throws {
            let stack = try Stack(IntegrityModels.blogs(), on: kind)
            let seeder = stack.context()
            try seeder.performAndWait {
                let c = seeder.insertNewObject(forEntityName: "Category")
                c.setValue("c", forKey: "name")
                let g = seeder.insertNewObject(forEntityName: "Group")
                g.setValue(c, forKey: "category")
                let empty = seeder.insertNewObject(forEntityName: "Category")
                empty.setValue("empty", forKey: "name")
                try seeder.save()
            }
            let before = try stack.allRows()
            let context = stack.context()
            try context.performAndWait {
                let categories = try context.fetch(
                    FetchRequest<ManagedObject>(entityName: "Category"))
                let c = categories.first { $0.value(forKey: "name") as? String == "c" }!
                context.delete(c)
                #expect(c.isDeleted)
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationRelationshipDeniedDeleteError)
                #expect((error?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === c)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "groups")
                #expect(try stack.allRows() == before)
                let g = try #require(
                    try context.fetch(FetchRequest<ManagedObject>(entityName: "Group")).first)
                context.delete(g)
                try context.save()
                context.delete(categories.first { $0.value(forKey: "name") as? String == "empty" }!)
                try context.save()
            }
            #expect(try stack.rows("Category").isEmpty)
            #expect(try stack.rows("Group").isEmpty)
        }

        @Test(arguments: StoreKind.all)
        func deletingANeverSavedObjectNullifiesWhatItReachedEvenUnderDeny(_ kind: StoreKind) throws
        {
            let stack = try Stack(IntegrityModels.blogs(), on: kind)
            let context = stack.context()
            try context.performAndWait {
                let c = context.insertNewObject(forEntityName: "Category")
                let g = context.insertNewObject(forEntityName: "Group")
                g.setValue(c, forKey: "category")
                context.delete(c)
                context.processPendingChanges()
                #expect(g.value(forKey: "category") == nil)
                #expect(context.registeredObject(for: c.objectID) == nil)
                try context.save()
            }
            #expect(try stack.rows("Group").first?["category"] == .toOne(nil))
            #expect(try stack.rows("Category").isEmpty)
        }
    }
}
