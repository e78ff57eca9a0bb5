import Foundation
import Testing

@testable import ObjectGraph

/// A saved insert's row is written under its new permanent ID, whether the save finds that ID
/// in allocation order (inserts of one entity in a run) or looks it up (entities interleaved,
/// an insert that had a permanent ID already), and the references between the inserts name
/// the same IDs.
@Suite struct SavedInsertIDTests {
    /// `A` and `B`, each with a name, a one-to-one `partner` (stored on both sides) and a
    /// many-to-many `links` / `linkedBy` (stored on both sides).
    private static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            entity("A", other: "B", links: "links", inverse: "linkedBy"),
            entity("B", other: "A", links: "linkedBy", inverse: "links"),
        ])
    }

    /// Entity `name`: a name, a to-one `partner` to `other` (its inverse `partner`) and a
    /// to-many `links` to `other` (its inverse `inverse`).
    private static func entity(_ name: String, other: String, links: String, inverse: String)
        -> EntityDescription
    {
        EntityDescription(
            name: name,
            properties: [
                AttributeDescription(name: "name", type: .string),
                RelationshipDescription(name: "partner", destination: other, inverse: "partner"),
                RelationshipDescription(
                    name: links, destination: other, inverse: inverse, isToMany: true),
            ])
    }

    /// Expects each object's stored row to be under its ID, of its entity, with its name, its
    /// partner's ID and its linked objects' IDs.
    private static func expectRows(
        _ objects: [ManagedObject], in store: any PersistentStore
    ) throws {
        #expect(Set(objects.map(\.objectID)).count == objects.count)
        for object in objects {
            let id = object.objectID
            #expect(!id.isTemporaryID)
            let row = try #require(try store.row(for: id))
            #expect(row.objectID == id && id.entity === object.entity)
            let name = try #require(object.value(forKey: "name") as? String)
            #expect(row["name"] == .attribute(.string(name)), "\(name)")
            let partner = object.value(forKey: "partner") as? ManagedObject
            #expect(row["partner"] == .toOne(partner?.objectID), "\(name)")
            let key = object.entity.name == "A" ? "links" : "linkedBy"
            let linked = (object.value(forKey: key) as? Set<ManagedObject>) ?? []
            guard case .toMany(let ids)? = row[key] else {
                Issue.record("\(name)'s row keeps no \(key)")
                continue
            }
            #expect(Set(ids) == Set(linked.map(\.objectID)), "\(name)")
            #expect(ids.count == linked.count, "\(name)")
        }
    }

    /// Inserts of two entities interleaved (A, B, A, B, …: the IDs are allocated entity by
    /// entity, so most are not where a walk in insertion order would find them) and one insert
    /// that obtained its permanent ID before the save: every row names the right IDs.
    @Test(arguments: StoreKind.all)
    func interleavedInsertsAndAnInsertWithAPermanentIDAreSavedUnderTheirOwnIDs(
        _ kind: StoreKind
    ) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            func insert(_ entity: String, _ name: String) -> ManagedObject {
                let object = context.insertNewObject(forEntityName: entity)
                object.setValue(name, forKey: "name")
                return object
            }
            var objects: [ManagedObject] = []
            var pairs: [(a: ManagedObject, b: ManagedObject)] = []
            for i in 0..<3 {
                let a = insert("A", "a\(i)")
                let b = insert("B", "b\(i)")
                a.setValue(b, forKey: "partner")
                pairs.append((a, b))
                objects += [a, b]
                if i == 1 {
                    // An insert with a permanent ID already, between the runs.
                    let early = insert("A", "early")
                    try context.obtainPermanentIDs(for: [early])
                    #expect(!early.objectID.isTemporaryID)
                    objects.append(early)
                }
            }
            let early = objects[4]
            let earlyID = early.objectID
            for (i, pair) in pairs.enumerated() {
                let next = pairs[(i + 1) % pairs.count].b
                pair.a.setValue(Set([next, pair.b]), forKey: "links")
            }
            early.setValue(pairs[0].b, forKey: "partner")
            pairs[0].a.setValue(nil, forKey: "partner")
            early.setValue(Set(pairs.map(\.b)), forKey: "links")
            try context.save()
            #expect(early.objectID == earlyID)
            try Self.expectRows(objects, in: stack.store)
            let reopened = try stack.reopen()
            try Self.expectRows(objects, in: reopened.store)
        }
    }
}
