import Foundation

/// Resolves and checks a model's entities once, inside `ManagedObjectModel.init`, then
/// computes their version hashes. On failure ``unlink(_:)`` returns the descriptions to
/// their unbuilt state, so a failed build leaves nothing half-linked.
struct ModelLinker {
    let model: ManagedObjectModel

    /// Links and checks the model; returns the warnings for ``ManagedObjectModel/loadWarnings``.
    func link() throws -> [String] {
        for (i, entity) in model.entities.enumerated() {
            entity.managedObjectModel = model
            entity.index = i
        }
        try resolveInheritance()
        let ordered = inheritanceOrder()
        for entity in ordered { try layOutProperties(of: entity) }
        for entity in model.entities {
            for case let attribute as AttributeDescription in entity.ownProperties {
                try check(attribute, in: entity)
            }
            for case let relationship as RelationshipDescription in entity.ownProperties {
                try check(relationship, in: entity)
                try resolve(relationship, in: entity)
            }
            for fetched in entity.ownFetchedProperties { try resolve(fetched, in: entity) }
        }
        for entity in model.entities {
            try checkConstraints(of: entity)
            try checkIndexes(of: entity)
        }
        try checkConfigurations()
        try checkFetchRequestTemplates()
        for entity in ordered { VersionHasher.assignHashes(to: entity) }
        for entity in model.entities { entity.layout = EntityLayout(entity) }
        return warnings()
    }

    /// Clears everything linking set on `entities` and on the properties they declare.
    static func unlink(_ entities: [EntityDescription]) {
        for entity in entities {
            let declared: [PropertyDescription] = entity.ownProperties + entity.ownFetchedProperties
            for property in declared where property.entity === entity {
                property.entity = nil
                property.index = -1
                property.versionHash = Data()
                if let relationship = property as? RelationshipDescription {
                    relationship.destinationEntity = nil
                    relationship.inverseRelationship = nil
                }
                (property as? FetchedPropertyDescription)?.destinationEntity = nil
            }
            entity.managedObjectModel = nil
            entity.layout = .empty
            entity.superentity = nil
            entity.subentities = []
            entity.properties = []
            entity.propertiesByName = [:]
            entity.attributesByName = [:]
            entity.relationshipsByName = [:]
            entity.fetchedProperties = []
            entity.fetchedPropertiesByName = [:]
            entity.index = -1
            entity.versionHash = Data()
        }
    }

    /// Whether `name` can name an entity or property: a letter or `_`, then letters, digits
    /// or `_` (so it works in key paths and predicates).
    static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }

    private func resolveInheritance() throws {
        for entity in model.entities {
            guard let parentName = entity.superentityName else { continue }
            guard let parent = model.entitiesByName[parentName] else {
                throw ModelError.badSuperentity(
                    entity: entity.name, superentity: parentName,
                    reason: "is not in the model")
            }
            entity.superentity = parent
            parent.subentities.append(entity)
        }
        for entity in model.entities {
            var seen: Set<ObjectIdentifier> = [ObjectIdentifier(entity)]
            var current = entity.superentity
            while let c = current {
                guard seen.insert(ObjectIdentifier(c)).inserted else {
                    throw ModelError.badSuperentity(
                        entity: entity.name, superentity: entity.superentityName ?? "",
                        reason: "forms an inheritance cycle")
                }
                current = c.superentity
            }
        }
    }

    /// Entities with every ancestor before its descendants.
    private func inheritanceOrder() -> [EntityDescription] {
        model.entities.filter { $0.superentity == nil }.flatMap(\.selfAndDescendants)
    }

    private func layOutProperties(of entity: EntityDescription) throws {
        var properties = entity.superentity?.properties ?? []
        var byName = entity.superentity?.propertiesByName ?? [:]
        var fetched = entity.superentity?.fetchedProperties ?? []
        var fetchedByName = entity.superentity?.fetchedPropertiesByName ?? [:]
        let declared: [PropertyDescription] = entity.ownProperties + entity.ownFetchedProperties
        for property in declared {
            guard Self.isValidName(property.name) else {
                throw ModelError.invalidName(entity: entity.name, property: property.name)
            }
            guard byName[property.name] == nil, fetchedByName[property.name] == nil else {
                throw ModelError.duplicateProperty(entity: entity.name, property: property.name)
            }
            guard property.entity == nil else {
                throw ModelError.badAttribute(
                    entity: entity.name, attribute: property.name,
                    reason: "this description already belongs to another entity")
            }
            property.entity = entity
            if let fetchedProperty = property as? FetchedPropertyDescription {
                fetched.append(fetchedProperty)
                fetchedByName[property.name] = fetchedProperty
            } else {
                property.index = properties.count
                properties.append(property)
                byName[property.name] = property
            }
        }
        entity.properties = properties
        entity.propertiesByName = byName
        entity.attributesByName = byName.compactMapValues { $0 as? AttributeDescription }
        entity.relationshipsByName = byName.compactMapValues { $0 as? RelationshipDescription }
        entity.fetchedProperties = fetched
        entity.fetchedPropertiesByName = fetchedByName
    }

    private func resolve(_ fetched: FetchedPropertyDescription, in entity: EntityDescription) throws
    {
        guard let destination = model.entitiesByName[fetched.destinationEntityName] else {
            throw ModelError.unknownDestination(
                entity: entity.name, relationship: fetched.name,
                destination: fetched.destinationEntityName)
        }
        fetched.destinationEntity = destination
    }

    /// What the model allows but is probably a mistake.
    private func warnings() -> [String] {
        model.entities.filter { $0.isAbstract && $0.selfAndDescendants.allSatisfy(\.isAbstract) }
            .map {
                "\($0.name) is abstract and has no concrete subentity, so it can hold no objects"
            } + model.entities.flatMap(mandatoryDestinationWarnings(of:))
            + model.entities.flatMap(unregisteredTransformerWarnings(of:))
            + model.entities.flatMap(ignoredTransformerWarnings(of:))
    }

    private func resolve(_ relationship: RelationshipDescription, in entity: EntityDescription)
        throws
    {
        func fail(_ reason: String) -> ObjectGraphError {
            ModelError.badInverse(
                entity: entity.name, relationship: relationship.name, reason: reason)
        }
        guard let destination = model.entitiesByName[relationship.destinationEntityName] else {
            throw ModelError.unknownDestination(
                entity: entity.name, relationship: relationship.name,
                destination: relationship.destinationEntityName)
        }
        relationship.destinationEntity = destination
        guard let inverseName = relationship.inverseName else { return }
        guard let inverse = destination.relationshipsByName[inverseName] else {
            throw fail(
                "\(destination.name).\(inverseName) is not a relationship of \(destination.name)")
        }
        guard let back = model.entitiesByName[inverse.destinationEntityName],
            entity.isKind(of: back) || back.isKind(of: entity)
        else {
            throw fail(
                "\(destination.name).\(inverseName) points to \(inverse.destinationEntityName), not \(entity.name)"
            )
        }
        if let backName = inverse.inverseName, backName != relationship.name {
            throw fail(
                "\(destination.name).\(inverseName) names \(backName) as its inverse, not \(relationship.name)"
            )
        }
        if inverse.inverseName == nil {
            if let claimed = inverse.inverseRelationship, claimed !== relationship {
                throw fail(
                    "\(destination.name).\(inverseName) is already the inverse of \(claimed)")
            }
            inverse.inverseRelationship = relationship
        }
        relationship.inverseRelationship = inverse
    }
}
