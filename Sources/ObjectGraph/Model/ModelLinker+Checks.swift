import Foundation

/// The per-property and whole-model rules `ModelLinker` enforces; each failure names the
/// entity and property at fault.
extension ModelLinker {
    func check(_ attribute: AttributeDescription, in entity: EntityDescription) throws {
        func fail(_ reason: String) -> ObjectGraphError {
            ModelError.badAttribute(entity: entity.name, attribute: attribute.name, reason: reason)
        }
        let type = attribute.type
        if type == .undefined && !attribute.isTransient {
            throw fail("type 'undefined' is allowed only for transient attributes")
        }
        if type == .objectID {
            throw fail(
                "type 'objectID' is the result type of expression descriptions, not an attribute type"
            )
        }
        guard let d = attribute.defaultValue.coerced(to: type) else {
            throw fail("default value \(attribute.defaultValue) is not a valid \(type.rawValue)")
        }
        attribute.defaultValue = d.canonicalNaN
        for (label, limit) in [("minValue", attribute.minValue), ("maxValue", attribute.maxValue)] {
            guard let limit else { continue }
            guard type.isNumeric || type == .date else {
                throw fail("\(label) applies only to numbers and dates, not \(type.rawValue)")
            }
            guard let converted = limit.coerced(to: type), !converted.isNull else {
                throw fail("\(label) \(limit) is not a valid \(type.rawValue)")
            }
            guard !converted.isNaN else {
                throw fail("\(label) is NaN, which no value can be compared with")
            }
            if label == "minValue" {
                attribute.minValue = converted
            } else {
                attribute.maxValue = converted
            }
        }
        if let lo = attribute.minValue, let hi = attribute.maxValue, Self.isGreater(lo, than: hi) {
            throw fail("minValue \(lo) is greater than maxValue \(hi)")
        }
        if attribute.minLength != nil || attribute.maxLength != nil || attribute.pattern != nil,
            type != .string
        {
            throw fail("length and pattern limits apply only to strings, not \(type.rawValue)")
        }
        for (label, length) in [
            ("minLength", attribute.minLength), ("maxLength", attribute.maxLength),
        ] {
            if let length, length < 0 { throw fail("\(label) \(length) is negative") }
        }
        if let lo = attribute.minLength, let hi = attribute.maxLength, lo > hi {
            throw fail("minLength \(lo) is greater than maxLength \(hi)")
        }
        if let pattern = attribute.pattern {
            do { _ = try NSRegularExpression(pattern: pattern) } catch {
                throw fail("pattern \(pattern) is not a valid regular expression")
            }
        }
        if attribute.allowsExternalBinaryDataStorage, type != .binaryData, type != .transformable {
            throw fail(
                "allowsExternalBinaryDataStorage applies only to binaryData and transformable, not \(type.rawValue)"
            )
        }
        try checkValidationPredicates(attribute, fail)
        if let expression = attribute.derivationExpression {
            if expression.allSatisfy(\.isWhitespace) { throw fail("derivationExpression is empty") }
            if attribute.isTransient {
                throw fail("a derived attribute is stored, so it cannot be transient")
            }
        }
    }

    /// Same number of predicates and warnings; each predicate applies to a value.
    private func checkValidationPredicates(
        _ attribute: AttributeDescription, _ fail: (String) -> ObjectGraphError
    ) throws {
        let predicates = attribute.validationPredicates
        guard predicates.count == attribute.validationWarnings.count else {
            throw fail(
                "\(predicates.count) validation predicate(s) but "
                    + "\(attribute.validationWarnings.count) warning(s); give one warning each")
        }
        attribute.testablePredicates = try predicates.map { predicate in
            do {
                let testable = try ValidationPredicate(predicate)
                _ = try testable.compiled()
                return testable
            } catch let error as ValidationPredicateError {
                throw fail("validation predicate \(predicate): \(error.reason)")
            } catch let error as ObjectGraphError {
                throw fail("validation predicate \(predicate): \(error.message)")
            }
        }
    }

