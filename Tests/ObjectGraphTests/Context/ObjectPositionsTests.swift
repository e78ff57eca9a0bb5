import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `ObjectPositions`, the identity-keyed index of a to-many's members, against a
/// `Dictionary` doing the same operations (issue 25: it replaced `[ObjectIdentifier: Int]`).
@Suite struct ObjectPositionsTests {
    @Test func randomInsertsUpdatesAndRemovalsMatchADictionary() {
        let objects = (0..<600).map { _ in ManagedObject(entity: Self.entity, insertInto: nil) }
        var table = ObjectPositions()
        var reference: [ObjectIdentifier: Int] = [:]
        var random = SeededRandomNumberGenerator(seed: 25)
        for step in 0..<20_000 {
            let object = objects[Int(random.next() % UInt64(objects.count))]
            let key = ObjectIdentifier(object)
            switch random.next() % 4 {
            case 0, 1:
                let inserted = table.insert(object, at: step)
                #expect(inserted == (reference[key] == nil))
                if inserted { reference[key] = step }
            case 2:
                let removed = table.removeValue(for: object)
                #expect(removed == reference.removeValue(forKey: key))
            default:
                if reference[key] != nil {
                    table.update(object, to: -step)
                    reference[key] = -step
                }
            }
            #expect(table.count == reference.count)
        }
        for object in objects {
            #expect(table[object] == reference[ObjectIdentifier(object)])
        }
    }

    @Test func removingEveryMemberInAnyOrderEmptiesTheTable() {
        let objects = (0..<257).map { _ in ManagedObject(entity: Self.entity, insertInto: nil) }
        var table = ObjectPositions()
        table.reserveCapacity(10)
        for (i, object) in objects.enumerated() {
            let inserted = table.insert(object, at: i)
            #expect(inserted)
        }
        for (i, object) in objects.enumerated().reversed() where i % 2 == 0 {
            let removed = table.removeValue(for: object)
            #expect(removed == i)
        }
        for (i, object) in objects.enumerated() where i % 2 == 1 {
            #expect(table[object] == i)
            let removed = table.removeValue(for: object)
            let again = table.removeValue(for: object)
            #expect(removed == i)
            #expect(again == nil)
        }
        #expect(table.count == 0)
        #expect(objects.allSatisfy { table[$0] == nil })
    }

    /// A copy of the table is a value: inserts into the original, through its growth from
    /// empty and from a reserved capacity, leave the copy as it was (the insert and the
    /// growth write through buffer pointers, which must not write into a shared table).
    @Test func aCopyKeepsItsEntriesWhileTheOriginalGrows() {
        let objects = (0..<300).map { _ in ManagedObject(entity: Self.entity, insertInto: nil) }
        for reserved in [0, 40] {
            var table = ObjectPositions()
            table.reserveCapacity(reserved)
            for (i, object) in objects.prefix(20).enumerated() {
                let inserted = table.insert(object, at: i)
                #expect(inserted)
            }
            let copy = table
            for (i, object) in objects.enumerated().dropFirst(20) {
                let inserted = table.insert(object, at: i)
                let again = table.insert(object, at: -1)
                #expect(inserted && !again)
            }
            #expect(table.count == 300)
            #expect(copy.count == 20)
            for (i, object) in objects.enumerated() {
                #expect(table[object] == i)
                #expect(copy[object] == (i < 20 ? i : nil))
            }
        }
    }

    // The model is kept: an entity reaches its model through an unowned reference.
    private static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Thing", properties: [AttributeDescription(name: "n", type: .integer64)])
    ])
    private static var entity: EntityDescription { model.entitiesByName["Thing"]! }
}
