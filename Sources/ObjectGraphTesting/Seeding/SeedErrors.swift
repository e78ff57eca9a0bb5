import Foundation
import ObjectGraph

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a ``PreviewSeeder`` count that cannot be used (an abstract
    /// entity, a negative number).
    public static let invalidSeedCount = Self("invalidSeedCount", code: 134060)
    /// 134060 (`NSCoreDataError`): an attribute pattern that uses regular-expression features
    /// the seeder's generator does not support.
    public static let unsupportedSeedPattern = Self("unsupportedSeedPattern", code: 134060)
    /// 134060 (`NSCoreDataError`): a rule of the model (an attribute's limits, a relationship's
    /// counts, a uniqueness constraint) the seeder cannot satisfy.
    public static let unsatisfiableSeedRule = Self("unsatisfiableSeedRule", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/invalidSeedCount`` (134060), for `catch` clauses.
    public static var invalidSeedCount: Reason { .invalidSeedCount }
    /// ``Reason/unsupportedSeedPattern`` (134060), for `catch` clauses.
    public static var unsupportedSeedPattern: Reason { .unsupportedSeedPattern }
    /// ``Reason/unsatisfiableSeedRule`` (134060), for `catch` clauses.
    public static var unsatisfiableSeedRule: Reason { .unsatisfiableSeedRule }
}

/// Error factories of the preview seeder: each names the entity, the property and the rule
/// the seeder cannot satisfy.
enum SeedErrors {
    static func unknownEntity(_ name: String, known: [String]) -> ObjectGraphError {
        ObjectGraphError(
            .unknownEntity,
            "PreviewSeeder: the model has no entity \(name)"
                + FixtureErrors.suggestion(name, among: known), entityName: name)
    }

    static func abstractEntity(_ entity: EntityDescription) -> ObjectGraphError {
        let concrete = entity.selfAndDescendants.filter { !$0.isAbstract }.map(\.name)
        return ObjectGraphError(
            .invalidSeedCount,
            "PreviewSeeder: \(entity.name) is abstract and is never instantiated; "
                + "give counts for its subentities (\(concrete.joined(separator: ", ")))",
            entityName: entity.name)
    }

    static func negativeCount(_ name: String, _ count: Int) -> ObjectGraphError {
        ObjectGraphError(
            .invalidSeedCount,
            "PreviewSeeder: the count for \(name) is \(count); counts must be 0 or more",
            entityName: name)
    }

    static func unsupportedPattern(
        entity: String, attribute: AttributeDescription,
        _ error: UnsupportedPattern
    ) -> ObjectGraphError {
        ObjectGraphError(
            .unsupportedSeedPattern,
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
            .unsatisfiableSeedRule,
            "PreviewSeeder: cannot generate \(entity).\(attribute.name): \(reason)",
            entityName: entity, key: attribute.name)
    }

    static func unsatisfiableRelationship(
        entity: String, relationship: RelationshipDescription,
        reason: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .unsatisfiableSeedRule,
            "PreviewSeeder: cannot satisfy \(entity).\(relationship.name) "
                + "(\(rule(relationship))): \(reason)", entityName: entity, key: relationship.name)
    }

    static func unsatisfiableConstraint(
        entity: String, constraint: [String], attempts: Int,
        detail: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .unsatisfiableSeedRule,
            "PreviewSeeder: cannot satisfy uniqueness constraint \(entity)("
                + "\(constraint.joined(separator: ", "))): \(detail) after \(attempts) attempts "
                + "(the attributes' rules leave too few distinct values)",
            entityName: entity, key: constraint.joined(separator: ","))
    }

    /// The generated data did not pass the save: the save's error, with its code, explained.
    static func saveFailed(_ error: ObjectGraphError) -> ObjectGraphError {
        error.relocated(
            message: "PreviewSeeder: the generated objects failed to save, so a rule of the "
                + "model is one the seeder does not honour: \(error.message)", file: error.file)
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
