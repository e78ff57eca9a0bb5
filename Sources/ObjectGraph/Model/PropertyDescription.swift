import Foundation

/// The common part of an entity's attributes and relationships.
///
/// Not created directly: use ``AttributeDescription`` or ``RelationshipDescription``.
/// A description is configured before its model is built and is immutable afterwards;
/// once built, ``index`` is the property's slot in rows and objects of its entity and of
/// every subentity (inherited properties come first).
///
/// - Note: Mirrors `NSPropertyDescription`.
public class PropertyDescription: @unchecked Sendable, CustomStringConvertible {
    // Sendable: every stored property is written only while ManagedObjectModel.init links the
    // model, before the description is published to any other thread; it is read-only after.
    /// The property's name, unique within its entity and its entity's ancestors.
    public let name: String
    /// Whether `nil` is allowed at save (default `true`, as in Core Data).
    public let isOptional: Bool
    /// Whether the property is kept only in memory and never stored (default `false`).
    public let isTransient: Bool
    /// Free-form key-value pairs from the model (Xcode's User Info).
    public let userInfo: [String: String]
    /// A string mixed into ``versionHash`` to force a new version (default `nil`).
    public let versionHashModifier: String?
    /// The property's name in the previous model version, for migration (default `nil`).
    public let renamingIdentifier: String?

    /// The entity that declares this property; set when the model is built.
    @exclusivity(unchecked) public internal(set) unowned var entity: EntityDescription?
    /// The property's slot in the rows and objects of its entity; set when the model is built.
    @exclusivity(unchecked) public internal(set) var index: Int = -1
    /// The property's 32-byte version hash (SHA-256); empty until the model is built.
    ///
    /// Computed once when the model is built from the name, ``isOptional``, ``isTransient``,
    /// the attribute type (attributes) or the destination entity's name, `isToMany` and
    /// `isOrdered` (relationships), and ``versionHashModifier``. Defaults, validation rules,
    /// userInfo and renaming identifier do not change it.
    ///
    /// - Note: Mirrors `NSPropertyDescription.versionHash`.
    public internal(set) var versionHash = Data()

    init(
        name: String, isOptional: Bool, isTransient: Bool, userInfo: [String: String],
        versionHashModifier: String?, renamingIdentifier: String?
    ) {
        self.name = name
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.userInfo = userInfo
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
    }

    /// `Entity.name`, or just the name before the model is built.
    public var description: String {
        if let entity { "\(entity.name).\(name)" } else { name }
    }
}
