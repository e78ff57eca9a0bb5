import Foundation
import Testing

@testable import ObjectGraph

/// Objects and IDs hash without `Hasher` in sets and dictionaries (`_rawHashValue(seed:)`):
/// the hash must agree with equality and spread identities over a table's low bits.
@Suite struct IdentityHashTests {
    private static func entity() -> EntityDescription {
        EntityDescription(
            name: "Item", managedObjectClass: ManagedObject.self,
            properties: [AttributeDescription(name: "n", type: .integer64)])
    }

    @Test func anObjectHashesTheSameEveryTimeAndIsFoundInASet() {
        let entity = Self.entity()
        let objects = (0..<2_000).map { _ in ManagedObject(entity: entity, insertInto: nil) }
        for object in objects.prefix(10) {
            #expect(object._rawHashValue(seed: 7) == object._rawHashValue(seed: 7))
            #expect(object.hashValue == object.hashValue)
        }
        let set = Set(objects)
        #expect(set.count == objects.count)
        #expect(objects.allSatisfy { set.contains($0) })
        let other = ManagedObject(entity: entity, insertInto: nil)
        #expect(!set.contains(other))
    }

    @Test func equalIDsMadeApartHashAlikeAndOthersDiffer() {
        let entity = Self.entity()
        let a = ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 42)
        let b = ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 42)
        #expect(a == b)
        #expect(a._rawHashValue(seed: 3) == b._rawHashValue(seed: 3))
        #expect(a.hashValue == b.hashValue)
        let ids = (1...5_000).map {
            ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64($0))
        }
        let set = Set(ids)
        #expect(set.count == ids.count)
        #expect(set.contains(ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 77)))
        #expect(!set.contains(ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: 0)))
    }

    /// A table uses a hash's low bits: objects allocated one after another (addresses 16 bytes
    /// apart, low bits zero) and consecutive keys must still fill most buckets. Uniform hashes
    /// fill about 63 % of 4,096 buckets with 4,096 values; a hash of the bare address fills at
    /// most 256 of them.
    @Test func consecutiveObjectsAndKeysSpreadOverTheLowBits() {
        let entity = Self.entity()
        let objects = (0..<4_096).map { _ in ManagedObject(entity: entity, insertInto: nil) }
        let ids = (1...4_096).map {
            ManagedObjectID(entity: entity, storeIdentifier: "S", primaryKey: Int64($0))
        }
        for seed in [0, 1, 12_345] {
            let objectBuckets = Set(objects.map { $0._rawHashValue(seed: seed) & 4_095 })
            let idBuckets = Set(ids.map { $0._rawHashValue(seed: seed) & 4_095 })
            #expect(objectBuckets.count > 2_400)
            #expect(idBuckets.count > 2_400)
        }
        // The seed changes the layout (what protects copies between tables).
        #expect(objects[0]._rawHashValue(seed: 1) != objects[0]._rawHashValue(seed: 2))
    }
}
