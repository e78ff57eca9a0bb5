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

/// The slot table is read without a lock while entries are added (and the table replaced by
/// a larger one): many entities, each with its own layout, resolved from several threads at
/// once, must each get their own slots.
@Suite struct PropertyKeyConcurrencyTests {
    @Test func slotsResolvedFromManyThreadsWhileTheTableGrowsAreEachEntitysOwn() throws {
        // 300 entities × 2 wrapped attributes: the table doubles several times during the run.
        let entities = (0..<300).map { i in
            let amount = AttributeDescription(name: "amount", type: .decimal)
            let note = AttributeDescription(name: "note", type: .string)
            let padding = (0..<(i % 5)).map {
                AttributeDescription(name: "pad\($0)", type: .integer64) as PropertyDescription
            }
            return EntityDescription(
                name: "Transaction", managedObjectClass: Transaction.self,
                properties: padding + (i % 2 == 0 ? [amount, note] : [note, amount]))
        }
        let models = try entities.map { try ManagedObjectModel(entities: [$0]) }
        let failures = LockedCounter()
        // Each lane starts at another entity, so lanes add entries while others read.
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for step in entities.indices {
                let i = (step + lane * 75) % entities.count
                let entity = entities[i]
                let t = Transaction(entity: entity, insertInto: nil)
                t.amount = Decimal(i)
                t.note = "n\(i)"
                let stored = t.attributeValue(forKey: "note")
                if t.amount != Decimal(i) || t.note != "n\(i)" || stored != .string("n\(i)") {
                    failures.add()
                }
            }
        }
        #expect(failures.value == 0)
        withExtendedLifetime(models) {}
    }

    @Test func aSlotTableFindsEveryEntryAndItsTypeUpToHalfFullAndNothingElse() {
        let cells = SlotCells(capacity: 256)
        let types = AttributeType.allCases
        var entries: [(UInt, UInt, Int, AttributeType)] = []
        var k: UInt = 0x1000
        while cells.hasRoom {
            let entry = (
                k, UInt(entries.count % 3), entries.count, types[entries.count % types.count]
            )
            cells.insert(entry.0, entry.1, entry.2, entry.3)
            entries.append(entry)
            k += 16
        }
        #expect(entries.count == 128)
        for (k, e, slot, type) in entries {
            #expect(cells.find(k, e) == slot)
            #expect(cells.findTyped(k, e) == (slot, type))
        }
        #expect(cells.find(0x1000, 99) == -1)
        #expect(cells.find(0x99999, 0) == -1)
        #expect(cells.findTyped(0x1000, 99).slot == -1)
        var copied: [(UInt, UInt, Int, AttributeType)] = []
        cells.forEachEntry { copied.append(($0, $1, $2, $3)) }
        #expect(copied.count == entries.count)
        #expect(
            Set(copied.map { "\($0.0) \($0.1) \($0.2) \($0.3)" })
                == Set(entries.map { "\($0.0) \($0.1) \($0.2) \($0.3)" }))
    }
}

/// A counter several threads add to.
private final class LockedCounter: @unchecked Sendable {
    // Sendable: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
