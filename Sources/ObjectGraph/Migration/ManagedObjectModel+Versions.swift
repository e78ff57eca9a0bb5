import Foundation

extension ManagedObjectModel {
    /// Every version of an `.xcdatamodeld` bundle, oldest first: the order of the versions'
    /// names (`Model`, `Model 2`, `Model 3`, compared as numbers where they hold numbers), as
    /// Xcode orders a bundle's versions; the current version (`.xccurrentversion`) does not
    /// change the order. Pass the earlier ones as ``StoreOptions/modelVersions``.
    ///
    /// ```swift
    /// let versions = try ManagedObjectModel.versions(ofModelAt: bundleURL)
    /// options.modelVersions = Array(versions.dropLast())
    /// ```
    ///
    /// - Throws: As ``init(contentsOf:version:classResolver:modules:)``, for the first version that
    ///   does not load.
    public static func versions(ofModelAt url: URL) throws -> [ManagedObjectModel] {
        let names = try XcodeModelLocator.versions(in: url).map {
            String($0.dropLast(".xcdatamodel".count))
        }.sorted { $0.localizedStandardCompare($1) == .orderedAscending }
        return try names.map { try ManagedObjectModel(contentsOf: url, version: $0) }
    }
}