    func check(_ relationship: RelationshipDescription, in entity: EntityDescription) throws {
        func fail(_ reason: String) -> ObjectGraphError {
            ModelError.badRelationship(
                entity: entity.name, relationship: relationship.name, reason: reason)
        }
        if relationship.minCount < 0 || relationship.maxCount < 0 {
            throw fail(
                "minCount \(relationship.minCount) and maxCount \(relationship.maxCount) must not be negative"
            )
        }
        if !relationship.isToMany {
            if relationship.minCount != 0 || relationship.maxCount != 0 {
                throw fail(
                    "minCount and maxCount apply only to to-many relationships; use isOptional for a to-one"
                )
            }
            if relationship.isOrdered {
                throw fail("isOrdered applies only to to-many relationships")
            }
        }
        if relationship.maxCount > 0, relationship.minCount > relationship.maxCount {
            throw fail(
                "minCount \(relationship.minCount) is greater than maxCount \(relationship.maxCount)"
            )
        }
    }

    /// Relationships that must hold an object but point to an abstract entity with no concrete
    /// entity below it: no object can satisfy them, so every save of their entity's objects
    /// fails validation. Core Data builds such a model (Xcode compiles it), so this is a
    /// warning, not an error.
    func mandatoryDestinationWarnings(of entity: EntityDescription) -> [String] {
        var warnings: [String] = []
        for case let r as RelationshipDescription in entity.ownProperties {
            guard let destination = r.destinationEntity, !r.isTransient,
                (!r.isToMany && !r.isOptional) || (r.isToMany && r.minCount > 0)
            else { continue }
            if destination.selfAndDescendants.allSatisfy(\.isAbstract) {
                warnings.append(
                    "\(entity.name).\(r.name) is mandatory but its destination \(destination.name) "
                        + "is abstract with no concrete subentity, so no \(entity.name) can be saved"
                )
            }
        }
        return warnings
    }

    /// Transformable attributes naming a transformer nobody has registered (yet): their values
    /// stay opaque bytes until it is.
    func unregisteredTransformerWarnings(of entity: EntityDescription) -> [String] {
        entity.ownProperties.compactMap { property in
            guard let a = property as? AttributeDescription, a.type == .transformable,
                case .unregistered(let name) = a.transforming
            else { return nil }
            return "\(entity.name).\(a.name) names the value transformer '\(name)', which is not "
                + "registered: its values are kept as opaque bytes (Data) until "
                + "AttributeValueTransformer.setValueTransformer(_:forName:) registers it"
        }
    }

    /// Attributes of a type other than transformable that name a value transformer: Core Data
    /// uses `valueTransformerName` only for transformable attributes (Apple's
    /// `NSAttributeDescription.valueTransformerName`: "the name of the transformer to use to
    /// transform the attribute value", for `NSTransformableAttributeType`), so the name has no
    /// effect. Kept in the model, as Core Data keeps it; a warning, so a model with a type
    /// changed by mistake does not silently lose its transformer.
    func ignoredTransformerWarnings(of entity: EntityDescription) -> [String] {
        entity.ownProperties.compactMap { property in
            guard let a = property as? AttributeDescription, a.type != .transformable,
                let name = a.valueTransformerName, !name.isEmpty
            else { return nil }
            return "\(entity.name).\(a.name) names the value transformer '\(name)' but its type is "
                + "\(a.type.rawValue), not transformable: the transformer is not used"
        }
    }

    func checkConstraints(of entity: EntityDescription) throws {
        for constraint in entity.uniquenessConstraints {
            guard !constraint.isEmpty else {
                throw ModelError.badConstraint(
                    entity: entity.name, key: "[]", reason: "a constraint names no attribute")
            }
            var seen: Set<String> = []
            for key in constraint {
                guard seen.insert(key).inserted else {
                    throw ModelError.badConstraint(
                        entity: entity.name, key: key, reason: "named twice in one constraint")
                }
                guard let property = entity.propertiesByName[key] else {
                    throw ModelError.badConstraint(
                        entity: entity.name, key: key, reason: "no such attribute")
                }
                if property.isTransient {
                    throw ModelError.badConstraint(
                        entity: entity.name, key: key,
                        reason: "transient properties cannot be unique")
                }
                if let r = property as? RelationshipDescription, r.isToMany {
                    throw ModelError.badConstraint(
                        entity: entity.name, key: key,
                        reason: "to-many relationships cannot be unique")
                }
            }
        }
    }

