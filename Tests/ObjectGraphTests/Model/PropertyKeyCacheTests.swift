import Foundation
import Testing

@testable import ObjectGraph

/// The wrapped properties' slot cache must not outlive the entities it describes: an entity
/// allocated where a freed one was (same address) has its own slots. Key-path probes make
/// short-lived entities common, which made this show (an index out of range when a probe got
/// a freed entity's slot).
@Suite struct PropertyKeyCacheTests {
    @Test func aNewEntityAtAFreedEntitysAddressGetsItsOwnSlots() throws {
        var addresses = Set<ObjectIdentifier>()
        for i in 0..<200 {
            let amount = AttributeDescription(name: "amount", type: .decimal)
            let note = AttributeDescription(name: "note", type: .string)
            // The two layouts alternate: a stale slot puts a value in the other attribute.
            let entity = EntityDescription(
                name: "Transaction", managedObjectClass: Transaction.self,
                properties: i % 2 == 0 ? [amount, note] : [note, amount])
            addresses.insert(ObjectIdentifier(entity))
            let model = try ManagedObjectModel(entities: [entity])
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            try coordinator.addPersistentStore(with: PersistentStoreDescription())
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            context.performAndWait {
                let t = Transaction(context: context)
                t.amount = Decimal(i)
                t.note = "n\(i)"
                #expect(t.amount == Decimal(i))
                #expect(t.note == "n\(i)")
                #expect(t.value(forKey: "note") as? String == "n\(i)")
            }
        }
        // Not a check of the cache, only that the scenario happened: addresses were reused.
        print("PropertyKeyCacheTests: \(addresses.count) distinct entity addresses in 200 models")
    }
}
