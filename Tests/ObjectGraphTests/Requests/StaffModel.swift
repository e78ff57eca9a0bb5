import Foundation
import ObjectGraph

/// Employees and departments, the shape FreeCoreData's Apple-run fetch tests use
/// (`Tests/NSPendingChangesFetchTests.m`): Employee(name, salary, hireDate, department) and
/// Department(name, employees).
enum StaffModel {
    static func make() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Employee",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    AttributeDescription(name: "salary", type: .integer32),
                    AttributeDescription(name: "hireDate", type: .date),
                    RelationshipDescription(
                        name: "department", destination: "Department", inverse: "employees"),
                ]),
            EntityDescription(
                name: "Department",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "employees", destination: "Employee", inverse: "department",
                        isToMany: true),
                ]),
        ])
    }

    /// A private-queue context on a fresh store of `kind`.
    static func context(_ kind: StoreKind) throws -> ManagedObjectContext {
        let model = try make()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.open(model))
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @discardableResult
    static func employee(
        _ name: String, salary: Int, department: ManagedObject? = nil,
        in context: ManagedObjectContext
    ) -> ManagedObject {
        let e = context.insertNewObject(forEntityName: "Employee")
        e.setValue(name, forKey: "name")
        e.setValue(salary, forKey: "salary")
        if let department { e.setValue(department, forKey: "department") }
        return e
    }

    @discardableResult
    static func department(_ name: String, in context: ManagedObjectContext) -> ManagedObject {
        let d = context.insertNewObject(forEntityName: "Department")
        d.setValue(name, forKey: "name")
        return d
    }

    /// Inserts the department "R&D" with employees alpha (salary 10) and bravo (20) into
    /// `context`, saves them and resets the context, so that no object of it keeps sharing
    /// the store's rows. Call on the context's queue.
    static func seedRnD(in context: ManagedObjectContext) throws {
        let d = department("R&D", in: context)
        employee("alpha", salary: 10, department: d, in: context)
        employee("bravo", salary: 20, department: d, in: context)
        try context.save()
        context.reset()
    }

    /// An aggregate column: `function:(keyPath)` named `name`.
    static func aggregate(
        _ name: String, _ function: String, _ keyPath: String, _ type: AttributeType = .integer64
    ) throws -> ExpressionDescription {
        ExpressionDescription(
            name: name, expression: try FetchExpression(format: "\(function):(\(keyPath))"),
            resultType: type)
    }

    /// The values of `key` in `rows`, as integers.
    static func ints(_ rows: [[String: Any]], _ key: String) -> [Int] {
        rows.map { row in
            switch row[key] {
            case let v as Int64: Int(v)
            case let v as Int32: Int(v)
            case let v as Int: v
            default: -1
            }
        }
    }
}
