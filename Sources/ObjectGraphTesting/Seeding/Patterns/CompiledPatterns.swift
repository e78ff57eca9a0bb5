import ObjectGraph

/// Parsed patterns of one seeding run, by pattern text.
final class CompiledPatterns {
    private var nodes: [String: PatternNode] = [:]

    /// The parsed `attribute.pattern`, or `nil` when it has none.
    ///
    /// - Throws: ``ObjectGraphError`` 134060 naming `entity.attribute`, the pattern and the
    ///   construct the generator does not support.
    func node(for attribute: AttributeDescription, of entity: String) throws -> PatternNode? {
        guard let pattern = attribute.pattern else { return nil }
        if let node = nodes[pattern] { return node }
        do {
            let node = try PatternParser.parse(pattern)
            nodes[pattern] = node
            return node
        } catch {
            throw SeedErrors.unsupportedPattern(entity: entity, attribute: attribute, error)
        }
    }
}
