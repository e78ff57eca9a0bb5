import Foundation

/// Resolves and checks a model's entities once, inside `ManagedObjectModel.init`.
struct ModelLinker {
    let model: ManagedObjectModel

    func link() throws {
        for (i, entity) in model.entities.enumerated() {
            entity.managedObjectModel = model
            entity.index = i
        }
        try resolveInheritance()
        for entity in inheritanceOrder() { try layOutProperties(of: entity) }
        for entity in model.entities {
            for case let attribute as AttributeDescription in entity.ownProperties {
                try check(attribute, in: entity)
            }
            for case let relationship as RelationshipDescription in entity.ownProperties {
                try resolve(relationship, in: entity)
            }
        }
        for entity in model.entities { try checkConstraints(of: entity) }
    }

    private func resolveInheritance() throws {
        for entity in model.entities {
            guard let parentName = entity.superentityName else { continue }
            guard let parent = model.entitiesByName[parentName] else {
                throw ModelError.badSuperentity(entity: entity.name, superentity: parentName,
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
                    throw ModelError.badSuperentity(entity: entity.name, superentity: entity.superentityName ?? "",
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
        for property in entity.ownProperties {
            guard !property.name.isEmpty, !property.name.contains(".") else {
                throw ModelError.invalidName(entity: entity.name, property: property.name)
            }
            guard byName[property.name] == nil else {
                throw ModelError.duplicateProperty(entity: entity.name, property: property.name)
            }
            guard property.entity == nil else {
                throw ModelError.badAttribute(entity: entity.name, attribute: property.name,
                                              reason: "this description already belongs to another entity")
            }
            property.entity = entity
            property.index = properties.count
            properties.append(property)
            byName[property.name] = property
        }
        entity.properties = properties
        entity.propertiesByName = byName
        entity.attributesByName = byName.compactMapValues { $0 as? AttributeDescription }
        entity.relationshipsByName = byName.compactMapValues { $0 as? RelationshipDescription }
    }

    private func check(_ attribute: AttributeDescription, in entity: EntityDescription) throws {
        func fail(_ reason: String) -> ObjectGraphError {
            ModelError.badAttribute(entity: entity.name, attribute: attribute.name, reason: reason)
        }
        if attribute.type == .undefined && !attribute.isTransient {
            throw fail("type 'undefined' is allowed only for transient attributes")
        }
        guard let d = attribute.defaultValue.coerced(to: attribute.type) else {
            throw fail("default value \(attribute.defaultValue) is not a valid \(attribute.type.rawValue)")
        }
        attribute.defaultValue = d
        for (label, limit) in [("minValue", attribute.minValue), ("maxValue", attribute.maxValue)] {
            guard let limit else { continue }
            guard attribute.type.isNumeric || attribute.type == .date else {
                throw fail("\(label) applies only to numbers and dates, not \(attribute.type.rawValue)")
            }
            guard let converted = limit.coerced(to: attribute.type), !converted.isNull else {
                throw fail("\(label) \(limit) is not a valid \(attribute.type.rawValue)")
            }
            if label == "minValue" { attribute.minValue = converted } else { attribute.maxValue = converted }
        }
        if attribute.minLength != nil || attribute.maxLength != nil || attribute.pattern != nil,
           attribute.type != .string {
            throw fail("length and pattern limits apply only to strings, not \(attribute.type.rawValue)")
        }
        if let lo = attribute.minLength, let hi = attribute.maxLength, lo > hi {
            throw fail("minLength \(lo) is greater than maxLength \(hi)")
        }
        if let pattern = attribute.pattern {
            do { _ = try NSRegularExpression(pattern: pattern) } catch {
                throw fail("pattern \(pattern) is not a valid regular expression")
            }
        }
    }

    private func resolve(_ relationship: RelationshipDescription, in entity: EntityDescription) throws {
        guard let destination = model.entitiesByName[relationship.destinationEntityName] else {
            throw ModelError.unknownDestination(entity: entity.name, relationship: relationship.name,
                                                destination: relationship.destinationEntityName)
        }
        relationship.destinationEntity = destination
        guard let inverseName = relationship.inverseName else { return }
        guard let inverse = destination.relationshipsByName[inverseName] else {
            throw ModelError.badInverse(entity: entity.name, relationship: relationship.name,
                                        reason: "\(destination.name).\(inverseName) is not a relationship of \(destination.name)")
        }
        guard let back = model.entitiesByName[inverse.destinationEntityName],
              entity.isKind(of: back) || back.isKind(of: entity) else {
            throw ModelError.badInverse(entity: entity.name, relationship: relationship.name,
                                        reason: "\(destination.name).\(inverseName) points to \(inverse.destinationEntityName), not \(entity.name)")
        }
        if let backName = inverse.inverseName, backName != relationship.name {
            throw ModelError.badInverse(entity: entity.name, relationship: relationship.name,
                                        reason: "\(destination.name).\(inverseName) names \(backName) as its inverse, not \(relationship.name)")
        }
        relationship.inverseRelationship = inverse
        if inverse.inverseName == nil { inverse.inverseRelationship = relationship }
    }

    private func checkConstraints(of entity: EntityDescription) throws {
        for constraint in entity.uniquenessConstraints {
            guard !constraint.isEmpty else {
                throw ModelError.badConstraint(entity: entity.name, key: "[]", reason: "a constraint names no attribute")
            }
            for key in constraint {
                guard let property = entity.propertiesByName[key] else {
                    throw ModelError.badConstraint(entity: entity.name, key: key, reason: "no such attribute")
                }
                if property.isTransient {
                    throw ModelError.badConstraint(entity: entity.name, key: key, reason: "transient properties cannot be unique")
                }
                if let r = property as? RelationshipDescription, r.isToMany {
                    throw ModelError.badConstraint(entity: entity.name, key: key, reason: "to-many relationships cannot be unique")
                }
            }
        }
    }
}
