import Foundation

extension ObjectRegistry {
    /// The number of slots in the table (tests: whether an operation re-laid it).
    var slotCount: Int { tags.count }

    /// Every registered object, in no particular order.
    var values: [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for slot in tags.indices where tags[slot] != 0 { result.append(objects[slot]) }
        return result
    }
}
