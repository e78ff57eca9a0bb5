import Foundation
import ObjectGraph

final class Team: ManagedObject {
    @Attribute var name: String?
    @Relationship var members: Set<Employee>
}

final class Employee: ManagedObject {
    @Attribute var name: String?
    @Attribute var team: String?
    @Attribute var salary: Int32
    @Attribute var seq: Int64
    @Attribute var hired: Date?
    @Attribute var month: String?
    @Relationship var unit: Team?
}

/// The model of Core Data's fetched-results scenarios (FreeCoreData's
/// Tests/NSFetchedResultsControllerTests.m uses Employee(name, team, salary)), with a team as
/// an entity too, for sections through a to-one.
enum StaffFixture {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Team", managedObjectClass: Team.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "members", destination: "Employee", inverse: "unit", isToMany: true,
                        deleteRule: .nullify),
                ]),
            EntityDescription(
                name: "Employee", managedObjectClass: Employee.self,
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "team", type: .string),
                    AttributeDescription(name: "salary", type: .integer32, defaultValue: 0),
                    AttributeDescription(name: "seq", type: .integer64, defaultValue: 0),
                    AttributeDescription(name: "hired", type: .date),
                    AttributeDescription(name: "month", type: .string),
                    RelationshipDescription(
                        name: "unit", destination: "Team", inverse: "members", deleteRule: .nullify),
                ]),
        ])
    }

    /// A private-queue context on a fresh store of `kind`.
    static func context(_ kind: StoreKind) throws -> ManagedObjectContext {
        let model = try model()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @discardableResult
    static func employee(
        _ context: ManagedObjectContext, _ name: String, team: String?, salary: Int32 = 0,
        seq: Int64 = 0
    ) -> Employee {
        let e = Employee(context: context)
        e.name = name
        e.team = team
        e.salary = salary
        e.seq = seq
        return e
    }

    /// A request for employees sorted by `keys` (ascending).
    static func request(_ keys: String..., predicate: String? = nil) throws -> FetchRequest<
        Employee
    > {
        let request = FetchRequest<Employee>(entityName: "Employee")
        request.sortDescriptors = keys.map { FetchSortDescriptor(key: $0) }
        if let predicate { request.predicate = try FetchPredicate(format: predicate) }
        return request
    }
}

/// Records a controller's delegate calls as readable lines.
final class ControllerRecorder: ControllerRecorderBase {}

/// Records the per-change delegate calls as readable lines (subclassed by the whole-change
/// recorders, which must see none).
class ControllerRecorderBase: FetchedResultsControllerDelegate {
    var lines: [String] = []

    func controllerWillChangeContent(_ controller: FetchedResultsControllerBase) {
        lines.append("will")
    }

    func controller(
        _ controller: FetchedResultsControllerBase, didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType, newIndexPath: IndexPath?
    ) {
        let name = (anObject as? Employee)?.name ?? "?"
        lines.append(
            "\(Self.word(type)) \(name) \(Self.path(indexPath))->\(Self.path(newIndexPath))")
    }

    func controller(
        _ controller: FetchedResultsControllerBase,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int, for type: FetchedResultsChangeType
    ) {
        lines.append("section \(Self.word(type)) \(sectionInfo.name) \(sectionIndex)")
    }

    func controllerDidChangeContent(_ controller: FetchedResultsControllerBase) {
        lines.append("did")
    }

    /// The lines recorded since the last call.
    func take() -> [String] {
        defer { lines = [] }
        return lines
    }

    static func word(_ type: FetchedResultsChangeType) -> String {
        switch type {
        case .insert: "insert"
        case .delete: "delete"
        case .move: "move"
        case .update: "update"
        }
    }

    static func path(_ p: IndexPath?) -> String {
        guard let p else { return "nil" }
        return "\(p.section).\(p.item)"
    }
}
