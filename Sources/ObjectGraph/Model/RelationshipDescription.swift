import Foundation

/// What deleting an object does to the objects a relationship reaches.
///
/// - Note: Mirrors `NSDeleteRule`, with the same raw values.
public enum DeleteRule: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Do nothing; the caller keeps inverses consistent.
    case noAction = 0
    /// Remove the deleted object from the inverse relationship (the default).
    case nullify = 1
    /// Delete the related objects too.
    case cascade = 2
    /// Refuse the deletion (error 1600) while the relationship is not empty.
    case deny = 3
}

/// A relationship from one entity to another: to-one or to-many, with its inverse and delete rule.
///
/// ```swift
/// RelationshipDescription(name: "transactions", destination: "Transaction",
///                         inverse: "category", isToMany: true, deleteRule: .nullify)
/// ```
///
/// Destination and inverse are named; building the model resolves them and checks that the
/// inverse points back. `minCount`/`maxCount` bound a to-many's size at save (0 = no bound).
///
/// - Note: Mirrors `NSRelationshipDescription`.
public final class RelationshipDescription: PropertyDescription, @unchecked Sendable {
    /// The name of the entity the relationship points to.
    public let destinationEntityName: String
    /// The name of the inverse relationship on the destination, if any.
    public let inverseName: String?
    /// Whether the relationship holds a set (or ordered set) of objects.
    public let isToMany: Bool
    /// Whether a to-many keeps its objects in order.
    public let isOrdered: Bool
    /// The fewest objects a to-many may hold at save (0 = no bound).
    public let minCount: Int
    /// The most objects a to-many may hold at save (0 = no bound).
    public let maxCount: Int
    /// What deleting the source object does to the destination objects.
    public let deleteRule: DeleteRule

    /// The resolved destination entity; set when the model is built.
    @exclusivity(unchecked) public internal(set) unowned var destinationEntity: EntityDescription?
    /// The resolved inverse relationship; set when the model is built.
    @exclusivity(unchecked) public internal(set) unowned var inverseRelationship:
        RelationshipDescription?

    /// Creates a relationship.
    ///
    /// - Parameters:
    ///   - name: The key, unique in the entity.
    ///   - destination: The destination entity's name.
    ///   - inverse: The inverse relationship's name on the destination; `nil` for none.
    ///   - isToMany: `true` for a to-many; default to-one.
    ///   - isOrdered: Whether a to-many keeps order; default `false`.
    ///   - isOptional: Whether a to-one may be nil at save; default `true`.
    ///   - isTransient: Whether the relationship is kept in memory only; default `false`.
    ///   - minCount: The fewest objects a to-many may hold at save; 0 means no limit.
    ///   - maxCount: The most objects a to-many may hold at save; 0 means no limit.
    ///   - deleteRule: Default `.nullify`, as in Core Data.
    ///   - userInfo: Extra information kept with the model; default empty.
    ///   - versionHashModifier: A string mixed into the version hash; default `nil`.
    ///   - renamingIdentifier: The name in an earlier model version, for migration.
    public init(
        name: String, destination: String, inverse: String? = nil, isToMany: Bool = false,
        isOrdered: Bool = false, isOptional: Bool = true, isTransient: Bool = false,
        minCount: Int = 0, maxCount: Int = 0, deleteRule: DeleteRule = .nullify,
        userInfo: [String: String] = [:], versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil
    ) {
        self.destinationEntityName = destination
        self.inverseName = inverse
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.minCount = minCount
        self.maxCount = maxCount
        self.deleteRule = deleteRule
        super.init(
            name: name, isOptional: isOptional, isTransient: isTransient,
            userInfo: userInfo, versionHashModifier: versionHashModifier,
            renamingIdentifier: renamingIdentifier)
    }

    /// Whether stores keep this relationship in the source row.
    ///
    /// To-one relationships are always kept. A to-many is kept when nothing else can
    /// rebuild it: it is ordered, has no inverse, or its inverse is to-many. Otherwise it
    /// is derived from its to-one inverse (like a foreign key in SQL).
    public var isStoredInRow: Bool {
        guard !isTransient else { return false }
        guard isToMany else { return true }
        guard let inverse = inverseRelationship else { return true }
        return isOrdered || inverse.isToMany
    }
}
