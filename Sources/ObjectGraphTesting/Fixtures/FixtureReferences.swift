import Foundation
import ObjectGraph

/// The permanent IDs of loaded fixture objects: by `_ref`, and by entity in fixture order.
///
/// IDs hold the store's identifier and primary key, so the references of a
/// ``FixtureProvider`` are valid in every container it makes.
///
/// ```swift
/// let food = try refs.object("food", as: Category.self, in: context)
/// let third = refs.objectIDs(of: "Transaction")[2]
/// ```
///
/// - Note: No Core Data counterpart.
public struct FixtureReferences: Sendable {
    /// IDs by `_ref`.
    public let objectIDsByRef: [String: ManagedObjectID]
    private let byEntity: [String: [ManagedObjectID]]

    /// No references (a provider built without a fixture).
    public init() {
        self.objectIDsByRef = [:]
        self.byEntity = [:]
    }

    init(parsed: [ParsedObject], objectIDs: [ManagedObjectID]) {
        var byRef: [String: ManagedObjectID] = [:]
        var byEntity: [String: [ManagedObjectID]] = [:]
        for (p, id) in zip(parsed, objectIDs) {
            if let ref = p.ref { byRef[ref] = id }
            byEntity[p.entity.name, default: []].append(id)
        }
        self.objectIDsByRef = byRef
        self.byEntity = byEntity
    }

    /// The ID of the object whose `_ref` is `ref`, or `nil`.
    public subscript(ref: String) -> ManagedObjectID? { objectIDsByRef[ref] }

    /// The IDs of the objects listed under `entityName` (that entity exactly, not its
    /// subentities), in fixture order; empty when none.
    public func objectIDs(of entityName: String) -> [ManagedObjectID] { byEntity[entityName] ?? [] }

    /// The ID of the object whose `_ref` is `ref`.
    ///
    /// - Throws: ``ObjectGraphError`` 134060 when no loaded object has that `_ref`.
    public func objectID(_ ref: String) throws -> ManagedObjectID {
        guard let id = objectIDsByRef[ref] else {
            throw FixtureErrors.unknownReference(ref, known: objectIDsByRef.keys.sorted())
        }
        return id
    }

    /// The object whose `_ref` is `ref`, in `context` (call on the context's queue).
    ///
    /// - Throws: ``ObjectGraphError`` 134060 for an unknown `_ref`; 133000 when the object is
    ///   not in the context's store (e.g. it was deleted).
    public func object(_ ref: String, in context: ManagedObjectContext) throws -> ManagedObject {
        try context.existingObject(with: objectID(ref))
    }

    /// The object whose `_ref` is `ref`, as `type`, in `context` (call on the context's queue).
    ///
    /// - Throws: as ``object(_:in:)``, and 134060 when the object is not a `type`.
    public func object<T: ManagedObject>(
        _ ref: String, as type: T.Type, in context: ManagedObjectContext
    ) throws -> T {
        let object = try self.object(ref, in: context)
        guard let typed = object as? T else {
            throw FixtureErrors.wrongClass(ref, object, expected: T.self)
        }
        return typed
    }
}
