import Foundation

/// The mapping lightweight migration infers between two models, as Core Data infers it
/// (`../shared/reference/coredata-semantics.md` (k)): entities and properties match by
/// name, or by the destination's `renamingIdentifier` (the source name); attributes keep
/// their values, widening numeric types; relationships keep their targets across to-one ↔
/// to-many and ordered ↔ unordered changes; new attributes take their defaults.
///
/// - Note: Mirrors `NSMappingModel.inferredMappingModel(forSourceModel:destinationModel:)`.
package struct InferredMapping: Sendable {
    /// How one destination property gets its values.
    package enum PropertySource: Sendable {
        /// Copied from the source property (an attribute, maybe widened; or a relationship).
        case property(PropertyDescription)
        /// Derived from the inverse of a relationship whose inverse has a source.
        case inverse(of: RelationshipDescription, source: RelationshipDescription)
        /// New: the default value (attributes) or no targets (relationships).
        case new
    }

    /// One destination entity and where its rows come from.
    package struct EntityMapping: Sendable {
        package let destination: EntityDescription
        /// The source entity, or `nil` for a new entity (no rows).
        package let source: EntityDescription?
        /// For each stored slot of the destination, in slot order.
        package let properties: [(PropertyDescription, PropertySource)]
    }

    package let source: ManagedObjectModel
    package let destination: ManagedObjectModel
    /// One per destination entity, in model order.
    package let entities: [EntityMapping]
    /// Destination entity by source entity index (`nil`: the source entity is removed).
    let destinationOf: [EntityDescription?]

    /// Infers the mapping from `source` to `destination`.
    ///
    /// - Throws: `.migrationMissingMappingModel` (134140, with the reasons in an underlying
    ///   134190) when a change cannot be inferred: an attribute type that is not a widening,
    ///   a property turning from attribute to relationship, a relationship whose targets'
    ///   entity no longer fits its destination, two source hierarchies merged into one.
    package init(from source: ManagedObjectModel, to destination: ManagedObjectModel) throws {
        self.source = source
        self.destination = destination
        var problems: [String] = []
        var destinationOf = [EntityDescription?](repeating: nil, count: source.entities.count)
        var mappings: [EntityMapping] = []
        for entity in destination.entities {
            let old = Self.sourceEntity(for: entity, in: source)
            if let old {
                if let other = destinationOf[old.index] {
                    problems.append(
                        "\(entity.name) and \(other.name) both take the rows of \(old.name)")
                }
                destinationOf[old.index] = entity
            }
            var slots: [(PropertyDescription, PropertySource)] = []
            for property in RowCodec.storedSlots(of: entity) {
                let from = old.flatMap { Self.sourceProperty(for: property, in: $0) }
                if let from {
                    if let problem = Self.problem(from: from, to: property, entity: entity.name) {
                        problems.append(problem)
                    }
                    slots.append((property, .property(from)))
                } else if let r = property as? RelationshipDescription,
                    let inverse =
                        r.inverseRelationship,
                    let inverseOld = Self.sourceEntity(for: inverse.entity!, in: source),
                    let inverseFrom = Self.sourceProperty(for: inverse, in: inverseOld)
                        as? RelationshipDescription
                {
                    slots.append((property, .inverse(of: inverse, source: inverseFrom)))
                } else {
                    slots.append((property, .new))
                }
            }
            mappings.append(EntityMapping(destination: entity, source: old, properties: slots))
        }
        problems += Self.mergedHierarchies(source: source, destinationOf: destinationOf)
        for mapping in mappings {
            for case (let property as RelationshipDescription, .property(let from)) in mapping
                .properties
            {
                let oldDestination = (from as! RelationshipDescription).destinationEntity!
                for target in oldDestination.selfAndDescendants where !target.isAbstract {
                    guard let mapped = destinationOf[target.index] else { continue }
                    if !property.destinationEntity!.selfAndDescendants.contains(where: {
                        $0 === mapped
                    }) {
                        problems.append(
                            "\(mapping.destination.name).\(property.name): targets of "
                                + "\(target.name) become \(mapped.name), which is not a "
                                + "\(property.destinationEntityName)")
                    }
                }
            }
        }
        if !problems.isEmpty { throw MigrationErrors.noMapping(nil, problems) }
        self.entities = mappings
        self.destinationOf = destinationOf
    }

    /// The source entity `entity` takes its rows from. Renaming identifiers are canonical
    /// (coredata-semantics.md (k)): the destination's identifier (else its name) matches a
    /// source entity of that name, or one carrying the same identifier, so renames chain
    /// across versions.
    static func sourceEntity(for entity: EntityDescription, in source: ManagedObjectModel)
        -> EntityDescription?
    {
        let key = entity.renamingIdentifier ?? entity.name
        return source.entitiesByName[key]
            ?? source.entities.first { $0.renamingIdentifier == key }
    }

    /// The source property `property` takes its values from, in the row's source entity,
    /// matched as ``sourceEntity(for:in:)`` matches entities.
    static func sourceProperty(for property: PropertyDescription, in entity: EntityDescription)
        -> PropertyDescription?
    {
        let key = property.renamingIdentifier ?? property.name
        guard
            let found = entity.propertiesByName[key]
                ?? entity.properties.first(where: { $0.renamingIdentifier == key }),
            !found.isTransient, !(found is FetchedPropertyDescription)
        else { return nil }
        return found
    }

    /// Why `from`'s values cannot become `to`'s, or `nil` when they can.
    static func problem(from: PropertyDescription, to: PropertyDescription, entity: String)
        -> String?
    {
        switch (from, to) {
        case (let a as AttributeDescription, let b as AttributeDescription):
            if a.type == b.type || isWidening(a.type, b.type) { return nil }
            return "\(entity).\(to.name) changes type from \(a.type.rawValue) to "
                + "\(b.type.rawValue), which lightweight migration cannot convert (use a "
                + "CustomMigrationStage)"
        case (is RelationshipDescription, is RelationshipDescription):
            return nil
        default:
            return "\(entity).\(to.name) changes between attribute and relationship"
        }
    }

    /// Whether every `from` value is exactly a `to` value.
    static func isWidening(_ from: AttributeType, _ to: AttributeType) -> Bool {
        switch (from, to) {
        case (.integer16, .integer32), (.integer16, .integer64), (.integer32, .integer64),
            (.float, .double):
            true
        default: false
        }
    }

    /// Source hierarchies whose entities land in one destination hierarchy: their primary
    /// keys were allocated separately and may collide, so Core Data refuses it ("you cannot
    /// merge entity hierarchies", coredata-semantics.md (k)).
    private static func mergedHierarchies(
        source: ManagedObjectModel, destinationOf: [EntityDescription?]
    ) -> [String] {
        var rootsByDestinationRoot: [String: Set<String>] = [:]
        for entity in source.entities {
            guard let mapped = destinationOf[entity.index] else { continue }
            rootsByDestinationRoot[mapped.rootEntity.name, default: []].insert(
                entity.rootEntity.name)
        }
        return rootsByDestinationRoot.sorted { $0.key < $1.key }.compactMap { root, sources in
            sources.count > 1
                ? "the hierarchies of \(sources.sorted().joined(separator: " and ")) would merge "
                    + "under \(root), which lightweight migration cannot do"
                : nil
        }
    }
}
