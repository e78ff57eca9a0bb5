import Foundation

/// Reads the `contents` XML of an Xcode `.xcdatamodel` into unbuilt descriptions, collecting
/// warnings for what it does not know and throwing, with file, line and column, for what it
/// cannot honour. See <doc:ModelFormat#Xcode-models> for the mapping.
struct XcodeModelReader {
    let file: String
    let classes: ClassNameResolver
    var warnings: [String] = []
    /// Every entity's declared properties and parent, scanned before the entities are read.
    var declaredProperties: [String: (parent: String?, properties: [String: PropertyKind])] = [:]
    /// Where each entity (`"Entity"`) and property (`"Entity.key"`) is declared.
    var locations: [String: (line: Int, column: Int)] = [:]

    init(file: String, classes: ClassNameResolver) {
        self.file = file
        self.classes = classes
    }

    struct Contents {
        var entities: [EntityDescription] = []
        var configurations: [String: [String]] = [:]
        var versionIdentifiers: Set<String> = []
        var fetchRequestTemplates: [FetchRequestTemplate] = []
    }

    mutating func read(_ root: XMLNode) throws -> Contents {
        var model = XcodeElement(root, file: file)
        guard root.name == "model" else {
            throw model.error(
                "expected a <model> root element (an Xcode Core Data model), found <\(root.name)>")
        }
        model.ignore(
            "type", "documentVersion", "lastSavedToolsVersion", "systemVersion",
            "minimumToolsVersion",
            "sourceLanguage", "macOSVersion", "iOSVersion", "usedWithCloudKit", "name")
        declaredProperties = Self.scanProperties(root)
        var contents = Contents()
        if let identifier = model.string("userDefinedModelVersionIdentifier"), !identifier.isEmpty {
            contents.versionIdentifiers = [identifier]
        }
        for child in root.children {
            switch child.name {
            case "entity": contents.entities.append(try readEntity(child))
            case "fetchRequest": contents.fetchRequestTemplates.append(try readTemplate(child))
            case "configuration":
                var configuration = XcodeElement(child, file: file)
                let name = try configuration.requiredString("name")
                configuration.ignore("usedWithCloudKit")
                var members: [String] = []
                for member in child.children {
                    guard member.name == "memberEntity" else {
                        warnings.append(configuration.unknownChildWarning(member))
                        continue
                    }
                    var element = XcodeElement(member, file: file)
                    members.append(try element.requiredString("name"))
                    warnings += element.unreadAttributeWarnings()
                }
                contents.configurations[name] = members
                warnings += configuration.unreadAttributeWarnings()
            case "elements": continue
            case "compositeAttribute":
                let name = child.attributes["name"] ?? "?"
                warnings.append(
                    XcodeElement(child, file: file).warning(
                        "composite attribute type \(EchoedText.capped(name)) is not modelled; "
                            + "attributes of this type are kept as opaque binary data"))
            default: warnings.append(model.unknownChildWarning(child))
            }
        }
        warnings += model.unreadAttributeWarnings()
        return contents
    }

    private mutating func readEntity(_ node: XMLNode) throws -> EntityDescription {
        var probe = XcodeElement(node, file: file)
        let name = try probe.requiredString("name")
        var element = XcodeElement(node, file: file, entity: name)
        _ = element.string("name")
        element.ignore("syncable", "codeGenerationType")
        locations[name] = (node.line, node.column)
        let className = element.string("representedClassName")
        var properties: [PropertyDescription] = []
        var fetched: [FetchedPropertyDescription] = []
        var constraints: [[String]] = []
        var indexes: [FetchIndexDescription] = []
        var userInfo: [String: String] = [:]
        for child in node.children {
            switch child.name {
            case "attribute": properties.append(try readAttribute(child, entity: name))
            case "relationship": properties.append(try readRelationship(child, entity: name))
            case "fetchedProperty": fetched.append(try readFetchedProperty(child, entity: name))
            case "userInfo": userInfo = try readUserInfo(child, entity: name, property: nil)
            case "uniquenessConstraints":
                constraints += try readValueLists(
                    child, list: "uniquenessConstraint",
                    item: "constraint", entity: name)
            case "fetchIndex":
                if let index = try readFetchIndex(child, entity: name, after: indexes) {
                    indexes.append(index)
                }
            case "compoundIndexes":
                indexes += try readCompoundIndexes(child, entity: name, after: indexes)
            default: warnings.append(element.unknownChildWarning(child))
            }
        }
        let entity = EntityDescription(
            name: name,
            managedObjectClass: className.flatMap(classes.resolve) ?? ManagedObject.self,
            managedObjectClassName: className,
            isAbstract: try element.bool("isAbstract", default: false),
            superentityName: element.string("parentEntity"), properties: properties,
            uniquenessConstraints: constraints,
            userInfo: userInfo, versionHashModifier: element.string("versionHashModifier"),
            renamingIdentifier: element.string("elementID"), fetchedProperties: fetched,
            indexes: indexes)
        warnings += element.unreadAttributeWarnings()
        return entity
    }

