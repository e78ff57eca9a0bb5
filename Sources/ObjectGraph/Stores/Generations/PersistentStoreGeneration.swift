import Foundation

/// One store as it was at one moment: what a context pinned to a query generation reads.
///
/// A store returns one from ``PersistentStore/currentQueryGeneration()``; it answers the read
/// half of ``PersistentStore`` as the store was then, whatever was committed since, until the
/// last reference to it goes away. Contexts never write through it: query generations are for
/// fetched data only, and saves always go to the store's current state.
///
/// - Note: Stands for what an `NSQueryGenerationToken` pins in one store.
public protocol PersistentStoreGeneration: AnyObject, Sendable {
    /// The identifier of the store this is a generation of.
    var storeIdentifier: String { get }
    /// The generation's number in its store: greater for later generations; equal numbers of
    /// one store are the same generation.
    var number: Int64 { get }
    /// The rows matching `request` at this generation. See ``PersistentStore/fetch(_:)``.
    func fetch(_ request: StoreFetchRequest) throws -> [StoreRow]
    /// How many rows match `request` at this generation. See ``PersistentStore/count(_:)``.
    func count(_ request: StoreFetchRequest) throws -> Int
    /// The row of `objectID` at this generation, or `nil` when it did not exist then.
    func row(for objectID: ManagedObjectID) throws -> StoreRow?
    /// The destinations of `relationship` from `objectID` at this generation. See
    /// ``PersistentStore/relatedObjectIDs(_:of:)``.
    func relatedObjectIDs(_ relationship: RelationshipDescription, of objectID: ManagedObjectID)
        throws -> [ManagedObjectID]
}
