import Foundation

@testable import ObjectGraph

/// Compares two models by name (entities and properties in any order), field by field.
enum ModelComparison {
    /// One line per difference; empty when the models describe the same schema and rules.
    static func differences(_ a: ManagedObjectModel, _ b: ManagedObjectModel) -> [String] {
        var out: [String] = []
        func check<T: Equatable>(_ x: T, _ y: T, _ what: @autoclosure () -> String) {
            if x != y { out.append("\(what()): \(x) ≠ \(y)") }
        }
        check(Set(a.entitiesByName.keys), Set(b.entitiesByName.keys), "entity names")
        check(a.configurations, b.configurations, "configurations")
        check(a.versionIdentifiers, b.versionIdentifiers, "versionIdentifiers")
        check(a.fetchRequestTemplatesByName, b.fetchRequestTemplatesByName, "fetchRequestTemplates")
        for (name, e) in a.entitiesByName.sorted(by: { $0.key < $1.key }) {
            guard let f = b.entitiesByName[name] else { continue }
            check(e.isAbstract, f.isAbstract, "\(name).isAbstract")
            check(e.superentityName, f.superentityName, "\(name).superentityName")
            check(
                e.managedObjectClassName, f.managedObjectClassName, "\(name).managedObjectClassName"
            )
            check(
                Set(e.uniquenessConstraints.map { Set($0) }),
                Set(f.uniquenessConstraints.map { Set($0) }),
                "\(name).uniquenessConstraints")
            check(e.userInfo, f.userInfo, "\(name).userInfo")
            check(e.versionHashModifier, f.versionHashModifier, "\(name).versionHashModifier")
            check(e.renamingIdentifier, f.renamingIdentifier, "\(name).renamingIdentifier")
            check(Set(e.indexes), Set(f.indexes), "\(name).indexes")
            check(
                Set(e.propertiesByName.keys), Set(f.propertiesByName.keys), "\(name) property names"
            )
            check(
                Set(e.fetchedPropertiesByName.keys), Set(f.fetchedPropertiesByName.keys),
                "\(name) fetched names")
            for (key, p) in e.propertiesByName {
                guard let q = f.propertiesByName[key] else { continue }
                let at = "\(name).\(key)"
                check(p.isOptional, q.isOptional, "\(at).isOptional")
                check(p.isTransient, q.isTransient, "\(at).isTransient")
                check(p.userInfo, q.userInfo, "\(at).userInfo")
                check(p.versionHashModifier, q.versionHashModifier, "\(at).versionHashModifier")
                check(p.renamingIdentifier, q.renamingIdentifier, "\(at).renamingIdentifier")
                check(p.versionHash, q.versionHash, "\(at).versionHash")
                if let x = p as? AttributeDescription, let y = q as? AttributeDescription {
                    check(x.type, y.type, "\(at).type")
                    check(x.defaultValue, y.defaultValue, "\(at).defaultValue")
                    check(x.minValue, y.minValue, "\(at).minValue")
                    check(x.maxValue, y.maxValue, "\(at).maxValue")
                    check(x.minLength, y.minLength, "\(at).minLength")
                    check(x.maxLength, y.maxLength, "\(at).maxLength")
                    check(x.pattern, y.pattern, "\(at).pattern")
                    check(
                        x.validationPredicates, y.validationPredicates,
                        "\(at).validationPredicates")
                    check(x.validationWarnings, y.validationWarnings, "\(at).validationWarnings")
                    check(
                        x.valueTransformerName, y.valueTransformerName, "\(at).valueTransformerName"
                    )
                    check(
                        x.attributeValueClassName, y.attributeValueClassName,
                        "\(at).attributeValueClassName")
                    check(
                        x.allowsExternalBinaryDataStorage, y.allowsExternalBinaryDataStorage,
                        "\(at).external")
                    check(
                        x.derivationExpression, y.derivationExpression, "\(at).derivationExpression"
                    )
                    check(x.isIndexed, y.isIndexed, "\(at).isIndexed")
                    check(
                        x.preservesValueInHistoryOnDeletion, y.preservesValueInHistoryOnDeletion,
                        "\(at).preserves")
                } else if let x = p as? RelationshipDescription,
                    let y = q as? RelationshipDescription
                {
                    check(x.destinationEntityName, y.destinationEntityName, "\(at).destination")
                    check(x.inverseName, y.inverseName, "\(at).inverse")
                    check(x.isToMany, y.isToMany, "\(at).isToMany")
                    check(x.isOrdered, y.isOrdered, "\(at).isOrdered")
                    check(x.minCount, y.minCount, "\(at).minCount")
                    check(x.maxCount, y.maxCount, "\(at).maxCount")
                    check(x.deleteRule, y.deleteRule, "\(at).deleteRule")
                } else {
                    out.append("\(at): kinds differ")
                }
            }
            for (key, p) in e.fetchedPropertiesByName {
                guard let q = f.fetchedPropertiesByName[key] else { continue }
                check(
                    p.destinationEntityName, q.destinationEntityName, "\(name).\(key).destination")
                check(p.predicateFormat, q.predicateFormat, "\(name).\(key).predicateFormat")
                check(p.isOptional, q.isOptional, "\(name).\(key).isOptional")
                check(p.userInfo, q.userInfo, "\(name).\(key).userInfo")
                check(p.versionHash, q.versionHash, "\(name).\(key).versionHash")
            }
        }
        check(a.entityVersionHashesByName, b.entityVersionHashesByName, "entityVersionHashesByName")
        return out
    }
}
