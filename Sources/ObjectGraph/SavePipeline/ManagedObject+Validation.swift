import Foundation

extension ManagedObject {
    /// The deny rule: no deny relationship may reach an object that is not deleted too.
    func validateDenyRules() throws {
        // The entity's deny relationships, listed once in its layout: most entities have
        // none, and walking every relationship with an error array per deleted object cost
        // ≈ 250 instructions a deletion.
        let entity = self.entity
        let deny =
            entity.layout.kinds.count == entity.properties.count
            ? entity.layout.denyRelationships
            : entity.relationships.filter { $0.deleteRule == .deny }
        if deny.isEmpty { return }
        var errors: [any Error] = []
        for r in deny {
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
        if !hasValues { fireFault() }
        // The plan borrowed for the object's validation (see `ValidationPlans.withPlan`),
        // passed on as it is: unwrapped from an optional here (`guard let plan`), it was
        // retained and released around each object's validation.
        let planned = try ValidationPlans.withPlan(for: self) { plan in
            try validateProperties(by: plan)
        }
        if !planned {
            let hooked = ValidationHookOverride.hookedKeys(of: type(of: self))
            try validatePropertiesByDescription(hooked)
        }
    }

    /// ``validateProperties()`` by the save's plan for the object's entity and class.
    private func validateProperties(by plan: ValidationPlan) throws {
        // Slot by slot from the save's plan for this entity and class: no cast of each
        // description, no look-up of each key, and an attribute whose only rule is "not nil"
        // is tested for `.null` in place (`ValidationRules` is for the others). The hook still
        // sees every property the class asks for (all by default, when the class overrides
        // it: see `ValidationHookOverride`), as Core Data's `validateForUpdate()` validates
        // every property; a slot without rules that the hook skips is not in the plan.
        var errors: [any Error] = []
        // Step by step through the plan's buffer, each field read where it is needed: a copy
        // of the step (`for step in plan.steps`) retained and released its key, and passing
        // the slot's attribute description on retained it. With the plan found without
        // retains, validating W1's 20,020 new objects (120,040 hook calls) went from 53.4 M
        // to 44.4 M instructions.
        plan.steps.withUnsafeBufferPointer { steps in
            // One box for the object's hook calls, each value freed as the `Any` it is (see
            // `HookValueBox`): W1's 120,020 attribute and to-one hook calls took 5.17 M
            // instructions fewer (its 20 to-many calls do not use the box).
            var box = HookValueBox()
            defer { box.empty() }
            for k in 0..<steps.count {
                // A hook that turned the object into a fault (its context reset, the object
                // refreshed) ends its validation: there are no values left to check, and the
                // save notices what the context let go of (`validate(_:)`).
                guard hasValues else { break }
                let i = steps[k].slot
                switch steps[k].check {
                case .attribute(let rule):
                    switch rule {
                    case .none:
                        break
                    case .mandatoryOnly:
                        if isNullAttribute(at: i) {
                            errors.append(ValidationErrors.missing(self, steps[k].key))
                            continue
                        }
                    case .full:
                        let value =
                            rowValues != nil
                            ? currentValue(at: i).attributeValue : slots[i].attributeValue
                        if let failure = ValidationRules.check(
                            value, steps[k].attribute.unsafelyUnwrapped, self)
                        {
                            errors.append(failure)
                            continue
                        }
                    }
                    guard steps[k].callsHook else { continue }
                    // Boxed only here, for the hook, straight from the value into the
                    // object's box (see `boxAttribute` and `HookValueBox`); the call made here,
                    // on the local box: passed on from a function's `inout`, the box was
                    // copied for each call.
                    do {
                        if let other = boxAttribute(i, &box) {
                            try validate(
                                steps[k].attribute.unsafelyUnwrapped.publicValue(of: other),
                                forKey: steps[k].key)
                        } else {
                            try box.pass(to: self, forKey: steps[k].key)
                        }
                    } catch { errors.append(error) }
                case .toOne(let mandatory):
                    // The slot read in place, or a kept row's key looked up (the object's fault
                    // fired above; a to-one is never a relationship fault): validating does not
                    // convert a row that has only attributes written over it.
                    let target = currentToOne(at: i)
                    if mandatory, target == nil || target.unsafelyUnwrapped.isDeleted {
                        errors.append(ValidationErrors.missing(self, steps[k].key))
                        continue
                    }
                    guard steps[k].callsHook else { continue }
                    // Unwrapped first: the hook gets the object, or `nil`, not an optional.
                    // Handed over (`consume`), so this copy ends before the hook call.
                    box.hold(toOne: consume target)
                    do { try box.pass(to: self, forKey: steps[k].key) } catch {
                        errors.append(error)
                    }
                case .toMany(let ruled):
                    guard
                        let members = toManyToValidate(
                            steps[k].relationship.unsafelyUnwrapped, ruled: ruled,
                            callsHook: steps[k].callsHook, &errors)
                    else { continue }
                    do { try validate(members, forKey: steps[k].key) } catch {
                        errors.append(error)
                    }
                }
            }
        }
        // Most objects pass: no call to combine nothing.
        if !errors.isEmpty, let error = ObjectGraphError.combining(errors) { throw error }
    }

    /// Puts attribute slot `i`'s value, as `value(forKey:)` gives it, into `box` (the
    /// object's, see `HookValueBox`) for the common types; returns the stored value of the
    /// others (integers, whose Swift type depends on the attribute's width, and transformable
    /// values), for ``AttributeDescription/publicValue(of:)``, and `nil` when `box` holds
    /// the value. When it returns a stored value, `box` is left unchanged.
    ///
    /// The common types are boxed case by case from the slot, so the box's type is known
    /// where it is made (through `publicValue(of:)` the value was copied out of the slot,
    /// boxed behind a call, and freed through the box's value witnesses).
    @inline(__always)
    private func boxAttribute(_ i: Int, _ box: inout HookValueBox) -> AttributeValue? {
        // A kept row (and its overlay) is read as it is; slots in place, as before.
        let stored: AttributeValue
        if rowValues != nil {
            guard case .attribute(let value) = currentValue(at: i) else {
                box.holdNil()
                return nil
            }
            stored = value
        } else {
            guard case .attribute(let value) = slots[i] else {
                box.holdNil()
                return nil
            }
            stored = value
        }
        switch stored {
        case .null: box.holdNil()
        case .string(let v): box.hold(v)
        case .double(let v): box.hold(v)
        case .date(let v): box.hold(v)
        case .uuid(let v): box.hold(v)
        case .boolean(let v): box.hold(v)
        case .decimal(let v): box.hold(v)
        default: return stored
        }
        return nil
    }

    /// Whether attribute slot `i` holds `nil`: read from a kept row (or its overlay) without
    /// converting it, else in place in the slots.
    @inline(__always)
    private func isNullAttribute(at i: Int) -> Bool {
        if rowValues != nil, let value = rowValue(at: i) {
            if case .attribute(.null) = value { return true }
            return false
        }
        if case .attribute(.null) = slots[i] { return true }
        return false
    }

    /// A to-many's count rules; returns the value to hand the hook, or `nil` when the rule
    /// failed (the error is appended) or the hook is not called. An unloaded, unchanged
    /// to-many without rules is not looked at; one that lost members deleted here while
    /// unloaded (`unlinkDeleted`), or has rules, is read when the hook or a rule needs it, so
    /// the hook sees the members left, as it did when the deletions loaded it: an unordered
    /// one the store derives from its members' to-one without loading it (see
    /// ``unloadedToManyToValidate(_:callsHook:_:)``), any other loaded. `ruled`: the
    /// relationship is mandatory or has a count rule.
    private func toManyToValidate(
        _ r: RelationshipDescription, ruled: Bool, callsHook: Bool, _ errors: inout [any Error]
    ) -> Any? {
        if !ruled, !callsHook { return nil }
        let i = r.index
        if case .toMany(nil) = slots[i] {
            if !ruled, !changedSlots.contains(i) { return nil }
            if !r.isOrdered, !r.isStoredInRow {
                return unloadedToManyToValidate(r, callsHook: callsHook, &errors)
            }
        }
        // Loads the relationship fault; the members are read from it in one pass (the set
        // the hook receives is built straight from them, not through two arrays).
        guard case .toMany(let loaded) = read(i, "\(entity.name).\(r.name)"), let members = loaded
        else {
            if let error = countError(r, 0) { errors.append(error) }
            return nil
        }
        guard callsHook else {
            if let error = countError(r, members.liveCount) { errors.append(error) }
            return nil
        }
        let value: Any
        let count: Int
        if r.isOrdered {
            let live = members.liveObjects
            count = live.count
            value = live
        } else {
            let live = members.liveSet
            count = live.count
            value = live
        }
        if let error = countError(r, count) {
            errors.append(error)
            return nil
        }
        return value
    }

    /// ``toManyToValidate(_:ruled:callsHook:_:)`` for an unordered to-many that is still a
    /// relationship fault and that the parent or store derives from its members' to-one
    /// (`isStoredInRow` false): its live members are counted, or gathered into the set the
    /// hook receives, straight from the IDs one level up, and the slot stays a fault.
    ///
    /// The members are those ``loadToMany(_:)`` would load less the deleted ones, which
    /// validation leaves out anyway (the load itself drops only deletions whose rules ran):
    /// the same set, made without the object's member table (an array, a position table, a
    /// retain of each member) that the load built and the object then kept, only to be read
    /// once here. A member the context had let go comes back as a registered fault, as the
    /// load made it. The IDs one level up list each member once (one per row whose to-one
    /// points here), so the count needs no set. Deleting half of 20 categories' 1,000 expenses
    /// validated each category's 500 left this way: ≈ 670 instructions fewer per member left
    /// (freeing the member table included).
    ///
    /// - Returns: the set for the hook, or `nil` when a count rule failed (its error is
    ///   appended) or the hook is not called.
    /// - Complexity: O(m) in the members one level up, deleted ones included.
    private func unloadedToManyToValidate(
        _ r: RelationshipDescription, callsHook: Bool, _ errors: inout [any Error]
    ) -> Any? {
        if ConcurrencyCheck.isEnabled {
            managedObjectContext?.checkQueue("\(entity.name).\(r.name)")
        }
        let context = managedObjectContext
        var ids = context?.relatedIDs(r, of: self) ?? []
        var live = Set<ManagedObject>()
        var count = 0
        if let context {
            if callsHook {
                live.reserveCapacity(ids.count)
                // Each ID moved out of the array (`popLast()`: the array is the look-up's
                // own, so no copy), its last use the look-up: read in place, each was
                // retained and released around the call, and released again with the array
                // (W5: one member ID a dataset row). The order does not matter: the hook
                // gets a set.
                while let id = ids.popLast() {
                    let member = context.registeredOrFault(id)
                    // `update(with:)`, not `insert(_:)`: the same set (a member is listed
                    // once, and equal only to itself), without the copy of the member that
                    // `insert` returns; the look-up's reference moved in.
                    if !member.state.isDeleted { live.update(with: consume member) }
                }
            } else {
                // Each ID read in place through the array's buffer: binding each
                // (`for id in ids`) copied it, a retain and a release of its scope per member.
                ids.withUnsafeBufferPointer { ids in
                    for k in ids.indices where context.registry[ids[k]]?.state.isDeleted != true {
                        // Counted without a fault per member: a deleted member is registered
                        // (the context holds it until the save), so one not registered is
                        // live.
                        count += 1
                    }
                }
            }
        }
        if callsHook { count = live.count }
        if let error = countError(r, count) {
            errors.append(error)
            return nil
        }
        return callsHook ? live : nil
    }

    /// ``validateProperties()`` for an entity whose layout is not built (a model being
    /// linked): the same checks, property by property from the descriptions.
    private func validatePropertiesByDescription(_ hooked: Set<String>?) throws {
        var errors: [any Error] = []
        for property in entity.properties {
            // As in `validateProperties(by:)`: a hook that made the object a fault ends it.
            guard hasValues else { break }
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
                let ruled = !r.isOptional || r.minCount > 0 || r.maxCount > 0
                guard
                    let members = toManyToValidate(
                        r, ruled: ruled, callsHook: callsHook, &errors)
                else { continue }
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
