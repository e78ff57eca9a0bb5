import Foundation
import ObjectGraph

/// What a ``PreviewSeeder`` run saved.
public struct SeedResult: Sendable {
    /// The permanent IDs of the new objects, by entity name, in the order they were made.
    public let objectIDs: [String: [ManagedObjectID]]

    init(objects: [ManagedObject]) {
        var ids: [String: [ManagedObjectID]] = [:]
        for object in objects { ids[object.entity.name, default: []].append(object.objectID) }
        self.objectIDs = ids
    }

    /// The number of objects made of each entity (entities with none are absent).
    public var counts: [String: Int] { objectIDs.mapValues(\.count) }

    /// The number of objects made in all.
    public var totalCount: Int { objectIDs.values.reduce(0) { $0 + $1.count } }
}
