import Foundation

extension ManagedObjectModel {
    /// Reads and builds a model written in ObjectGraph's JSON model format.
    ///
    /// The format is documented in <doc:ModelFormat>; ``jsonData(pretty:)`` writes it.
    /// Every member is checked: an unknown key, a value of the wrong kind or a default that
    /// does not fit its attribute's type names its JSON path, e.g.
    /// `entities[1].properties[3].type (Transaction.amount)`. The built model is then checked
    /// as ``init(entities:configurations:versionIdentifiers:fetchRequestTemplates:)`` does.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(jsonData: data) { name in
    ///     ["Category": Category.self, "Transaction": Transaction.self][name]
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - jsonData: A UTF-8 JSON document.
    ///   - classResolver: Maps an entity's recorded class name (`managedObjectClassName`) to
    ///     the subclass to instantiate. Called during the initializer only. Default: none.
    ///   - modules: Modules in which to look for a recorded class name that is not
    ///     module-qualified, besides the main executable's (`["MyApp"]`). A class found by
    ///     neither the resolver nor a module is bound by name when first used (see
    ///     ``ManagedObject/init(context:)``); until then the entity's objects are
    ///     ``ManagedObject``s.
    /// - Throws: ``ObjectGraphError`` (134060): ``ObjectGraphError/Reason/jsonSyntax`` naming
    ///   the line and column, ``ObjectGraphError/Reason/invalidModelJSON`` naming the JSON path
    ///   of a misfit member, or a model check's reason naming the entity and property at fault.
    /// - Note: Core Data has no JSON model format; this is ObjectGraph's own.
    public convenience init(
        jsonData: Data, classResolver: ((String) -> ManagedObject.Type?)? = nil,
        modules: [String] = []
    ) throws {
        let root = try Self.parseModelJSON(jsonData, file: nil)
        let contents = try ModelJSONReader(
            classes: ClassNameResolver(classResolver, modules: modules)
        )
        .read(root)
        try self.init(
            entities: contents.entities, configurations: contents.configurations,
            versionIdentifiers: contents.versionIdentifiers,
            fetchRequestTemplates: contents.fetchRequestTemplates)
    }

    /// A model document's JSON; a syntax error says it is the model's (`model JSON …`).
    static func parseModelJSON(_ data: Data, file: String?) throws -> JSONValue {
        do {
            return try JSONParser.parse(data, file: file)
        } catch let error as ObjectGraphError where error.reason == .jsonSyntax {
            throw error.relocated(
                message: "model " + error.message, file: error.file, line: error.line,
                column: error.column)
        }
    }

    /// The model in the JSON model format: canonical UTF-8 JSON, byte-identical for equal models.
    ///
    /// Object keys are sorted by their UTF-8 bytes and members holding their default are left
    /// out. The compact form (the default) is one line with no newline, suitable for embedding
    /// in a store's header; `pretty` indents by two spaces. Values round-trip exactly:
    /// decimals keep every digit, doubles and dates their exact bits.
    ///
    /// ```swift
    /// let copy = try ManagedObjectModel(jsonData: model.jsonData())
    /// assert(copy.jsonData() == model.jsonData())
    /// ```
    ///
    /// - Parameter pretty: Indent for people to read; default `false` (one line).
    /// - Complexity: O(size of the model).
    public func jsonData(pretty: Bool = false) -> Data {
        Data(ModelJSONWriter().write(self).serialized(pretty: pretty, sortingKeys: true).utf8)
    }
}
