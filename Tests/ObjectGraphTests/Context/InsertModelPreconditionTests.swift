import Foundation
import Testing

@testable import ObjectGraph

/// Inserting refuses an object whose entity is not of the context's model, as it did when it
/// compared the entity's model with the context's (`usesModel(of:)` finds the entity at its
/// index in the context's model instead): an entity of another model built from the same
/// descriptions (same names, same indexes), or of no model, traps on a root context and on a
/// child context. (The context's own entities insert in every other suite.)
@Suite struct InsertModelPreconditionTests {
    /// A root context of `model` on an in-memory store, or a child of one when `child`.
    private static func context(_ model: ManagedObjectModel, child: Bool) throws
        -> ManagedObjectContext
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try StoreKind.inMemory.open(model))
        let root = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        guard child else { return root }
        let context = ManagedObjectContext(concurrencyType: .privateQueue)
        context.parent = root
        return context
    }

    /// Makes an object of `entity` in a context of `model` (an exit test's body).
    private static func insert(
        _ entity: EntityDescription, into model: ManagedObjectModel, child: Bool
    ) throws {
        let context = try Self.context(model, child: child)
        context.performAndWait { _ = ManagedObject(entity: entity, insertInto: context) }
    }

    /// The message `precondition` printed in an exit test's standard error.
    private static func message(_ result: ExitTest.Result?) throws -> String {
        String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
    }

    /// Makes an object of Employee of another staff model in a context of a staff model: the
    /// two entities have the same name and index (an exit test's body).
    private static func insertAnEqualOtherModelsEmployee(child: Bool) throws {
        let mine = try StaffModel.make()
        let other = try StaffModel.make()
        let employee = try #require(other.entitiesByName["Employee"])
        #expect(employee.index == mine.entitiesByName["Employee"]?.index)
        try Self.insert(employee, into: mine, child: child)
    }

    /// Makes an object of an entity of no model in a context of a staff model (an exit test's
    /// body).
    private static func insertAStrayEntity(child: Bool) throws {
        let stray = EntityDescription(
            name: "Stray", properties: [AttributeDescription(name: "name", type: .string)])
        try Self.insert(stray, into: try StaffModel.make(), child: child)
    }

    /// Each entity (of an equal other model, of no model) on each context (root, child).
    @Test(arguments: [false, true], [false, true])
    func anEntityOfAnotherModelOrOfNoModelTraps(ofNoModel: Bool, child: Bool) async throws {
        let result = await #expect(
            processExitsWith: .failure, observing: [\.standardErrorContent]
        ) { [ofNoModel, child] in
            if ofNoModel {
                try Self.insertAStrayEntity(child: child)
            } else {
                try Self.insertAnEqualOtherModelsEmployee(child: child)
            }
        }
        let name = ofNoModel ? "Stray" : "Employee"
        #expect(try Self.message(result).contains("\(name) belongs to another model than"))
    }
}
