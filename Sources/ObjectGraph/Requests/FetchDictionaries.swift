import Foundation

/// Builds dictionary results (`.dictionaryResultType`) from matching objects.
enum FetchDictionaries {
    static func results<R>(_ objects: [ManagedObject], request: FetchRequest<R>, entity: EntityDescription) throws
        -> [[String: Any]]
    {
        let requested: [Any] = request.propertiesToFetch ?? entity.properties.filter { !isToMany($0) }.map(\.name)
        let keys: [String] = try requested.map { try propertyName($0, entity) }
        var rows: [[String: Any]] = objects.map { object in
            var row: [String: Any] = [:]
            for key in keys {
                let value = object.value(forKey: key)
                if let o = value as? ManagedObject { row[key] = o.objectID } else if let value { row[key] = value }
            }
            return row
        }
        if request.returnsDistinctResults {
            var seen = Set<String>()
            rows = rows.filter { seen.insert(fingerprint($0, keys)).inserted }
        }
        return rows
    }

    private static func isToMany(_ p: PropertyDescription) -> Bool { (p as? RelationshipDescription)?.isToMany ?? false }

    private static func propertyName(_ item: Any, _ entity: EntityDescription) throws -> String {
        let name: String
        switch item {
        case let s as String: name = s
        case let p as PropertyDescription: name = p.name
        default:
            throw ObjectGraphError(.coreData, "fetch: propertiesToFetch holds \(type(of: item)); use property names",
                                   entityName: entity.name)
        }
        guard let p = entity.propertiesByName[name], !isToMany(p) else {
            throw ObjectGraphError(.coreData, "fetch: \(entity.name).\(name) is not an attribute or to-one relationship",
                                   entityName: entity.name, key: name)
        }
        return name
    }

    private static func fingerprint(_ row: [String: Any], _ keys: [String]) -> String {
        keys.map { "\($0)=\(row[$0].map { "\($0)" } ?? "nil")" }.joined(separator: "\u{1}")
    }
}
