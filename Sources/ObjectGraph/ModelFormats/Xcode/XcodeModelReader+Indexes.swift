import Foundation

/// Reading `<fetchIndex>` and `<compoundIndexes>`.
///
/// Indexes are advisory in Core Data ("Compound indexes are only used by stores that
/// natively support compound indices—setting them is only advisory",
/// `NSEntityDescription.compoundIndexes`), and Xcode compiles models whose indexes name
/// properties no store can index (a to-many relationship, a transient, a property since
/// removed). Such an element is dropped with a warning, an index left with no element is
/// dropped, and a second index of the same name is dropped: none of it stops the load.
extension XcodeModelReader {
    /// What an index needs to know about a property, read before the entities are.
    enum PropertyKind {
        case stored
        case transient
        case toMany
        case fetched
    }

    /// Every entity's declared properties and parent, from the `<entity>` elements under
    /// `root`, so an index can be checked against inherited properties too.
    static func scanProperties(_ root: XMLNode) -> [String: (
        parent: String?, properties: [String: PropertyKind]
    )] {
        var result: [String: (parent: String?, properties: [String: PropertyKind])] = [:]
        for entity in root.children where entity.name == "entity" {
            guard let name = entity.attributes["name"] else { continue }
            var properties: [String: PropertyKind] = [:]
            for child in entity.children {
                guard let property = child.attributes["name"] else { continue }
                let transient = child.attributes["transient"] == "YES"
                switch child.name {
                case "attribute": properties[property] = transient ? .transient : .stored
                case "relationship":
                    properties[property] =
                        transient
                        ? .transient : child.attributes["toMany"] == "YES" ? .toMany : .stored
                case "fetchedProperty": properties[property] = .fetched
                default: continue
                }
            }
            result[name] = (entity.attributes["parentEntity"], properties)
        }
        return result
    }

    /// The kind of `property` of `entity` or of an entity it inherits from; `nil` when none
    /// declares it.
    func kind(of property: String, in entity: String) -> PropertyKind? {
        var current: String? = entity
        var seen: Set<String> = []
        while let name = current, seen.insert(name).inserted, let facts = declaredProperties[name] {
            if let kind = facts.properties[property] { return kind }
            current = facts.parent
        }
        return nil
    }

    /// Whether `property` can be an element of index `index` of `entity`; if not, a warning at
    /// `element` says why and that the element is dropped.
    mutating func isIndexable(
        _ property: String, index: String, entity: String, at element: XcodeElement
    ) -> Bool {
        let reason: String
        switch kind(of: property, in: entity) {
        case .stored: return true
        case nil: reason = "\(property) is not a property of \(entity) or its superentities"
        case .transient: reason = "\(property) is transient, so not stored"
        case .toMany: reason = "\(property) is a to-many relationship, which cannot be indexed"
        case .fetched: reason = "\(property) is a fetched property, so not stored"
        }
        warnings.append(
            element.warning("index \(index): \(reason); the element is dropped"))
        return false
    }

    /// The index, or `nil` with a warning when it has no element left or its name is taken.
    mutating func keep(
        _ index: FetchIndexDescription, after earlier: [FetchIndexDescription],
        at element: XcodeElement
    ) -> FetchIndexDescription? {
        if index.elements.isEmpty {
            warnings.append(
                element.warning("index \(index.name) has no element left and is dropped"))
            return nil
        }
        if earlier.contains(where: { $0.name == index.name }) {
            warnings.append(
                element.warning("a second index named \(index.name) is dropped"))
            return nil
        }
        return index
    }

    /// `<compoundIndexes><compoundIndex><index value=…/>…` (older Xcode): one index per
    /// `<compoundIndex>`, named `compound_<a>_<b>`.
    mutating func readCompoundIndexes(
        _ node: XMLNode, entity: String, after earlier: [FetchIndexDescription]
    ) throws -> [FetchIndexDescription] {
        var indexes: [FetchIndexDescription] = []
        for list in try readValueNodes(node, list: "compoundIndex", item: "index", entity: entity) {
            let name = "compound_" + list.items.map(\.value).joined(separator: "_")
            let elements = list.items.filter {
                isIndexable($0.value, index: name, entity: entity, at: $0.element)
            }
            let index = FetchIndexDescription(
                name: name, elements: elements.map { .init(property: $0.value) })
            if let kept = keep(index, after: earlier + indexes, at: list.element) {
                indexes.append(kept)
            }
        }
        return indexes
    }

    /// `<fetchIndex name=…><fetchIndexElement property=… type="Binary" order="ascending"/>…`;
    /// an element over an expression instead of a property is skipped with a warning.
    mutating func readFetchIndex(
        _ node: XMLNode, entity: String, after earlier: [FetchIndexDescription]
    ) throws -> FetchIndexDescription? {
        var element = XcodeElement(node, file: file, entity: entity)
        let name = try element.requiredString("name")
        var elements: [FetchIndexDescription.Element] = []
        for child in node.children {
            guard child.name == "fetchIndexElement" else {
                warnings.append(element.unknownChildWarning(child))
                continue
            }
            var item = XcodeElement(child, file: file, entity: entity)
            guard let property = item.string("property") else {
                warnings.append(
                    item.warning(
                        "fetch index \(name): an element without a property (an expression) is skipped"
                    ))
                continue
            }
            let typeName = item.string("type") ?? "Binary"
            let collation: FetchIndexDescription.CollationType
            switch typeName {
            case "Binary": collation = .binary
            case "RTree": collation = .rTree
            default:
                throw item.error(
                    "fetch index \(name): type \"\(EchoedText.capped(typeName))\" should be Binary or RTree"
                )
            }
            let order = item.string("order") ?? "ascending"
            guard order == "ascending" || order == "descending" else {
                throw item.error(
                    "fetch index \(name): order \"\(EchoedText.capped(order))\" should be ascending or descending"
                )
            }
            warnings += item.unreadAttributeWarnings()
            guard isIndexable(property, index: name, entity: entity, at: item) else { continue }
            elements.append(
                .init(
                    property: property, collationType: collation, isAscending: order == "ascending")
            )
        }
        warnings += element.unreadAttributeWarnings()
        return keep(
            FetchIndexDescription(name: name, elements: elements), after: earlier, at: element)
    }
}
