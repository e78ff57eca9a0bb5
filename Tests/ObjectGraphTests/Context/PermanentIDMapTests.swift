import Foundation
import Testing

@testable import ObjectGraph

/// The temporary-to-permanent ID map a context keeps for its children: built from the saves'
/// batches on the first look-up that needs it.
@Suite struct PermanentIDMapTests {
    /// Review finding (branch `ins`): a root context filling faults by their permanent IDs
    /// after a large insert save folded every recorded ID into the dictionary at its first
    /// fault, though no permanent ID is ever a key.
    @Test func aPermanentIDIsAnsweredWithoutFoldingTheBatches() throws {
        let entity = try #require(try ExpenseModel.make().entitiesByName["Category"])
        let temporary = (0..<3).map { _ in ManagedObjectID.temporary(for: entity) }
        let permanent = (1...3).map {
            ManagedObjectID(entity: entity, storeIdentifier: "A", primaryKey: Int64($0))
        }
        var map = PermanentIDMap()
        map.record(from: temporary, to: permanent)
        #expect(map[permanent[0]] == nil)
        #expect(map.pendingBatches == 1)
        #expect(map[temporary[1]] == permanent[1])
        #expect(map.pendingBatches == 0)
        // An ID recorded by hand under a permanent key is found (a takeover's old ID).
        let other = ManagedObjectID(entity: entity, storeIdentifier: "A", primaryKey: 9)
        map[permanent[2]] = other
        #expect(map[permanent[2]] == other)
        map.removeAll()
        #expect(map[permanent[2]] == nil && map[temporary[0]] == nil)
    }
}
