import Foundation

/// A named fetch request stored in the model, such as Xcode's model-level fetch requests.
///
/// ```swift
/// FetchRequestTemplate(name: "recent", entityName: "Transaction",
///                      predicateFormat: "date > $SINCE", fetchLimit: 20)
/// ```
///
/// The predicate is kept as its format string, `$VARIABLE`s included; the query layer parses
/// it and substitutes variables when a request is made from the template. Building the model
/// checks that the entity exists. Templates do not change version hashes.
///
/// - Note: Mirrors the requests of `NSManagedObjectModel.fetchRequestTemplatesByName`.
public struct FetchRequestTemplate: Sendable, Hashable {
    /// The template's name, unique in the model.
    public let name: String
    /// The entity fetched.
    public let entityName: String
    /// The predicate as a format string (may hold `$VARIABLE`s), or `nil` for every object.
    public let predicateFormat: String?
    /// What a fetch returns (default `.managedObject`).
    public let resultType: ResultType
    /// The most results to return; 0 means no limit.
    public let fetchLimit: Int
    /// How many objects to fetch per batch; 0 means all at once.
    public let fetchBatchSize: Int
    /// Whether objects of subentities match too (default `true`).
    public let includesSubentities: Bool
    /// Whether property values are fetched with the objects (default `true`).
    public let includesPropertyValues: Bool
    /// Whether unsaved changes in the context are matched (default `true`).
    public let includesPendingChanges: Bool
    /// Whether objects are returned as faults (default `true`).
    public let returnsObjectsAsFaults: Bool
    /// Whether a dictionary fetch drops duplicate results (default `false`).
    public let returnsDistinctResults: Bool

    /// Creates a template; the defaults are Core Data's.
    public init(
        name: String, entityName: String, predicateFormat: String? = nil,
        resultType: ResultType = .managedObject,
        fetchLimit: Int = 0, fetchBatchSize: Int = 0, includesSubentities: Bool = true,
        includesPropertyValues: Bool = true, includesPendingChanges: Bool = true,
        returnsObjectsAsFaults: Bool = true, returnsDistinctResults: Bool = false
    ) {
        self.name = name
        self.entityName = entityName
        self.predicateFormat = predicateFormat
        self.resultType = resultType
        self.fetchLimit = fetchLimit
        self.fetchBatchSize = fetchBatchSize
        self.includesSubentities = includesSubentities
        self.includesPropertyValues = includesPropertyValues
        self.includesPendingChanges = includesPendingChanges
        self.returnsObjectsAsFaults = returnsObjectsAsFaults
        self.returnsDistinctResults = returnsDistinctResults
    }

    /// What a fetch made from a template returns.
    ///
    /// - Note: Mirrors `NSFetchRequestResultType`; ``coreDataValue`` is its raw value.
    public enum ResultType: String, Sendable, Hashable, CaseIterable {
        /// Managed objects.
        case managedObject
        /// Object IDs.
        case managedObjectID
        /// Dictionaries of property values.
        case dictionary
        /// The number of matches.
        case count

        /// Core Data's raw value (0, 1, 2, 4), as Xcode writes it.
        public var coreDataValue: Int {
            switch self {
            case .managedObject: 0
            case .managedObjectID: 1
            case .dictionary: 2
            case .count: 4
            }
        }

        /// The result type with Core Data's raw value, or `nil`.
        public init?(coreDataValue: Int) {
            guard let match = Self.allCases.first(where: { $0.coreDataValue == coreDataValue })
            else { return nil }
            self = match
        }
    }
}
