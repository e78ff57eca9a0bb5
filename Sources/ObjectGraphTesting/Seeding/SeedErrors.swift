import Foundation
import ObjectGraph

/// Error factories of the preview seeder (code 134060 unless stated): each names the
/// entity, the property and the rule the seeder cannot satisfy.
enum SeedErrors {
    static func unknownEntity(_ name: String, known: [String]) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "PreviewSeeder: the model has no entity \(name)"
                + FixtureErrors.suggestion(name, among: known), entityName: name)
    }

    static func abstractEntity(_ entity: EntityDescription) -> ObjectGraphError {
        let concrete = entity.selfAndDescendants.filter { !$0.isAbstract }.map(\.name)
        return ObjectGraphError(
            .coreData,
            "PreviewSeeder: \(entity.name) is abstract and is never instantiated; "
                + "give counts for its subentities (\(concrete.joined(separator: ", ")))",
            entityName: entity.name)
    }

    static func negativeCount(_ name: String, _ count: Int) -> ObjectGraphError {
        ObjectGraphError(
            .coreData, "PreviewSeeder: the count for \(name) is \(count); counts must be 0 or more",
            entityName: name)
    }

    static func unsupportedPattern(
        entity: String, attribute: AttributeDescription,
        _ error: UnsupportedPattern
    ) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "PreviewSeeder: \(entity).\(attribute.name): pattern \(attribute.pattern ?? "") uses "
                + "\(error.what) ('\(error.part)' at character \(error.position)), which the generator does not "
                + "support (it supports literals, escapes such as \\d \\w \\s, '.', classes [a-z] and [^...], "
                + "groups, alternation, quantifiers ? * + {m} {m,n} and anchors ^ $)",
            entityName: entity, key: attribute.name)
    }

    static func unsatisfiableAttribute(
        entity: String, attribute: AttributeDescription, reason: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .coreData, "PreviewSeeder: cannot generate \(entity).\(attribute.name): \(reason)",
            entityName: entity, key: attribute.name)
    }

    static func unsatisfiableRelationship(
        entity: String, relationship: RelationshipDescription,
        reason: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "PreviewSeeder: cannot satisfy \(entity).\(relationship.name) "
                + "(\(rule(relationship))): \(reason)", entityName: entity, key: relationship.name)
    }

    static func unsatisfiableConstraint(
        entity: String, constraint: [String], attempts: Int,
        detail: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "PreviewSeeder: cannot satisfy uniqueness constraint \(entity)("
                + "\(constraint.joined(separator: ", "))): \(detail) after \(attempts) attempts "
                + "(the attributes' rules leave too few distinct values)",
            entityName: entity, key: constraint.joined(separator: ","))
    }

    /// The generated data did not pass the save: the save's error, with its code, explained.
    static func saveFailed(_ error: ObjectGraphError) -> ObjectGraphError {
        ObjectGraphError(
            error.code,
            "PreviewSeeder: the generated objects failed to save, so a rule of the model is "
                + "one the seeder does not honour: \(error.message)", entityName: error.entityName,
            key: error.key, value: error.value, objectID: error.objectID,
            underlying: error.underlying)
    }

    /// A relationship's rules in words: "to-many, at least 1, at most 3, required".
    static func rule(_ r: RelationshipDescription) -> String {
        var parts = [
            r.isToMany ? "to-many \(r.destinationEntityName)" : "to-one \(r.destinationEntityName)"
        ]
        if r.minCount > 0 { parts.append("minCount \(r.minCount)") }
        if r.maxCount > 0 { parts.append("maxCount \(r.maxCount)") }
        parts.append(r.isOptional ? "optional" : "required")
        return parts.joined(separator: ", ")
    }
}
