import Foundation

/// An entity: a named kind of object with attributes, relationships and constraints.
///
/// ```swift
/// EntityDescription(name: "Category", managedObjectClass: Category.self, properties: [
///     AttributeDescription(name: "name", type: .string, isOptional: false),
///     RelationshipDescription(name: "transactions", destination: "Transaction",
///                             inverse: "category", isToMany: true),
/// ], uniquenessConstraints: [["name"]])
/// ```
///
/// An entity may inherit from a superentity (`superentityName`): its rows and objects then
/// carry the superentity's properties first, in the same slots, followed by its own.
/// Abstract entities cannot be instantiated. Once its model is built, an entity is
/// immutable and `Sendable`.
///
/// - Note: Mirrors `NSEntityDescription`.
public final class EntityDescription: @unchecked Sendable, CustomStringConvertible {
    // Sendable: resolved fields are written only by ManagedObjectModel.init before publication
    // (so they are marked `@exclusivity(unchecked)`: hot read paths skip the runtime check).
    /// The entity's name, unique in its model.
    public let name: String
    /// The class instantiated for this entity's objects: the class given when the entity
    /// was made, else the subclass bound to it later by name (see ``ManagedObject``'s
    /// `init(context:)`), else ``ManagedObject``.
    public var managedObjectClass: ManagedObject.Type {
        declaredClass != ManagedObject.self ? declaredClass : binding.boundClass
    }
    /// The class name recorded in the model (Xcode's `representedClassName`), if any.
    public let managedObjectClassName: String?
    /// The class given at creation; ``ManagedObject`` when none was.
    let declaredClass: ManagedObject.Type
    /// The subclass bound to the entity by name after the model was built, if any.
    let binding = ClassBinding()
    /// The shared records of this entity's object IDs, per store (see ``ObjectIDScope``).
    let idScopes = ObjectIDScopes()
    /// Whether the entity is abstract (no instances of its own).
    public let isAbstract: Bool
    /// The name of the superentity, if any.
    public let superentityName: String?
    /// The attributes and relationships this entity declares itself, in declaration order.
    public let ownProperties: [PropertyDescription]
    /// Sets of attribute names whose combined values must be unique at save.
    public let uniquenessConstraints: [[String]]
    /// Free-form key-value pairs from the model.
    public let userInfo: [String: String]
    /// A string mixed into ``versionHash`` to force a new version.
    public let versionHashModifier: String?
    /// The entity's name in the previous model version, for migration.
    public let renamingIdentifier: String?
    /// The fetched properties this entity declares itself.
    public let ownFetchedProperties: [FetchedPropertyDescription]
    /// Store indexes over this entity's properties (hints for stores; not inherited).
    public let indexes: [FetchIndexDescription]

    /// The model this entity belongs to; set when the model is built.
    @exclusivity(unchecked) public internal(set) unowned var managedObjectModel: ManagedObjectModel?
    /// The resolved superentity; set when the model is built.
    @exclusivity(unchecked) public internal(set) unowned var superentity: EntityDescription?
    /// The entities that inherit from this one, directly; set when the model is built.
    @exclusivity(unchecked) public internal(set) var subentities: [EntityDescription] = []
    /// Every property including inherited ones, in slot order (inherited first).
    @exclusivity(unchecked) public internal(set) var properties: [PropertyDescription] = []
    /// Every property by name, inherited ones included.
    @exclusivity(unchecked) public internal(set) var propertiesByName:
        [String: PropertyDescription] = [:]
    /// Every attribute by name, inherited ones included.
    @exclusivity(unchecked) public internal(set) var attributesByName:
        [String: AttributeDescription] = [:]
    /// Every relationship by name, inherited ones included.
    @exclusivity(unchecked) public internal(set) var relationshipsByName:
        [String: RelationshipDescription] = [:]
    /// Every fetched property, inherited first; set when the model is built.
    @exclusivity(unchecked) public internal(set) var fetchedProperties:
        [FetchedPropertyDescription] = []
    /// Every fetched property by name, inherited ones included; set when the model is built.
    @exclusivity(unchecked) public internal(set) var fetchedPropertiesByName:
        [String: FetchedPropertyDescription] = [:]
    /// This entity's position in its model's ``ManagedObjectModel/entities``.
    @exclusivity(unchecked) public internal(set) var index: Int = -1
    /// Slot kinds and cached lists for the engine's hot paths; set when the model is built.
    @exclusivity(unchecked) var layout = EntityLayout.empty
    /// Set only on the entity of a key-path probe object: its wrapped properties report their
    /// key to this `KeyPathProbe.Recorder` (of `Objects/`) instead of reading a slot.
    @exclusivity(unchecked) var keyPathProbe: AnyObject?
    /// A number no other entity of this process has, even one allocated where a freed one was:
    /// caches that outlive entities (`PropertyKeys`) key by it, not by the object's address.
    let serialNumber = EntitySerialNumbers.next()
    /// The entity's 32-byte version hash (SHA-256); empty until the model is built.
    ///
    /// Computed once when the model is built from the entity's name, its superentity's hash,
    /// ``isAbstract``, its own properties' ``PropertyDescription/versionHash``es and
    /// ``versionHashModifier``. Defaults, validation rules, userInfo, class name and
    /// renaming identifier do not change it. The bytes hashed are listed in
    /// <doc:ModelFormat>; the values differ from Core Data's, which are not published.
    ///
    /// - Note: Mirrors `NSEntityDescription.versionHash`.
    public internal(set) var versionHash = Data()

