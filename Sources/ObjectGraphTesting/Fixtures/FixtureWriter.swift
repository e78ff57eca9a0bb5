import Foundation
import ObjectGraph

/// Writes the objects of a store as a fixture document that ``FixtureLoader`` reads back to
/// the same rows: the way to turn seeded or hand-made data into a checked-in fixture.
///
/// ```swift
/// let data = try FixtureWriter().fixtureData(from: coordinator)
/// try data.write(to: URL(fileURLWithPath: "Fixtures/fixtures/preview.json"))
/// ```
///
/// The output is canonical: keys sorted, two-space indentation, objects of each entity in
/// primary-key order, each named `"_ref": "Entity-<primary key>"`. Attributes equal to a
/// `null` default are left out; transient and derived attributes are never written. Every
/// to-one is written; a to-many is written when it is ordered or when nothing else records
/// it (no inverse, or a many-to-many, which is written from the side declared first).
///
/// - Note: No Core Data counterpart.
public struct FixtureWriter: Sendable {
    /// A writer.
    public init() {}

    /// The fixture document of every object in `coordinator`'s stores.
    ///
    /// - Throws: ``ObjectGraphError`` from fetching; 134060 for a date that is not finite.
    /// - Complexity: O(n log n) in the objects.
    public func fixtureData(from coordinator: PersistentStoreCoordinator) throws -> Data {
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        context.name = "FixtureWriter"
        return try context.performAndWait { try fixtureData(in: context) }
    }

    /// The fixture document of every saved object `context` sees (call on its queue).
    ///
    /// - Throws: as ``fixtureData(from:)``.
    public func fixtureData(in context: ManagedObjectContext) throws -> Data {
        guard let model = context.persistentStoreCoordinator?.managedObjectModel else {
            throw ObjectGraphError(
                .noCoordinator, "FixtureWriter: \(context) has no coordinator")
        }
        var document: [String: JSONValue] = [:]
        for entity in model.entities where !entity.isAbstract {
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesSubentities = false
            request.includesPendingChanges = false
            let objects = try context.fetch(request)
            guard !objects.isEmpty else { continue }
            document[entity.name] = .array(try objects.map(write))
        }
        return Data(
            (JSONValue.object(JSONObject(document)).serialized(pretty: true, sortingKeys: true)
                + "\n").utf8)
    }

    private func write(_ object: ManagedObject) throws -> JSONValue {
        var members: [String: JSONValue] = ["_ref": .string(Self.ref(object.objectID))]
        for property in object.entity.properties where !property.isTransient {
            switch property {
            case let a as AttributeDescription where !a.isDerived:
                let value = object.attributeValue(forKey: a.name)
                if value.isNull && a.defaultValue.isNull { continue }
                guard let json = FixtureValues.write(value) else {
                    throw ObjectGraphError(
                        .valueTypeMismatch,
                        "FixtureWriter: \(object.entity.name).\(a.name) of "
                            + "\(object.objectID) holds a date that is not finite",
                        entityName: object.entity.name,
                        key: a.name, value: value, objectID: object.objectID)
                }
                members[a.name] = json
            case let r as RelationshipDescription where !r.isToMany:
                if let target = object.value(forKey: r.name) as? ManagedObject {
                    members[r.name] = .string(Self.ref(target.objectID))
                }
            case let r as RelationshipDescription where Self.writesToMany(r):
                let targets: [ManagedObject]
                if let list = object.value(forKey: r.name) as? [ManagedObject] {
                    targets = list
                } else {
                    let set = object.value(forKey: r.name) as? Set<ManagedObject> ?? []
                    targets = set.sorted {
                        ($0.objectID.entity.name, $0.objectID.primaryKey) < (
                            $1.objectID.entity.name, $1.objectID.primaryKey
                        )
                    }
                }
                if !targets.isEmpty {
                    members[r.name] = .array(targets.map { .string(Self.ref($0.objectID)) })
                }
            default:
                continue
            }
        }
        return .object(JSONObject(members))
    }

    /// `Entity-<primary key>`.
    static func ref(_ id: ManagedObjectID) -> String { "\(id.entity.name)-\(id.primaryKey)" }

    /// Whether a to-many is written (see the type's documentation).
    static func writesToMany(_ r: RelationshipDescription) -> Bool {
        guard let inverse = r.inverseRelationship else { return true }
        if r.isOrdered { return true }
        guard inverse.isToMany else { return false }
        if inverse.isOrdered { return false }
        let mine = (r.entity?.index ?? 0, r.index)
        let theirs = (inverse.entity?.index ?? 0, inverse.index)
        return mine <= theirs
    }
}