    mutating func note(_ node: XMLNode, entity: String, property: String) {
        locations["\(entity).\(property)"] = (node.line, node.column)
    }

    /// `<userInfo><entry key="…" value="…"/></userInfo>`.
    mutating func readUserInfo(_ node: XMLNode, entity: String?, property: String?) throws
        -> [String: String]
    {
        let container = XcodeElement(node, file: file, entity: entity, property: property)
        var info: [String: String] = [:]
        for child in node.children {
            guard child.name == "entry" else {
                warnings.append(container.unknownChildWarning(child))
                continue
            }
            var entry = XcodeElement(child, file: file, entity: entity, property: property)
            info[try entry.requiredString("key")] = entry.string("value") ?? ""
            warnings += entry.unreadAttributeWarnings()
        }
        warnings += container.unreadAttributeWarnings()
        return info
    }

    /// Lists of `value`s: `<uniquenessConstraint><constraint value=…/>…`.
    private mutating func readValueLists(
        _ node: XMLNode, list: String, item: String, entity: String
    ) throws -> [[String]] {
        try readValueNodes(node, list: list, item: item, entity: entity).map {
            $0.items.map(\.value)
        }
    }

    /// Lists of `value`s with the elements they came from (for warnings), such as
    /// `<compoundIndex><index value=…/>…`.
    mutating func readValueNodes(
        _ node: XMLNode, list: String, item: String, entity: String
    ) throws -> [(element: XcodeElement, items: [(value: String, element: XcodeElement)])] {
        let container = XcodeElement(node, file: file, entity: entity)
        var lists: [(element: XcodeElement, items: [(value: String, element: XcodeElement)])] = []
        for listNode in node.children {
            guard listNode.name == list else {
                warnings.append(container.unknownChildWarning(listNode))
                continue
            }
            let listElement = XcodeElement(listNode, file: file, entity: entity)
            var values: [(value: String, element: XcodeElement)] = []
            for itemNode in listNode.children {
                guard itemNode.name == item else {
                    warnings.append(listElement.unknownChildWarning(itemNode))
                    continue
                }
                var itemElement = XcodeElement(itemNode, file: file, entity: entity)
                values.append((try itemElement.requiredString("value"), itemElement))
                warnings += itemElement.unreadAttributeWarnings()
            }
            warnings += listElement.unreadAttributeWarnings()
            lists.append((listElement, values))
        }
        warnings += container.unreadAttributeWarnings()
        return lists
    }

    private mutating func readTemplate(_ node: XMLNode) throws -> FetchRequestTemplate {
        var element = XcodeElement(node, file: file)
        let resultCode = try element.int("resultType") ?? 0
        guard let resultType = FetchRequestTemplate.ResultType(coreDataValue: resultCode) else {
            throw element.error("fetch request resultType=\"\(resultCode)\" should be 0, 1, 2 or 4")
        }
        let template = FetchRequestTemplate(
            name: try element.requiredString("name"),
            entityName: try element.requiredString("entity"),
            predicateFormat: element.string("predicateString"), resultType: resultType,
            fetchLimit: try element.int("fetchLimit") ?? 0,
            fetchBatchSize: try element.int("fetchBatchSize") ?? 0,
            includesSubentities: try element.bool("includeSubentities", default: true),
            includesPropertyValues: try element.bool("includePropertyValues", default: true),
            includesPendingChanges: try element.bool("includesPendingChanges", default: true),
            returnsObjectsAsFaults: try element.bool("returnObjectsAsFaults", default: true),
            returnsDistinctResults: try element.bool("returnDistinctResults", default: false))
        for child in node.children { warnings.append(element.unknownChildWarning(child)) }
        warnings += element.unreadAttributeWarnings()
        return template
    }
}
