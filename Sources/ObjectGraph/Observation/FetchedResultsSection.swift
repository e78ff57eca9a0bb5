import Foundation

/// A section of a fetched results controller: its name, index title and objects.
///
/// - Note: Mirrors `NSFetchedResultsSectionInfo`.
public protocol FetchedResultsSectionInfo {
    /// The section's name: the section key path's value for its objects, `""` for nil.
    var name: String { get }
    /// The section's index title (by default the capitalised first letter of ``name``).
    var indexTitle: String? { get }
    /// How many objects the section holds.
    var numberOfObjects: Int { get }
    /// The section's objects, in order.
    var objects: [Any]? { get }
}

/// One section of a ``FetchedResultsController``, as it was when read.
///
/// - Note: Conforms to ``FetchedResultsSectionInfo``, Core Data's
///   `NSFetchedResultsSectionInfo`; ``results`` gives the objects typed.
public struct FetchedResultsSection<Result: ManagedObject>: FetchedResultsSectionInfo {
    /// The section's name.
    public let name: String
    /// The section's index title.
    public let indexTitle: String?
    private let entries: ArraySlice<FetchedEntry>

    init(name: String, indexTitle: String?, entries: ArraySlice<FetchedEntry>) {
        self.name = name
        self.indexTitle = indexTitle
        self.entries = entries
    }

    /// How many objects the section holds.
    public var numberOfObjects: Int { entries.count }
    /// The section's objects, in order.
    public var objects: [Any]? { entries.map(\.object) }
    /// The section's objects, in order, typed.
    ///
    /// - Complexity: O(n) in the section's objects.
    public var results: [Result] { entries.map { $0.object as! Result } }
}

/// The section passed with a section deletion: its name and title, and no objects left.
struct DeletedSectionInfo: FetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    var numberOfObjects: Int { 0 }
    var objects: [Any]? { [] }
}
