import Foundation

extension ManagedObjectModel {
    /// Reads and builds a model from a file: an Xcode data model, or the JSON model format.
    ///
    /// `url` may be a `.xcdatamodeld` bundle (its current version, named by its
    /// `.xccurrentversion`, or the `version` asked for), a `.xcdatamodel` folder, a model's
    /// `contents` XML file, or a `.json` file in ObjectGraph's JSON model format. Everything
    /// the Xcode format carries that the engine models is read (see
    /// <doc:ModelFormat#Xcode-models>); what it does not know is reported in ``loadWarnings``,
    /// never fatal.
    /// Transformable attributes become opaque `binaryData`, since value transformers do not
    /// exist on Linux.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: "ExpenseTracker.xcdatamodeld"))
    /// for warning in model.loadWarnings { print(warning) }
    /// ```
    ///
    /// - Parameters:
    ///   - url: A file URL.
    ///   - version: For a `.xcdatamodeld`, the version to read (`"Model 2"` or
    ///     `"Model 2.xcdatamodel"`); default the current version. Refused (134060) for a single
    ///     version: a `.json` file, a contents file, or another `.xcdatamodel`'s name.
    ///   - classResolver: Maps a recorded class name (`representedClassName`, tried as
    ///     written and then by its last dot-separated part) to the subclass to instantiate;
    ///     default none.
    ///   - modules: Modules in which to look for a class name that is not module-qualified
    ///     (Xcode records `Category` as often as `MyApp.Category`), besides the main
    ///     executable's. A class found by neither is bound by name when first used: the first
    ///     `Category(context:)` or fetch of `Category` binds it to the entity whose class name
    ///     or name is `Category` (see ``ManagedObject/init(context:)``).
    /// - Throws: ``ObjectGraphError`` (134060) naming the file, line and column:
    ///   ``ObjectGraphError/Reason/modelXMLSyntax`` for malformed XML,
    ///   ``ObjectGraphError/Reason/invalidXcodeModel`` or
    ///   ``ObjectGraphError/Reason/invalidModelJSON`` for an element at fault (with entity and
    ///   property), ``ObjectGraphError/Reason/modelNotFound`` for a missing file or version, and
    ///   the model checks' reasons (see ``ManagedObjectModel/init(entities:configurations:versionIdentifiers:fetchRequestTemplates:)``).
    /// - Note: Mirrors `NSManagedObjectModel(contentsOf:)`, reading the Xcode source format
    ///   rather than a compiled `.momd`.
    public convenience init(
        contentsOf url: URL, version: String? = nil,
        classResolver: ((String) -> ManagedObject.Type?)? = nil, modules: [String] = []
    ) throws {
        let classes = ClassNameResolver(classResolver, modules: modules)
        if url.pathExtension.lowercased() == "json" {
            if let version {
                // A JSON model holds one version, as a single contents file does.
                throw ModelError.xcodeModelLocation(
                    url.path, problem: "version \(version) given for a single file")
            }
            let data = try Self.readFile(url)
            let contents = try ModelJSONReader(classes: classes).read(
                Self.parseModelJSON(data, file: url.path))
            try self.init(
                entities: contents.entities, configurations: contents.configurations,
                versionIdentifiers: contents.versionIdentifiers,
                fetchRequestTemplates: contents.fetchRequestTemplates, warnings: [])
            return
        }
        let file = try XcodeModelLocator.contentsFile(for: url, version: version)
        let root = try XMLNode.parse(Self.readFile(file), file: file.path)
        var reader = XcodeModelReader(file: file.path, classes: classes)
        let contents = try reader.read(root)
        do {
            try self.init(
                entities: contents.entities, configurations: contents.configurations,
                versionIdentifiers: contents.versionIdentifiers,
                fetchRequestTemplates: contents.fetchRequestTemplates, warnings: reader.warnings)
        } catch let error as ObjectGraphError {
            throw Self.located(error, file: file.path, locations: reader.locations)
        }
    }

    private static func readFile(_ url: URL) throws -> Data {
        do { return try InputFile.contents(of: url) } catch {
            throw ModelError.xcodeModelLocation(url.path, problem: error.localizedDescription)
        }
    }

    /// `error` with the file, and the line and column of the entity or property it names.
    private static func located(
        _ error: ObjectGraphError, file: String,
        locations: [String: (line: Int, column: Int)]
    ) -> ObjectGraphError {
        let key = error.entityName.map { entity in error.key.map { "\(entity).\($0)" } ?? entity }
        let place = key.flatMap { locations[$0] } ?? error.entityName.flatMap { locations[$0] }
        let prefix = place.map { "\(file):\($0.line):\($0.column): " } ?? "\(file): "
        return error.relocated(
            message: prefix + error.message, file: file, line: place?.line, column: place?.column)
    }
}
