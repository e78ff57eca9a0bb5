import Foundation

extension PersistentContainer {
    /// Creates a container whose model is the Xcode data model `<name>.xcdatamodeld` (or
    /// `<name>.xcdatamodel`), found in `bundle`, then in the main bundle, then in the current
    /// directory, the way Core Data looks for `<name>.momd`.
    ///
    /// ```swift
    /// let container = try PersistentContainer(name: "ExpenseTracker")   // ./ExpenseTracker.xcdatamodeld
    /// ```
    ///
    /// - Parameters:
    ///   - name: The model's and the container's name.
    ///   - bundle: A bundle to search first (for example a package's `Bundle.module`).
    ///   - classResolver: Maps the model's class names to `ManagedObject` subclasses.
    /// - Throws: ``ObjectGraphError`` ``ObjectGraphError/Reason/modelNotFound`` (134060)
    ///   naming every place searched when no
    ///   model is found, or the model reader's error when the model is malformed.
    /// - Note: Mirrors `NSPersistentContainer.init(name:)`, which cannot throw (Core Data logs and
    ///   leaves the container unusable).
    public convenience init(
        name: String, bundle: Bundle? = nil,
        classResolver: ((String) -> ManagedObject.Type?)? = nil
    ) throws {
        let candidates = Self.modelCandidates(name: name, bundle: bundle)
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) })
        else {
            throw ContainerErrors.modelNotFound(name, searched: candidates)
        }
        let model = try ManagedObjectModel(contentsOf: url, classResolver: classResolver)
        self.init(name: name, managedObjectModel: model)
    }

    /// Where a model named `name` may be, in search order.
    static func modelCandidates(name: String, bundle: Bundle?) -> [URL] {
        var directories: [URL] = []
        if let bundle { directories.append(bundle.bundleURL) }
        if let resources = bundle?.resourceURL { directories.append(resources) }
        directories.append(Bundle.main.bundleURL)
        if let resources = Bundle.main.resourceURL { directories.append(resources) }
        directories.append(URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        var seen = Set<String>()
        return directories.flatMap { directory in
            ["xcdatamodeld", "xcdatamodel"].map {
                directory.appendingPathComponent("\(name).\($0)")
            }
        }.filter { seen.insert($0.path).inserted }
    }
}
