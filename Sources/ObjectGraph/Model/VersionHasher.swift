import Foundation

/// Computes version hashes: SHA-256 over a length-prefixed encoding of the inputs Core Data
/// documents (<doc:ModelFormat> spells out the bytes, so other programs can compute them).
///
/// Inputs — property: name, isOptional, isTransient, the attribute type or the relationship's
/// destination, isToMany and isOrdered, versionHashModifier. Entity: name, the superentity's
/// hash, isAbstract, its own properties' hashes in name order, versionHashModifier. Defaults,
/// validation rules, userInfo, class names and renaming identifiers are not inputs.
enum VersionHasher {
    /// Sets the hashes of `entity`'s own properties and of `entity` (its superentity's first).
    static func assignHashes(to entity: EntityDescription) {
        for property in entity.ownProperties { property.versionHash = hash(property) }
        for fetched in entity.ownFetchedProperties { fetched.versionHash = hash(fetched) }
        entity.versionHash = hash(entity)
    }

    static func hash(_ property: PropertyDescription, transformableAs: AttributeType? = nil) -> Data
    {
        var input = HashInput()
        if let attribute = property as? AttributeDescription {
            input.append("objectgraph.attribute/1")
            common(property, &input)
            let type =
                attribute.type == .transformable
                ? transformableAs ?? attribute.type : attribute.type
            input.append(type.rawValue)
        } else if let relationship = property as? RelationshipDescription {
            input.append("objectgraph.relationship/1")
            common(property, &input)
            input.append(relationship.destinationEntityName)
            input.append(relationship.isToMany)
            input.append(relationship.isOrdered)
        } else if let fetched = property as? FetchedPropertyDescription {
            input.append("objectgraph.fetchedProperty/1")
            common(property, &input)
            input.append(fetched.destinationEntityName)
        }
        input.appendOptional(property.versionHashModifier)
        return SHA256.hash(input.bytes)
    }

    static func hash(_ entity: EntityDescription) -> Data {
        hash(
            entity, parentHash: entity.superentity?.versionHash,
            propertyHash: { $0.versionHash })
    }

    private static func hash(
        _ entity: EntityDescription, parentHash: Data?,
        propertyHash: (PropertyDescription) -> Data
    ) -> Data {
        var input = HashInput()
        input.append("objectgraph.entity/1")
        input.append(entity.name)
        if let parentHash {
            input.append(true)
            input.bytes.append(contentsOf: parentHash)
        } else {
            input.append(false)
        }
        input.append(entity.isAbstract)
        let properties = entity.ownProperties.sorted {
            $0.name.utf8.lexicographicallyPrecedes($1.name.utf8)
        }
        input.append(UInt32(properties.count))
        for property in properties { input.bytes.append(contentsOf: propertyHash(property)) }
        input.appendOptional(entity.versionHashModifier)
        return SHA256.hash(input.bytes)
    }

    /// The entity hashes `model` had when the Xcode reader kept transformable attributes as
    /// `binaryData` (before value transformers were honoured): a store file written then
    /// still opens with the model read today.
    static func hashesWithTransformablesAsBinaryData(_ model: ManagedObjectModel) -> [String: Data]
    {
        var hashes: [String: Data] = [:]
        func legacy(_ entity: EntityDescription) -> Data {
            if let known = hashes[entity.name] { return known }
            let value = hash(
                entity, parentHash: entity.superentity.map(legacy),
                propertyHash: { hash($0, transformableAs: .binaryData) })
            hashes[entity.name] = value
            return value
        }
        for entity in model.entities { _ = legacy(entity) }
        return hashes
    }

    /// The hash of a whole model: its entities' names and hashes, in name order.
    static func hash(entityHashes: [String: Data]) -> Data {
        var input = HashInput()
        input.append("objectgraph.model/1")
        input.append(UInt32(entityHashes.count))
        for (name, hash) in entityHashes.sorted(by: {
            $0.key.utf8.lexicographicallyPrecedes($1.key.utf8)
        }) {
            input.append(name)
            input.bytes.append(contentsOf: hash)
        }
        return SHA256.hash(input.bytes)
    }

    private static func common(_ property: PropertyDescription, _ input: inout HashInput) {
        input.append(property.name)
        input.append(property.isOptional)
        input.append(property.isTransient)
    }
}

/// The bytes a version hash is taken over: strings as a 4-byte big-endian length and UTF-8,
/// Booleans as one byte, optional strings as a presence byte then the string.
struct HashInput {
    var bytes: [UInt8] = []

    mutating func append(_ count: UInt32) {
        bytes.append(contentsOf: [
            UInt8(count >> 24), UInt8(truncatingIfNeeded: count >> 16),
            UInt8(truncatingIfNeeded: count >> 8), UInt8(truncatingIfNeeded: count),
        ])
    }

    mutating func append(_ string: String) {
        append(UInt32(clamping: string.utf8.count))
        bytes.append(contentsOf: string.utf8)
    }

    mutating func append(_ flag: Bool) { bytes.append(flag ? 1 : 0) }

    mutating func appendOptional(_ string: String?) {
        append(string != nil)
        if let string { append(string) }
    }
}