    /// Creates an entity.
    ///
    /// - Parameters:
    ///   - name: Unique in the model.
    ///   - managedObjectClass: The subclass to instantiate; default ``ManagedObject``.
    ///   - managedObjectClassName: The class name to record; defaults to the class's name.
    ///   - isAbstract: Default `false`.
    ///   - superentityName: The entity this one inherits from.
    ///   - properties: Attributes and relationships declared here.
    ///   - uniquenessConstraints: Each inner array names attributes whose values together
    ///     must be unique (single-attribute constraints are one-element arrays).
    ///   - userInfo: Extra information kept with the model; default empty.
    ///   - versionHashModifier: A string mixed into the version hash; default `nil`.
    ///   - renamingIdentifier: The name in an earlier model version, for migration.
    ///   - fetchedProperties: Fetched properties declared here (no slots in rows); those
    ///     passed in `properties` are moved here.
    ///   - indexes: Store indexes over this entity's properties.
    public init(
        name: String, managedObjectClass: ManagedObject.Type = ManagedObject.self,
        managedObjectClassName: String? = nil, isAbstract: Bool = false,
        superentityName: String? = nil, properties: [PropertyDescription] = [],
        uniquenessConstraints: [[String]] = [], userInfo: [String: String] = [:],
        versionHashModifier: String? = nil, renamingIdentifier: String? = nil,
        fetchedProperties: [FetchedPropertyDescription] = [], indexes: [FetchIndexDescription] = []
    ) {
        self.name = name
        self.declaredClass = managedObjectClass
        self.managedObjectClassName =
            managedObjectClassName
            ?? (managedObjectClass == ManagedObject.self
                ? nil : String(describing: managedObjectClass))
        self.isAbstract = isAbstract
        self.superentityName = superentityName
        self.ownProperties = properties.filter { !($0 is FetchedPropertyDescription) }
        self.uniquenessConstraints = uniquenessConstraints
        self.userInfo = userInfo
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.ownFetchedProperties =
            fetchedProperties + properties.compactMap { $0 as? FetchedPropertyDescription }
        self.indexes = indexes
    }

    /// Every attribute, inherited first, in slot order.
    public var attributes: [AttributeDescription] {
        layout.kinds.count == properties.count
            ? layout.attributeList : properties.compactMap { $0 as? AttributeDescription }
    }
    /// Every relationship, inherited first, in slot order.
    public var relationships: [RelationshipDescription] {
        layout.kinds.count == properties.count
            ? layout.relationshipList
            : properties.compactMap { $0 as? RelationshipDescription }
    }

    /// The top of this entity's inheritance chain (itself when it has no superentity).
    public var rootEntity: EntityDescription {
        var entity = self
        while let parent = entity.superentity { entity = parent }
        return entity
    }

    /// Whether this entity is `other` or inherits from it.
    ///
    /// Cost: an identity test when the entity is `other` (the common case: a relationship's
    /// destination set to an object of exactly that entity), else a walk up the superentities.
    public func isKind(of other: EntityDescription) -> Bool {
        // Answered before the walk, which holds each entity it visits (a retain and release).
        if self === other { return true }
        var entity: EntityDescription? = superentity
        while let current = entity {
            if current === other { return true }
            entity = current.superentity
        }
        return false
    }

    /// This entity and all entities below it, depth first.
    public var selfAndDescendants: [EntityDescription] {
        [self] + subentities.flatMap(\.selfAndDescendants)
    }

    /// The entity's name.
    public var description: String { name }
}

/// Hands out ``EntityDescription/serialNumber``s.
enum EntitySerialNumbers {
    private static let counter = SerialCounter()

    static func next() -> UInt { UInt(counter.next()) }
}
