import Foundation

/// Compares two models property by property and says whether rows written with one can be
/// read with the other unchanged (<doc:VersioningAndMigration#Compatibility>).
///
/// Schema differences (they need a migration): an entity added, removed or renamed; an
/// entity's superentity or abstractness; a stored attribute's name, type or optionality; a
/// stored relationship's name, destination, to-one/to-many, ordering or optionality; which
/// properties are stored (a property becoming transient or stored); the order of an entity's
/// stored slots; uniqueness constraints. Everything else (transient properties, validation
/// rules, delete rules, counts, defaults, user info, class names, indexes, fetch request
/// templates, renaming identifiers, version hash modifiers) applies from the next save without
/// a migration.
package enum SchemaComparison {
    /// The schema differences between `stored` (the model a file was written with) and
    /// `current`, one sentence each, in entity order; empty when rows of `stored` read
    /// unchanged with `current`.
    package static func differences(from stored: ManagedObjectModel, to current: ManagedObjectModel)
        -> [String]
    {
        var found: [String] = []
        let currentNames = Set(current.entities.map(\.name))
        for entity in stored.entities where !currentNames.contains(entity.name) {
            found.append("entity \(entity.name) is not in the model")
        }
        for entity in current.entities {
            guard let old = stored.entitiesByName[entity.name] else {
                found.append("entity \(entity.name) is new")
                continue
            }
            found += differences(from: old, to: entity)
        }
        return found
    }

    private static func differences(from old: EntityDescription, to new: EntityDescription)
        -> [String]
    {
        var found: [String] = []
        let name = new.name
        if old.superentityName != new.superentityName {
            found.append(
                "\(name): superentity \(old.superentityName ?? "none") → "
                    + "\(new.superentityName ?? "none")")
        }
        if old.isAbstract != new.isAbstract {
            found.append("\(name): abstract \(old.isAbstract) → \(new.isAbstract)")
        }
        if Set(old.uniquenessConstraints.map { $0.sorted() })
            != Set(new.uniquenessConstraints.map { $0.sorted() })
        {
            found.append("\(name): uniqueness constraints differ")
        }
        let oldSlots = RowCodec.storedSlots(of: old)
        let newSlots = RowCodec.storedSlots(of: new)
        let oldByName = Dictionary(oldSlots.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let newNames = Set(newSlots.map(\.name))
        for property in oldSlots where !newNames.contains(property.name) {
            found.append("\(name).\(property.name) is no longer stored")
        }
        for property in newSlots {
            guard let before = oldByName[property.name] else {
                found.append("\(name).\(property.name) is new")
                continue
            }
            if let change = change(from: before, to: property) {
                found.append("\(name).\(property.name): \(change)")
            }
        }
        if found.isEmpty, oldSlots.map(\.name) != newSlots.map(\.name) {
            found.append("\(name): the stored properties are in another order")
        }
        return found
    }

    /// How one stored property's schema changed, or `nil`.
    static func change(from old: PropertyDescription, to new: PropertyDescription) -> String? {
        if old.isOptional != new.isOptional {
            return new.isOptional ? "becomes optional" : "becomes required"
        }
        switch (old, new) {
        case (let a as AttributeDescription, let b as AttributeDescription):
            // Transformable values are stored as their bytes, as binary data is.
            let bytes: Set<AttributeType> = [.binaryData, .transformable]
            if a.type == b.type || (bytes.contains(a.type) && bytes.contains(b.type)) { return nil }
            return "type \(a.type.rawValue) → \(b.type.rawValue)"
        case (let a as RelationshipDescription, let b as RelationshipDescription):
            if a.destinationEntityName != b.destinationEntityName {
                return "destination \(a.destinationEntityName) → \(b.destinationEntityName)"
            }
            if a.isToMany != b.isToMany {
                return b.isToMany ? "to-one → to-many" : "to-many → to-one"
            }
            if a.isOrdered != b.isOrdered {
                return b.isOrdered ? "becomes ordered" : "becomes unordered"
            }
            return nil
        default:
            return "changes between attribute and relationship"
        }
    }
}
