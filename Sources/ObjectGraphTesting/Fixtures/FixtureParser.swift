import Foundation
import ObjectGraph

/// One object of a fixture, checked against the model and with its references resolved.
struct ParsedObject {
    let entity: EntityDescription
    let path: FixturePath
    let ref: String?
    /// Attributes given, in the entity's property order.
    var attributes: [(AttributeDescription, AttributeValue)] = []
    /// Relationships given, in property order, with raw references until resolved.
    var relationshipRefs: [(RelationshipDescription, [String?])] = []
    /// Relationships given, in property order, as indexes into the parsed objects.
    var relationships: [(RelationshipDescription, [Int])] = []
}

/// Reads fixture documents into ``ParsedObject``s: every format rule is checked here, before
/// anything touches a context.
struct FixtureParser {
    let model: ManagedObjectModel

    /// Parses and resolves `sources`; objects come entity by entity (model order), then by
    /// file, then in array order.
    ///
    /// - Throws: ``ObjectGraphError`` 134060 naming file, path and rule.
    func parse(_ sources: [FixtureSource]) throws -> [ParsedObject] {
        var documents: [(file: String?, members: JSONObject)] = []
        for source in sources {
            let json: JSONValue
            do {
                json = try JSONParser.parse(source.data, file: source.name)
            } catch let error as ObjectGraphError {
                throw FixtureErrors.syntax(source.name, error)
            }
            guard case .object(let members) = json else {
                throw FixtureErrors.notAnObject(source.name, found: json.kindDescription)
            }
            try checkEntities(members, file: source.name)
            documents.append((source.name, members))
        }
        var objects: [ParsedObject] = []
        for entity in model.entities where !entity.isAbstract {
            for document in documents {
                guard let list = document.members[entity.name] else { continue }
                guard case .array(let items) = list else {
                    throw FixtureErrors.at(
                        document.file, entity.name, entity: entity.name,
                        "expected an array of \(entity.name) objects, found \(list.kindDescription)"
                    )
                }
                for (index, item) in items.enumerated() {
                    let path = FixturePath(file: document.file, entity: entity.name, index: index)
                    objects.append(try parseObject(item, entity: entity, path: path))
                }
            }
        }
        try resolve(&objects)
        return objects
    }

    private func checkEntities(_ members: JSONObject, file: String?) throws {
        for name in members.keys.sorted() {
            guard let entity = model.entitiesByName[name] else {
                let known = model.entities.map(\.name)
                throw FixtureErrors.at(
                    file, name,
                    "the model has no entity \(name)"
                        + FixtureErrors.suggestion(name, among: known))
            }
            if entity.isAbstract {
                let concrete = entity.selfAndDescendants.filter { !$0.isAbstract }.map(\.name)
                throw FixtureErrors.at(
                    file, name, entity: name,
                    "\(name) is abstract; list its objects under a "
                        + "concrete subentity (\(concrete.joined(separator: ", ")))")
            }
        }
    }

    private func parseObject(_ json: JSONValue, entity: EntityDescription, path: FixturePath) throws
        -> ParsedObject
    {
        let file = path.file
        guard case .object(let members) = json else {
            throw FixtureErrors.at(
                file, path.description, entity: entity.name,
                "expected a \(entity.name) object, found \(json.kindDescription)")
        }
        var ref: String?
        if let value = members["_ref"] {
            guard case .string(let s) = value, !s.isEmpty else {
                throw FixtureErrors.at(
                    file, "\(path)._ref", entity: entity.name,
                    "expected a non-empty string, found \(value.kindDescription)")
            }
            ref = s
        }
        for key in members.keys.sorted() where key != "_ref" && entity.propertiesByName[key] == nil
        {
            let known = entity.properties.filter { !$0.isTransient }.map(\.name)
            throw FixtureErrors.at(
                file, "\(path).\(key)", entity: entity.name, key: key,
                "\(entity.name) has no property \(key)"
                    + FixtureErrors.suggestion(key, among: known))
        }
        var object = ParsedObject(entity: entity, path: path, ref: ref)
        for property in entity.properties {
            guard let value = members[property.name] else { continue }
            let at = "\(path).\(property.name)"
            func fail(_ rule: String) -> ObjectGraphError {
                FixtureErrors.at(file, at, entity: entity.name, key: property.name, rule)
            }
            if property.isTransient {
                throw fail(
                    "\(entity.name).\(property.name) is transient (never stored); leave it out")
            }
            if let attribute = property as? AttributeDescription {
                if attribute.isDerived {
                    throw fail(
                        "\(entity.name).\(property.name) is derived (computed at save); leave it out"
                    )
                }
                guard let v = FixtureValues.read(value, type: attribute.type) else {
                    throw fail(
                        "\(entity.name).\(property.name) has type \(attribute.type.rawValue): expected "
                            + "\(FixtureValues.expectation(for: attribute.type)), found \(value.kindDescription)"
                    )
                }
                object.attributes.append((attribute, v))
            } else if let relationship = property as? RelationshipDescription {
                object.relationshipRefs.append(
                    (relationship, try references(value, relationship, fail)))
            }
        }
        return object
    }