    func checkIndexes(of entity: EntityDescription) throws {
        var names: Set<String> = []
        for index in entity.indexes {
            func fail(_ key: String?, _ reason: String) -> ObjectGraphError {
                ModelError.badIndex(
                    entity: entity.name, index: index.name, key: key, reason: reason)
            }
            guard !index.name.isEmpty else { throw fail(nil, "an index needs a name") }
            guard names.insert(index.name).inserted else {
                throw fail(nil, "the name is used twice")
            }
            guard !index.elements.isEmpty else {
                throw fail(nil, "an index needs at least one element")
            }
            for element in index.elements {
                let key = element.propertyName
                guard let property = entity.propertiesByName[key] else {
                    throw fail(key, "no such attribute")
                }
                if property.isTransient {
                    throw fail(key, "transient properties are not stored, so cannot be indexed")
                }
                if let r = property as? RelationshipDescription, r.isToMany {
                    throw fail(key, "to-many relationships cannot be indexed")
                }
            }
        }
    }

    func checkFetchRequestTemplates() throws {
        for template in model.fetchRequestTemplatesByName.values.sorted(by: { $0.name < $1.name }) {
            guard !template.name.isEmpty else {
                throw ModelError.badFetchRequestTemplate("", reason: "has no name")
            }
            guard model.entitiesByName[template.entityName] != nil else {
                throw ModelError.badFetchRequestTemplate(
                    template.name,
                    reason: "fetches \(template.entityName), which is not in the model")
            }
            guard template.fetchLimit >= 0, template.fetchBatchSize >= 0 else {
                throw ModelError.badFetchRequestTemplate(
                    template.name, reason: "has a negative fetch limit or batch size")
            }
        }
    }

    func checkConfigurations() throws {
        for (name, members) in model.configurations.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty else {
                throw ModelError.badConfiguration(name, reason: "has an empty name")
            }
            var seen: Set<String> = []
            for member in members {
                guard model.entitiesByName[member] != nil else {
                    throw ModelError.badConfiguration(
                        name, reason: "lists \(member), which is not in the model")
                }
                guard seen.insert(member).inserted else {
                    throw ModelError.badConfiguration(name, reason: "lists \(member) twice")
                }
            }
        }
    }

    /// Whether limit `a` is above limit `b` (both already converted to the attribute's type).
    static func isGreater(_ a: AttributeValue, than b: AttributeValue) -> Bool {
        switch (a, b) {
        case (.integer(let x), .integer(let y)): x > y
        case (.decimal(let x), .decimal(let y)): x > y
        case (.double(let x), .double(let y)): x > y
        case (.float(let x), .float(let y)): x > y
        case (.date(let x), .date(let y)): x > y
        default: false
        }
    }
}

extension AttributeValue {
    /// Whether this is a floating-point or decimal NaN.
    var isNaN: Bool {
        switch self {
        case .double(let v): v.isNaN
        case .float(let v): v.isNaN
        case .decimal(let v): v.isNaN
        case .date(let v): v.timeIntervalSinceReferenceDate.isNaN
        default: false
        }
    }

    /// The value with any NaN replaced by the standard quiet NaN, so a model's values
    /// survive the JSON format (which writes every NaN as `"NaN"`) bit for bit.
    var canonicalNaN: AttributeValue {
        switch self {
        case .double(let v) where v.isNaN: .double(.nan)
        case .float(let v) where v.isNaN: .float(.nan)
        case .date(let v) where v.timeIntervalSinceReferenceDate.isNaN:
            .date(Date(timeIntervalSinceReferenceDate: .nan))
        default: self
        }
    }
}
