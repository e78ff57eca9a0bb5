import Foundation

/// A fetched property: a named, read-only query from an object to objects of another entity.
///
/// ```swift
/// FetchedPropertyDescription(name: "bigSpends", destination: "Transaction",
///                            predicateFormat: "amount > 100 AND category == $FETCH_SOURCE")
/// ```
///
/// Fetched properties hold no stored value and take no slot in rows: an entity lists them in
/// ``EntityDescription/fetchedProperties``, apart from ``EntityDescription/properties``. The
/// predicate is kept as its format string (`$FETCH_SOURCE` and `$FETCHED_PROPERTY` name the
/// source object and this property, as in Core Data) and is evaluated by the query layer.
/// Its ``PropertyDescription/versionHash`` covers name, optionality, destination and modifier;
/// fetched properties are not inputs of the entity's version hash, since they store nothing.
///
/// - Note: Mirrors `NSFetchedPropertyDescription`, whose `fetchRequest` is reduced to its
///   entity name and predicate format.
public final class FetchedPropertyDescription: PropertyDescription, @unchecked Sendable {
    // Sendable: destinationEntity is written only while ManagedObjectModel.init links the model.
    /// The name of the entity whose objects the property fetches.
    public let destinationEntityName: String
    /// The fetch's predicate in the predicate language, or `nil` to fetch every object.
    public let predicateFormat: String?

    /// The resolved destination entity; set when the model is built.
    public internal(set) unowned var destinationEntity: EntityDescription?

    /// Creates a fetched property.
    ///
    /// - Parameters:
    ///   - name: The key, unique among the entity's properties and fetched properties.
    ///   - destination: The entity fetched.
    ///   - predicateFormat: The predicate, as a format string; `nil` fetches all objects.
    ///   - isOptional: Kept from the model; default `true`.
    ///   - userInfo: Extra information kept with the model; default empty.
    ///   - versionHashModifier: A string mixed into the version hash; default `nil`.
    ///   - renamingIdentifier: The name in an earlier model version, for migration.
    public init(
        name: String, destination: String, predicateFormat: String? = nil, isOptional: Bool = true,
        userInfo: [String: String] = [:], versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil
    ) {
        self.destinationEntityName = destination
        self.predicateFormat = predicateFormat
        super.init(
            name: name, isOptional: isOptional, isTransient: false, userInfo: userInfo,
            versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier)
    }
}
