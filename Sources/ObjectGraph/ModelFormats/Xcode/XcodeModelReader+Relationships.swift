import Foundation

/// Reading `<relationship>` and `<fetchedProperty>`.
extension XcodeModelReader {
    static let deleteRules: [String: DeleteRule] = [
        "Nullify": .nullify, "Cascade": .cascade, "Deny": .deny, "No Action": .noAction,
    ]

    mutating func readRelationship(_ node: XMLNode, entity: String) throws
        -> RelationshipDescription
    {
        var probe = XcodeElement(node, file: file, entity: entity)
        let name = try probe.requiredString("name")
        var element = XcodeElement(node, file: file, entity: entity, property: name)
        _ = element.string("name")
        note(node, entity: entity, property: name)
        element.ignore("syncable", "indexed", "spotlightIndexingEnabled", "storedInTruthFile")
        let destination = try element.requiredString("destinationEntity")
        if let inverseEntity = element.string("inverseEntity"), inverseEntity != destination {
            throw element.error(
                "inverseEntity \(inverseEntity) differs from destinationEntity \(destination)")
        }
        let ruleName = element.string("deletionRule") ?? "Nullify"
        guard let rule = Self.deleteRules[ruleName] else {
            throw element.error(
                "deletionRule \"\(EchoedText.capped(ruleName))\" should be Nullify, Cascade, Deny or No Action"
            )
        }
        let toMany = try element.bool("toMany", default: false)
        // Xcode writes minCount/maxCount 1 on to-ones, and keeps ordered="YES" when a to-many
        // becomes a to-one; only a to-many's counts and order mean anything.
        let minCount = try element.int("minCount") ?? 0
        let maxCount = try element.int("maxCount") ?? 0
        let relationship = RelationshipDescription(
            name: name, destination: destination, inverse: element.string("inverseName"),
            isToMany: toMany,
            isOrdered: try element.bool("ordered", default: false) && toMany,
            isOptional: try element.bool("optional", default: false),
            isTransient: try element.bool("transient", default: false),
            minCount: toMany ? minCount : 0, maxCount: toMany ? maxCount : 0, deleteRule: rule,
            userInfo: try readUserInfo(children: node, element: element),
            versionHashModifier: element.string("versionHashModifier"),
            renamingIdentifier: element.string("elementID"))
        warnings += element.unreadAttributeWarnings()
        return relationship
    }

    /// `<fetchedProperty name=… optional=…><fetchRequest entity=… predicateString=…/></fetchedProperty>`.
    mutating func readFetchedProperty(_ node: XMLNode, entity: String) throws
        -> FetchedPropertyDescription
    {
        var probe = XcodeElement(node, file: file, entity: entity)
        let name = try probe.requiredString("name")
        var element = XcodeElement(node, file: file, entity: entity, property: name)
        _ = element.string("name")
        element.ignore("syncable")
        note(node, entity: entity, property: name)
        var request: (entity: String, predicate: String?)?
        var userInfo: [String: String] = [:]
        for child in node.children {
            switch child.name {
            case "fetchRequest":
                var requestElement = XcodeElement(child, file: file, entity: entity, property: name)
                requestElement.ignore("name")
                request = (
                    try requestElement.requiredString("entity"),
                    requestElement.string("predicateString")
                )
                for grandchild in child.children {
                    warnings.append(requestElement.unknownChildWarning(grandchild))
                }
                warnings += requestElement.unreadAttributeWarnings()
            case "userInfo": userInfo = try readUserInfo(child, entity: entity, property: name)
            default: warnings.append(element.unknownChildWarning(child))
            }
        }
        guard let request else {
            throw element.error("a fetched property needs a <fetchRequest> naming its entity")
        }
        let fetched = FetchedPropertyDescription(
            name: name, destination: request.entity, predicateFormat: request.predicate,
            isOptional: try element.bool("optional", default: false), userInfo: userInfo,
            versionHashModifier: element.string("versionHashModifier"),
            renamingIdentifier: element.string("elementID"))
        warnings += element.unreadAttributeWarnings()
        return fetched
    }
}
