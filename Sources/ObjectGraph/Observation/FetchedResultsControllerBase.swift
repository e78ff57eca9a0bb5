import Foundation

/// What every ``FetchedResultsController`` shares whatever its result type: the class its
/// delegate methods receive.
///
/// Compare it with your controller by identity (`controller === self.controller`), or cast it
/// back to `FetchedResultsController<YourType>`.
///
/// - Note: Stands in for `NSFetchedResultsController<NSFetchRequestResult>` in Core Data's
///   delegate methods.
open class FetchedResultsControllerBase {
    /// The key path giving each object's section name, or `nil` for one section.
    ///
    /// - Note: Mirrors `sectionNameKeyPath`.
    public let sectionNameKeyPath: String?
    /// The name given at creation. Accepted for Core Data code; no cache is kept (sections
    /// are computed in memory by each ``FetchedResultsController/performFetch()``).
    ///
    /// - Note: Mirrors `cacheName`.
    public let cacheName: String?

    init(sectionNameKeyPath: String?, cacheName: String?) {
        self.sectionNameKeyPath = sectionNameKeyPath
        self.cacheName = cacheName
    }

    /// The index title for the section named `sectionName`: its first letter, capitalised
    /// (`nil` for the empty name).
    ///
    /// Override it in a subclass to title sections otherwise; a delegate's
    /// ``FetchedResultsControllerDelegate/controller(_:sectionIndexTitleForSectionName:)``
    /// takes precedence.
    ///
    /// - Note: Mirrors `sectionIndexTitle(forSectionName:)`.
    open func sectionIndexTitle(forSectionName sectionName: String) -> String? {
        guard let first = sectionName.first else { return nil }
        return String(first).capitalized
    }

    /// Does nothing: no section cache is ever written, so there is nothing to delete.
    ///
    /// Core Data keeps a persistent cache of section information under a controller's
    /// `cacheName`; ObjectGraph computes sections in memory at each `performFetch()`, so a
    /// changed request never meets a stale cache. Accepted so ported code runs unchanged.
    ///
    /// - Parameter name: A cache name, or `nil` for all caches.
    /// - Note: Mirrors `NSFetchedResultsController.deleteCache(withName:)`.
    public class func deleteCache(withName name: String?) {}
}