    private func references(
        _ value: JSONValue, _ r: RelationshipDescription,
        _ fail: (String) -> ObjectGraphError
    ) throws -> [String?] {
        let owner = r.entity?.name ?? "?"
        if !r.isToMany {
            switch value {
            case .null: return [nil]
            case .string(let s): return [s]
            default:
                throw fail(
                    "\(owner).\(r.name) is a to-one relationship to \(r.destinationEntityName): expected "
                        + "the _ref string of a \(r.destinationEntityName) or null, found \(value.kindDescription)"
                )
            }
        }
        switch value {
        case .null: return []
        case .array(let items):
            return try items.map { item in
                guard case .string(let s) = item else {
                    throw fail(
                        "\(owner).\(r.name) is a to-many relationship to \(r.destinationEntityName): expected an "
                            + "array of _ref strings, found \(item.kindDescription) in the array")
                }
                return s
            }
        default:
            throw fail(
                "\(owner).\(r.name) is a to-many relationship to \(r.destinationEntityName): expected an array "
                    + "of _ref strings, found \(value.kindDescription)")
        }
    }

    /// Checks references are unique, resolve, point at the right entity and are not repeated.
    private func resolve(_ objects: inout [ParsedObject]) throws {
        var byRef: [String: Int] = [:]
        for (i, object) in objects.enumerated() {
            guard let ref = object.ref else { continue }
            if let first = byRef[ref] {
                let other = objects[first].path
                let where_ =
                    other.file == object.path.file ? "" : " in \(other.file ?? "another document")"
                throw FixtureErrors.at(
                    object.path.file, "\(object.path)._ref", entity: object.entity.name,
                    "the _ref \(JSONValue.quoted(ref)) is already used by \(other)\(where_); "
                        + "each _ref must be unique in the fixture set")
            }
            byRef[ref] = i
        }
        let knownRefs = byRef.keys.sorted()
        for i in objects.indices {
            let object = objects[i]
            for (r, refs) in object.relationshipRefs {
                var targets: [Int] = []
                for (position, ref) in refs.enumerated() {
                    guard let ref else { continue }
                    let at =
                        r.isToMany
                        ? "\(object.path).\(r.name)[\(position)]" : "\(object.path).\(r.name)"
                    func fail(_ rule: String) -> ObjectGraphError {
                        FixtureErrors.at(
                            object.path.file, at, entity: object.entity.name, key: r.name, rule)
                    }
                    guard let target = byRef[ref] else {
                        throw fail(
                            "no object has _ref \(JSONValue.quoted(ref))"
                                + FixtureErrors.suggestion(ref, among: knownRefs))
                    }
                    if let destination = r.destinationEntity,
                        !objects[target].entity.isKind(of: destination)
                    {
                        throw fail(
                            "\(JSONValue.quoted(ref)) is a \(objects[target].entity.name) (\(objects[target].path)); "
                                + "\(object.entity.name).\(r.name) holds \(r.destinationEntityName) objects"
                        )
                    }
                    if targets.contains(target) {
                        throw fail(
                            "\(JSONValue.quoted(ref)) is listed twice in \(object.entity.name).\(r.name)"
                        )
                    }
                    targets.append(target)
                }
                objects[i].relationships.append((r, targets))
            }
            objects[i].relationshipRefs = []
        }
    }
}
