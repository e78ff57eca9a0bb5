import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// An object whose `deinit` empties the registry that is letting it go.
private final class EmptyingProbe: ManagedObject {
    nonisolated(unsafe) static var registry: ObjectRegistry?
    deinit { Self.registry?.removeAll() }
}

/// A registry being re-laid refuses to be emptied from a `deinit` it runs: before the
/// precondition (found by the review of branch `w7r`, on main since the sweep re-laid tables),
/// `removeAll()` freed the buffers the rebuild was still moving entries out of.
@Suite struct ObjectRegistryReentrancyTests {
    @Test func emptyingTheRegistryFromADeinitDuringASweepStopsTheProgram() async throws {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent])
        {
            let model = try! ExpenseModel.make()
            let entity = model.entitiesByName["Category"]!
            let registry = ObjectRegistry()
            EmptyingProbe.registry = registry
            // Unheld objects, more than half the table: the sweep re-lays it
            // (`keepOnlyReferenced`), releasing them one by one.
            for key in 1...64 {
                let id = ManagedObjectID(
                    entity: entity, storeIdentifier: "A", primaryKey: Int64(key))
                let object = EmptyingProbe(entity: entity, insertInto: nil)
                object.objectID = id
                registry.register(object, as: id)
            }
            registry.sweep()
        }
        // The precondition's own message: without it the process still dies, of the double
        // free, which is not this check.
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains("the registry was emptied while it re-laid its table"))
    }
}
