import Foundation

extension PersistentContainer {
    /// Creates a container whose model is the Xcode data model `<name>.xcdatamodeld` (or
    /// `<name>.xcdatamodel`), found in `bundle`, then in the main bundle, then in the current
    /// directory, the way Core Data looks for `<name>.momd`.
    ///
    /// ```swift
    /// let container = PersistentContainer(name: "ExpenseTracker")   // ./ExpenseTracker.xcdatamodeld
    /// container.loadPersistentStores { _, error in
    ///     if let error { fatalError("\(error)") }    // a missing model is reported here
    /// }
    /// ```
    ///
    /// It does not throw, as in Core Data: when no model is found, or the model does not read,
    /// the container has an empty model and ``loadPersistentStores(completionHandler:)``
    /// reports the error for every store (``loadPersistentStores()`` throws it), naming every
    /// place searched. The model's classes are found as
    /// ``ManagedObjectModel/init(contentsOf:version:classResolver:modules:)`` finds them, and
    /// bound by name on first use otherwise.
    ///
    /// - Parameters:
    ///   - name: The model's and the container's name.
    ///   - bundle: A bundle to search first (for example a package's `Bundle.module`).
    ///   - classResolver: Maps the model's class names to `ManagedObject` subclasses.
    ///   - modules: Modules in which to look for class names that are not module-qualified.
    /// - Note: Mirrors `NSPersistentContainer.init(name:)` (which logs and leaves the container
    ///   without a model).
    public convenience init(
        name: String, bundle: Bundle? = nil,
        classResolver: ((String) -> ManagedObject.Type?)? = nil, modules: [String] = []
    ) {
        let candidates = Self.modelCandidates(name: name, bundle: bundle)
        do {
            guard
                let url = candidates.first(where: {
                    FileManager.default.fileExists(atPath: $0.path)
                })
            else {
                throw ContainerErrors.modelNotFound(name, searched: candidates)
            }
            let model = try ManagedObjectModel(
                contentsOf: url, classResolver: classResolver, modules: modules)
            self.init(name: name, model: model, loadError: nil)
        } catch {
            self.init(
                name: name, model: .empty,
                loadError: ObjectGraphError.wrapping(error))
        }
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
