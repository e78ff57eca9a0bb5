import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`; Core Data raises an exception): a fetched results
    /// controller's objects are not grouped by section, because the first sort descriptor
    /// does not sort by the section name key path.
    public static let sectionsOutOfOrder = Self("sectionsOutOfOrder", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/sectionsOutOfOrder`` (134060), for `catch` clauses.
    public static var sectionsOutOfOrder: Reason { .sectionsOutOfOrder }
}
