import Foundation

extension ManagedObject {
    /// The deny rule: no deny relationship may reach an object that is not deleted too.
    func validateDenyRules() throws {
        var errors: [any Error] = []
        for r in entity.relationships where r.deleteRule == .deny {
            let alive = destinations(of: r).filter { !$0.isDeleted }
            if !alive.isEmpty {
                errors.append(ValidationErrors.denied(self, r, count: alive.count))
            }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
    }

    /// Checks one candidate value against the model's rules for `key`.
    func validateAgainstModel(_ value: Any?, forKey key: String) throws {
        switch self.property(key, "validateValue(_:forKey:)") {
        case let attribute as AttributeDescription:
            guard let v = try? attribute.storedValue(for: value) else {
                throw ValidationErrors.wrongType(
                    self, key, expected: "of type \(attribute.type.rawValue)", got: value)
            }
            if let error = ValidationRules.check(v, attribute, self) { throw error }
        case let r as RelationshipDescription:
            if r.isToMany {
                guard let objects = Self.objects(in: value) else {
                    throw ValidationErrors.wrongType(
                        self, key, expected: "a set or array of \(r.destinationEntityName) objects",
                        got: value)
                }
                if let error = countError(r, objects.filter { !$0.isDeleted }.count) { throw error }
            } else {
                guard value == nil || value is ManagedObject else {
                    throw ValidationErrors.wrongType(
                        self, key, expected: "a \(r.destinationEntityName) object or nil",
                        got: value)
                }
                if !r.isOptional && (value as? ManagedObject).map({ !$0.isDeleted }) != true {
                    throw ValidationErrors.missing(self, key)
                }
            }
        default: return
        }
    }

    /// Runs the model's rules, then the per-key hook, on every property; throws what fails.
    func validateProperties() throws {
        if slots.isEmpty { fireFault() }
        let hooked: Set<String>? = type(of: self) == ManagedObject.self ? [] : Self.validatedKeys
        let entity = self.entity
        guard entity.layout.kinds.count == entity.properties.count else {
            return try validatePropertiesByDescription(hooked)
        }
        if hooked?.isEmpty == true {
            try validateRules()
            return
        }
        // Slot by slot from the layout: no cast of each description, and an attribute whose
        // only rule is "not nil" is tested for `.null` in place (`ValidationRules` is for the
        // others). The hook still sees every property the class asks for (all by default:
        // Swift cannot tell whether a subclass overrides it), as Core Data's
        // `validateForUpdate()` validates every property. The layout's arrays are read one by
        // one: binding the whole layout copied it (a retain and release of each of its arrays).
        var errors: [any Error] = []
        let kinds = entity.layout.kinds
        let names = entity.layout.names
        let attributes = entity.layout.attributes
        let relationships = entity.layout.relationships
        let ruled = entity.layout.ruledAttributeSlots
        let mandatoryOnly = entity.layout.mandatoryOnlySlots
        // `nil` (the default) calls the hook for every key: no lookup of each name.
        let everyKey = hooked == nil
        for i in kinds.indices {
            let callsHook = everyKey || hooked.unsafelyUnwrapped.contains(names[i])
            switch kinds[i] {
            case .attribute, .transientAttribute:
                if ruled.contains(i) {
                    let failure: ObjectGraphError?
                    if mandatoryOnly.contains(i) {
                        if case .attribute(.null) = slots[i] {
                            failure = ValidationErrors.missing(self, names[i])
                        } else {
                            failure = nil
                        }
                    } else {
                        failure = ValidationRules.check(
                            slots[i].attributeValue, attributes[i].unsafelyUnwrapped, self)
                    }
                    if let failure {
                        errors.append(failure)
                        continue
                    }
                }
                guard callsHook else { continue }
                // Boxed only here, for the hook, straight from the slot (see `hookAttribute`).
                do {
                    try hookAttribute(i, attributes[i].unsafelyUnwrapped, names[i])
                } catch { errors.append(error) }
            case .toOne, .transientToOne:
                let r = relationships[i].unsafelyUnwrapped
                // The slot read in place (the object's fault fired above; a to-one is never a
                // relationship fault).
                let target: ManagedObject?
                if case .toOne(let o) = slots[i] { target = o } else { target = nil }
                if !r.isOptional, target == nil || target.unsafelyUnwrapped.isDeleted {
                    errors.append(ValidationErrors.missing(self, names[i]))
                    continue
                }
                guard callsHook else { continue }
                do { try validate(target, forKey: names[i]) } catch { errors.append(error) }
            case .toManyStored, .toManyDerived, .transientToMany:
                let r = relationships[i].unsafelyUnwrapped
                guard let members = toManyToValidate(r, callsHook: callsHook, &errors) else {
                    continue
                }
                do { try validate(members, forKey: names[i]) } catch { errors.append(error) }
            }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
    }

    /// Calls the per-key hook with attribute slot `i`'s value as `value(forKey:)` gives it.
    ///
    /// The common types are boxed case by case from the slot, so the box's type is known
    /// where it is made and freed (through ``AttributeDescription/publicValue(of:)`` the
    /// value was copied out of the slot, boxed behind a call, and freed through the box's
    /// value witnesses); integers (whose Swift type depends on the attribute's width) and
    /// transformable values take the general path.
    @inline(__always)
    private func hookAttribute(_ i: Int, _ attribute: AttributeDescription, _ key: String)
        throws
    {
        guard case .attribute(let stored) = slots[i] else {
            return try validate(nil, forKey: key)
        }
        switch stored {
        case .null: try validate(nil, forKey: key)
        case .string(let v): try validate(v, forKey: key)
        case .double(let v): try validate(v, forKey: key)
        case .date(let v): try validate(v, forKey: key)
        case .uuid(let v): try validate(v, forKey: key)
        case .boolean(let v): try validate(v, forKey: key)
        case .decimal(let v): try validate(v, forKey: key)
        default: try validate(attribute.publicValue(of: stored), forKey: key)
        }
    }

    /// A to-many's count rules; returns the value to hand the hook, or `nil` when the rule
    /// failed (the error is appended) or the hook is not called. An unloaded, unchanged
    /// to-many without rules is not loaded for the hook; one that lost members deleted here
    /// while unloaded (`unlinkDeleted`) is loaded when the hook is called for it, so the hook
    /// sees the members left, as it did when the deletions loaded it.
    private func toManyToValidate(
        _ r: RelationshipDescription, callsHook: Bool, _ errors: inout [any Error]
    ) -> Any? {
        let hasRule = !r.isOptional || r.minCount > 0 || r.maxCount > 0
        if !hasRule, !callsHook { return nil }
        if case .toMany(nil) = slots[r.index], !hasRule, !changedSlots.contains(r.index) {
            return nil
        }
        let members = related(r).filter { !$0.isDeleted }
        if let error = countError(r, members.count) {
            errors.append(error)
            return nil
        }
        guard callsHook else { return nil }
        return r.isOrdered ? members as Any : Set(members) as Any
    }

    /// ``validateProperties()`` for an entity whose layout is not built (a model being
    /// linked): the same checks, property by property from the descriptions.
    private func validatePropertiesByDescription(_ hooked: Set<String>?) throws {
        var errors: [any Error] = []
        for property in entity.properties {
            let value: Any?
            let callsHook = hooked?.contains(property.name) ?? true
            switch property {
            case let a as AttributeDescription:
                let stored = slots[a.index].attributeValue
                if let error = ValidationRules.check(stored, a, self) {
                    errors.append(error)
                    continue
                }
                guard callsHook else { continue }
                value = a.publicValue(of: stored)
            case let r as RelationshipDescription where r.isToMany:
                guard let members = toManyToValidate(r, callsHook: callsHook, &errors) else {
                    continue
                }
                value = members
            case let r as RelationshipDescription:
                let target = toOne(r)
                if !r.isOptional && (target == nil || target!.isDeleted) {
                    errors.append(ValidationErrors.missing(self, r.name))
                    continue
                }
                guard callsHook else { continue }
                value = target
            default:
                continue
            }
            do { try validate(value, forKey: property.name) } catch { errors.append(error) }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
    }

    /// The model's rules alone (no per-key hook), on the properties that have any, in slot
    /// order: what ``validateProperties()`` checks when the hook is called for no key. A
    /// property without rules always passes, so it is not visited.
    private func validateRules() throws {
        var errors: [any Error] = []
        // Read one by one: binding the whole layout copies it.
        let attributes = entity.layout.attributesToValidate
        let relationships = entity.layout.relationshipsToValidate
        var a = 0
        var r = 0
        while a < attributes.count || r < relationships.count {
            if r == relationships.count
                || (a < attributes.count && attributes[a].index < relationships[r].index)
            {
                let attribute = attributes[a]
                a += 1
                if let error = ValidationRules.check(
                    slots[attribute.index].attributeValue, attribute, self)
                {
                    errors.append(error)
                }
            } else {
                let relationship = relationships[r]
                r += 1
                if relationship.isToMany {
                    guard
                        !relationship.isOptional || relationship.minCount > 0
                            || relationship.maxCount > 0
                    else { continue }
                    let live = related(relationship).lazy.filter { !$0.isDeleted }.count
                    if let error = countError(relationship, live) { errors.append(error) }
                } else if !relationship.isOptional,
                    toOne(relationship).map({ !$0.isDeleted }) != true
                {
                    errors.append(ValidationErrors.missing(self, relationship.name))
                }
            }
        }
        if let error = ObjectGraphError.combining(errors) { throw error }
    }

    /// The count rule of a to-many holding `count` live objects, if broken.
    private func countError(_ r: RelationshipDescription, _ count: Int) -> ObjectGraphError? {
        if count == 0 && !r.isOptional && r.minCount == 0 {
            return ValidationErrors.missing(self, r.name)
        }
        if r.minCount > 0 && count < r.minCount && !(r.isOptional && count == 0) {
            return ValidationErrors.tooFew(self, r, count)
        }
        if r.maxCount > 0 && count > r.maxCount { return ValidationErrors.tooMany(self, r, count) }
        return nil
    }

    /// The objects of a to-many value as `validateValue(_:forKey:)` receives it, or `nil`.
    private static func objects(in value: Any?) -> [ManagedObject]? {
        switch value {
        case nil: return []
        case let set as Set<ManagedObject>: return Array(set)
        case let array as [ManagedObject]: return array
        case let many as any Collection:
            var result: [ManagedObject] = []
            for element in many {
                guard let object = element as? ManagedObject else { return nil }
                result.append(object)
            }
            return result
        default: return nil
        }
    }

    /// The current destinations of a relationship (loading it if needed).
    func destinations(of relationship: RelationshipDescription) -> [ManagedObject] {
        relationship.isToMany ? related(relationship) : toOne(relationship).map { [$0] } ?? []
    }
}
