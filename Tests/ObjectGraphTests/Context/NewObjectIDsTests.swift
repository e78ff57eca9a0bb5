import Foundation
import Testing

@testable import ObjectGraph

/// `NewObjectIDs`, a root save's new IDs: its identity table is let go of once the rows are
/// built (so that a large save does not hold it through the store's commit), and every look-up
/// answers the same before and after, and after it is built again.
@Suite struct NewObjectIDsTests {
    @Test func lookUpsAnswerTheSameAfterTheIndexIsDroppedAndRebuilt() {
        let objects = (0..<300).map { _ in ManagedObject(entity: Self.entity, insertInto: nil) }
        let stranger = ManagedObject(entity: Self.entity, insertInto: nil)
        var ids = NewObjectIDs()
        ids.reserveCapacity(objects.count)
        for (i, object) in objects.enumerated() { ids.append(object, Self.id(Int64(i) + 1)) }
        // An object recorded twice keeps its first ID.
        ids.append(objects[7], Self.id(1_000))
        let expected = objects.map { ids[$0] }
        #expect(expected == (1...300).map { Self.id($0) })
        #expect(ids.isIndexed && ids.count == 300)

        ids.dropIndex()
        #expect(!ids.isIndexed)
        #expect(objects.map { ids[$0] } == expected)
        #expect(ids[stranger] == nil)
        #expect(ids.objects.count == 300 && ids.ids == expected.map { $0! })

        ids.reindex()
        #expect(ids.isIndexed)
        #expect(objects.map { ids[$0] } == expected)
        #expect(ids[stranger] == nil)
    }

    /// A list made over the save's own array (its objects' addresses read from the array's
    /// storage) finds each object at its place, and refuses an array that lists an object
    /// twice.
    @Test func aSharedListFindsEveryObjectAndRefusesAnObjectListedTwice() throws {
        let objects = (0..<300).map { _ in ManagedObject(entity: Self.entity, insertInto: nil) }
        let stranger = ManagedObject(entity: Self.entity, insertInto: nil)
        let expected = (1...300).map { Self.id($0) }
        let ids = try #require(NewObjectIDs(sharing: objects, ids: expected))
        #expect(ids.isIndexed && ids.count == 300)
        #expect(objects.map { ids[$0] } == expected)
        #expect(ids[stranger] == nil)

        var twice = objects
        twice[200] = objects[13]
        #expect(NewObjectIDs(sharing: twice, ids: expected) == nil)
    }

    private static func id(_ key: Int64) -> ManagedObjectID {
        ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: key)
    }

    // The model is kept: an entity reaches its model through an unowned reference.
    private static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Thing", properties: [AttributeDescription(name: "n", type: .integer64)])
    ])
    private static var entity: EntityDescription { model.entitiesByName["Thing"]! }
}
