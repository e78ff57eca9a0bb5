import Foundation
import Testing

@testable import ObjectGraph

/// The registry's move of a save's inserts from two arrays (``ObjectRegistry/move(_:from:)``,
/// which reads each object unretained, held by the caller's array): each moved entry holds its
/// object once, whether the move took over the old entry or added one, so that the objects
/// live while registered and are freed once nothing else holds them.
@Suite struct ObjectRegistryMoveLifetimeTests {
    @Test func movedEntriesHoldTheirObjectsOnceAndTheObjectsGoWhenRemoved() throws {
        let category = try #require(try ExpenseModel.make().entitiesByName["Category"])
        let registry = ObjectRegistry()
        registry.retainsAll = true
        var weak: [WeakObject] = []
        var ids: [ManagedObjectID] = []
        do {
            var objects: [ManagedObject] = []
            var from: [ManagedObjectID] = []
            for i in 0..<20 {
                let object = ManagedObject(entity: category, insertInto: nil)
                // Every other object registered under its old ID; the others are added.
                if i % 2 == 0 { registry.register(object, as: object.objectID) }
                from.append(object.objectID)
                object.objectID = ManagedObjectID(
                    entity: category, storeIdentifier: "A", primaryKey: Int64(i + 1))
                objects.append(object)
                ids.append(object.objectID)
                weak.append(WeakObject(object))
            }
            registry.move(objects, from: from)
        }
        // The registry holds them alone now.
        for (object, id) in zip(weak, ids) {
            #expect(object.object != nil && registry[id] === object.object)
        }
        #expect(registry.count == 20)
        for id in ids { registry.removeValue(forKey: id) }
        #expect(weak.allSatisfy { $0.object == nil })
    }
}
