import Foundation
import Testing

@testable import ObjectGraph

/// What each `DeinitProbe` saw of its context in its `deinit`, by object ID: `true` when
/// `managedObjectContext` read `nil`. Shared by the tests' probes (locked: a context may be
/// freed on any thread).
private final class DeinitRecord: @unchecked Sendable {
    /// Guards `seen`.
    private let lock = NSLock()
    /// Every reading made so far, in order, per object ID.
    private var seen: [ManagedObjectID: [Bool]] = [:]

    /// Notes that the probe with `id` read `nil` (or not) in its `deinit`.
    func note(_ id: ManagedObjectID, sawNoContext: Bool) {
        lock.withLock { seen[id, default: []].append(sawNoContext) }
    }

    /// The readings noted so far for `id`.
    func readings(_ id: ManagedObjectID) -> [Bool] { lock.withLock { seen[id] ?? [] } }

    /// The record every probe writes to.
    static let shared = DeinitRecord()
}

/// An object that notes, as it is freed, whether its ``ManagedObject/managedObjectContext``
/// read `nil` (see `DeinitRecord`).
private final class DeinitProbe: ManagedObject {
    @Attribute var name: String?

    deinit {
        DeinitRecord.shared.note(objectID, sawNoContext: managedObjectContext == nil)
    }
}

/// A context clears its token before it releases the objects it holds, so an object freed by
/// its context's `deinit` reads no context in its own `deinit` (never a context being
/// deinitialised).
@Suite struct ContextDeinitOrderTests {
    /// A coordinator on a fresh store of `kind` with one entity, `Probe`, made as
    /// `DeinitProbe`.
    private static func coordinator(_ kind: StoreKind) throws -> PersistentStoreCoordinator {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Probe", managedObjectClass: DeinitProbe.self,
                properties: [AttributeDescription(name: "name", type: .string)])
        ])
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return coordinator
    }

    @Test(arguments: StoreKind.all)
    func anObjectFreedWithItsContextReadsNoContextInItsDeinit(_ kind: StoreKind) throws {
        let coordinator = try Self.coordinator(kind)
        // Seeded by a context freed here, so that the probe's row is in the store.
        var seeding: ManagedObjectContext? = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        let id = try seeding!.performAndWait { () throws in
            let probe = seeding!.insertNewObject(forEntityName: "Probe")
            probe.setValue("p", forKey: "name")
            try seeding!.save()
            return probe.objectID
        }
        seeding = nil
        let before = DeinitRecord.shared.readings(id).count
        var context: ManagedObjectContext? = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        weak var freed: ManagedObjectContext?
        try context!.performAndWait { () throws in
            context!.retainsRegisteredObjects = true
            let fetched = try context!.fetch(FetchRequest<ManagedObject>(entityName: "Probe"))
            #expect(fetched.count == 1)
            #expect(fetched.first is DeinitProbe)
        }
        // A later event: only the context's registry holds the probe now.
        context!.performAndWait {
            let probe = context!.registeredObject(for: id)
            #expect(probe?.managedObjectContext === context)
        }
        #expect(DeinitRecord.shared.readings(id).count == before, "the probe is alive")
        freed = context
        context = nil
        #expect(freed == nil, "the context is freed")
        let readings = DeinitRecord.shared.readings(id).dropFirst(before)
        #expect(readings == [true], "freed with its context, reading no context")
    }
}
