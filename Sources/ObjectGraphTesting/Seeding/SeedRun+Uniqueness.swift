import ObjectGraph

/// Making uniqueness constraints hold by regenerating the constrained attributes of repeats.
extension SeedRun {
    /// One value of a constraint key: an attribute value or a to-one's destination.
    private enum KeyPart: Hashable {
        case value(AttributeValue)
        case object(ObjectIdentifier)
    }

    static let maximumAttempts = 60

    /// Regenerates constrained attributes until no two objects (seeded or already stored)
    /// share a constraint's values; rounds repeat while a change for one constraint could
    /// have broken another.
    func enforceUniqueness() throws {
        let entities = context.persistentStoreCoordinator?.managedObjectModel.entities ?? []
        let constrained = entities.filter { !$0.uniquenessConstraints.isEmpty }
        guard !constrained.isEmpty else { return }
        var stored: [ObjectIdentifier: [ManagedObject]] = [:]
        for entity in constrained {
            let request = FetchRequest<ManagedObject>(entityName: entity.name)
            request.includesPendingChanges = false
            stored[ObjectIdentifier(entity)] = try context.fetch(request)
        }
        for _ in 0..<10 {
            var changed = false
            for entity in constrained {
                var random = random("unique:\(entity.name)")
                for constraint in entity.uniquenessConstraints {
                    changed =
                        try enforce(
                            constraint, of: entity, stored: stored[ObjectIdentifier(entity)] ?? [],
                            &random) || changed
                }
            }
            if !changed { return }
        }
    }

    /// Returns whether any value changed.
    private func enforce(
        _ constraint: [String], of entity: EntityDescription, stored: [ManagedObject],
        _ random: inout SeededRandomNumberGenerator
    ) throws -> Bool {
        var taken = Set<[KeyPart]>()
        for object in stored { if let key = key(object, constraint) { taken.insert(key) } }
        let attributes = constraint.compactMap { entity.attributesByName[$0] }.filter {
            !$0.isDerived
        }
        var changed = false
        for number in members(of: entity) {
            let object = objects[number]
            guard var key = key(object, constraint), taken.contains(key) else {
                if let key = key(object, constraint) { taken.insert(key) }
                continue
            }
            guard !attributes.isEmpty else {
                throw SeedErrors.unsatisfiableConstraint(
                    entity: entity.name, constraint: constraint, attempts: 0,
                    detail:
                        "\(object.entity.name) #\(indexInEntity[number] + 1) repeats another object's relationships, "
                        + "and a constraint of relationships only is not varied by the seeder")
            }
            var attempt = 1
            while taken.contains(key) {
                guard attempt <= Self.maximumAttempts else {
                    throw SeedErrors.unsatisfiableConstraint(
                        entity: entity.name, constraint: constraint, attempts: Self.maximumAttempts,
                        detail:
                            "\(object.entity.name) #\(indexInEntity[number] + 1) still repeats the values of another object"
                    )
                }
                for attribute in attributes {
                    // Late attempts may leave an optional attribute nil: nil never conflicts.
                    let value = try generator.value(
                        for: attribute, of: object.entity, index: indexInEntity[number],
                        attempt: attempt, nilChance: attempt > 40 ? 0.5 : 0, random: &random)
                    object.setAttributeValue(value, forKey: attribute.name)
                }
                changed = true
                attempt += 1
                guard let next = self.key(object, constraint) else { break }
                key = next
            }
            if let key = self.key(object, constraint) { taken.insert(key) }
        }
        return changed
    }

    /// The constraint's values of `object`, or `nil` when one is nil (which never conflicts).
    private func key(_ object: ManagedObject, _ constraint: [String]) -> [KeyPart]? {
        var parts: [KeyPart] = []
        for name in constraint {
            if object.entity.attributesByName[name] != nil {
                let value = object.attributeValue(forKey: name)
                if value.isNull { return nil }
                parts.append(.value(value))
            } else {
                guard let target = object.value(forKey: name) as? ManagedObject else { return nil }
                parts.append(.object(ObjectIdentifier(target)))
            }
        }
        return parts
    }
}
