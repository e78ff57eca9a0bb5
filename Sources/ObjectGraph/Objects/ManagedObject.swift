import Foundation

/// An object of the graph, living in one context: Core Data's `NSManagedObject`.
open class ManagedObject {
    /// The entity.
    public let entity: EntityDescription
    /// The object's ID.
    public internal(set) var objectID: ManagedObjectID
    /// Creates an object for `entity`.
    public required init(entity: EntityDescription) {
        self.entity = entity
        self.objectID = .temporary(for: entity)
    }
}
