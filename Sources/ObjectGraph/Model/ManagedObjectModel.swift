import Foundation

/// A checked, immutable schema: the entities an object graph may hold.
///
/// Building a model resolves superentities, relationship destinations and inverses, gives
/// every property its slot, converts literal defaults and limits to their attribute's type,
/// and checks the whole: a duplicate name, an unknown destination, an inverse that does not
/// point back, or a constraint on a missing attribute throws an ``ObjectGraphError`` naming the
/// entity and property. A built model is `Sendable` and may be shared by any number of
/// coordinators.
///
/// ```swift
/// let model = try ManagedObjectModel(entities: [category, transaction])
/// ```
///
/// - Note: Mirrors `NSManagedObjectModel`.
public final class ManagedObjectModel: @unchecked Sendable {
    // Sendable: immutable once init returns.
    /// The model's entities, in declaration order.
    public let entities: [EntityDescription]
    /// The model's entities by name.
    public let entitiesByName: [String: EntityDescription]
    /// Names of the model's configurations and the entities in each (empty: one default).
    public let configurations: [String: [String]]
    /// Free-form version identifiers (Xcode's "Core Data Model Identifier").
    public let versionIdentifiers: Set<String>
    /// Each entity's 32-byte ``EntityDescription/versionHash``, by entity name.
    ///
    /// Stores record these and compare them on open (see ``isCompatible(withVersionHashes:)``).
    ///
    /// - Note: Mirrors `NSManagedObjectModel.entityVersionHashesByName`.
    public private(set) var entityVersionHashesByName: [String: Data] = [:]
    /// One 32-byte SHA-256 over every entity's name and version hash (in name order): equal
    /// exactly when ``entityVersionHashesByName`` is equal.
    ///
    /// - Note: Core Data has no single model hash; this one suits a store header.
    public private(set) var versionHash = Data()
    /// The model's named fetch request templates, by name.
    ///
    /// - Note: Mirrors `NSManagedObjectModel.fetchRequestTemplatesByName`.
    public let fetchRequestTemplatesByName: [String: FetchRequestTemplate]
    /// What reading and building the model noticed but did not refuse, one sentence each:
    /// unknown elements and attributes of an Xcode model, transformables kept as bytes,
    /// derivation expressions the engine does not compute, abstract entities without a
    /// concrete subentity. Empty for a clean model.
    public private(set) var loadWarnings: [String] = []

    /// Builds and checks a model from entity descriptions.
    ///
    /// - Parameters:
    ///   - entities: Each entity at most once; the model takes ownership of the descriptions.
    ///   - configurations: Named subsets of entity names.
    ///   - versionIdentifiers: Free-form identifiers that do not affect version hashes.
    ///   - fetchRequestTemplates: Named fetch requests, each name at most once.
    /// - Throws: ``ObjectGraphError`` (134060) naming the entity and property at fault, with
    ///   the rule's reason: ``ObjectGraphError/Reason/duplicateEntity``,
    ///   ``ObjectGraphError/Reason/invalidInverse``, ``ObjectGraphError/Reason/invalidAttribute``
    ///   and the other model reasons. A failed build leaves the descriptions
    ///   unlinked, as they were.
    /// - Complexity: O(entities + properties), plus compiling each `pattern` once.
    public convenience init(
        entities: [EntityDescription], configurations: [String: [String]] = [:],
        versionIdentifiers: Set<String> = [], fetchRequestTemplates: [FetchRequestTemplate] = []
    ) throws {
        try self.init(
            entities: entities, configurations: configurations,
            versionIdentifiers: versionIdentifiers,
            fetchRequestTemplates: fetchRequestTemplates, warnings: [])
    }

    /// Builds the model, keeping `warnings` a reader collected before the linker's own.
    init(
        entities: [EntityDescription], configurations: [String: [String]],
        versionIdentifiers: Set<String>,
        fetchRequestTemplates: [FetchRequestTemplate], warnings: [String]
    ) throws {
        var templates: [String: FetchRequestTemplate] = [:]
        for template in fetchRequestTemplates {
            guard templates.updateValue(template, forKey: template.name) == nil else {
                throw ModelError.badFetchRequestTemplate(template.name, reason: "is declared twice")
            }
        }
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            guard ModelLinker.isValidName(entity.name) else {
                throw ModelError.invalidName(entity: entity.name, property: nil)
            }
            guard byName[entity.name] == nil else { throw ModelError.duplicateEntity(entity.name) }
            guard entity.managedObjectModel == nil else {
                throw ModelError.entityReused(entity.name)
            }
            byName[entity.name] = entity
        }
        self.entities = entities
        self.entitiesByName = byName
        self.configurations = configurations
        self.versionIdentifiers = versionIdentifiers
        self.fetchRequestTemplatesByName = templates
        do {
            loadWarnings = warnings + (try ModelLinker(model: self).link())
        } catch {
            ModelLinker.unlink(entities)
            throw error
        }
        entityVersionHashesByName = Dictionary(
            uniqueKeysWithValues: entities.map { ($0.name, $0.versionHash) })
        versionHash = VersionHasher.hash(entityHashes: entityVersionHashesByName)
        for entity in entities { entity.idScopes.open(for: ObjectIdentifier(self)) }
    }

    deinit {
        // An ID scope holds its entity and the entity its scopes: the cycle ends with the model.
        for entity in entities { entity.idScopes.retire(for: ObjectIdentifier(self)) }
    }

    /// Whether a store written with these entity version hashes holds data this model reads
    /// unchanged: the same entity names with the same hashes.
    ///
    /// - Parameter hashes: Entity name to 32-byte hash, as a store's metadata recorded them.
    /// - Note: Mirrors `NSManagedObjectModel.isConfiguration(withName:compatibleWithStoreMetadata:)`
    ///   for the default configuration.
    public func isCompatible(withVersionHashes hashes: [String: Data]) -> Bool {
        hashes == entityVersionHashesByName
    }

    /// The fetch request template named `name`, or `nil`.
    ///
    /// - Note: Mirrors `NSManagedObjectModel.fetchRequestTemplate(forName:)`.
    public func fetchRequestTemplate(forName name: String) -> FetchRequestTemplate? {
        fetchRequestTemplatesByName[name]
    }

    /// The entity named `name`, or `nil`.
    public subscript(entityName name: String) -> EntityDescription? { entitiesByName[name] }

    /// A model with no entities (a container's whose model could not be loaded).
    static var empty: ManagedObjectModel {
        do {
            return try ManagedObjectModel(entities: [])
        } catch {
            preconditionFailure("ObjectGraph: a model with no entities always builds: \(error)")
        }
    }
}
