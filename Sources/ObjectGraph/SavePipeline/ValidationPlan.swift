import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How validation checks the objects of one entity and class: the slots that have a model
/// rule or get the per-key hook, in slot order, each with its key and what to check.
///
/// Worked out once per save (``ValidationPlans``). `validateProperties()` used to read the
/// entity's layout for every object (six arrays and two slot sets: a retain and release
/// each), ask the class for ``ManagedObject/validatedKeys`` (a new `Set` per object for a
/// class that declares keys) and look each key up in it; a save of 20,000 objects of one
/// class now does that once.
final class ValidationPlan {
    /// The model's rule on an attribute slot.
    enum AttributeRule {
        /// No rule beyond "may be nil": the slot is visited for the hook alone.
        case none
        /// "Not nil" and nothing else: a test for `.null` in place.
        case mandatoryOnly
        /// Limits, lengths, a pattern or predicates: ``ValidationRules``.
        case full
    }

    /// What one slot needs.
    enum Check {
        case attribute(AttributeRule)
        /// A to-one; `mandatory` when nil (or a deleted destination) fails.
        case toOne(mandatory: Bool)
        /// A to-many; `ruled` when it is mandatory or has a count rule.
        case toMany(ruled: Bool)
    }

    /// One slot to visit.
    struct Step {
        let slot: Int
        /// The property's name: the key of the hook and of the errors.
        let key: String
        let check: Check
        /// Whether the per-key hook is called for this slot (after its rule passes).
        let callsHook: Bool
        // Unowned: the plan holds the entity, which holds its properties; reading them costs
        // no retain and release per object.
        /// The slot's attribute, for attribute steps.
        unowned(unsafe) let attribute: AttributeDescription?
        /// The slot's relationship, for relationship steps.
        unowned(unsafe) let relationship: RelationshipDescription?
    }

    let entity: EntityDescription
    /// The class of the objects the plan is for (the hook's keys are the class's).
    let objectClass: ObjectIdentifier
    let steps: [Step]

    /// The plan for objects of `objectClass` and `entity`, whose layout must be built.
    init(entity: EntityDescription, objectClass: ManagedObject.Type) {
        self.entity = entity
        self.objectClass = ObjectIdentifier(objectClass)
        // A class that does not override `validate(_:forKey:)` (plain `ManagedObject`
        // instances among them) skips the hook, which does nothing there; otherwise `nil`
        // (the default) asks for every key.
        let hooked = ValidationHookOverride.hookedKeys(of: objectClass)
        let layout = entity.layout
        var steps: [Step] = []
        for i in layout.kinds.indices {
            let key = layout.names[i]
            let callsHook = hooked?.contains(key) ?? true
            switch layout.kinds[i] {
            case .attribute, .transientAttribute:
                let rule: AttributeRule =
                    !layout.ruledAttributeSlots.contains(i)
                    ? .none : layout.mandatoryOnlySlots.contains(i) ? .mandatoryOnly : .full
                if case .none = rule, !callsHook { continue }
                steps.append(
                    Step(
                        slot: i, key: key, check: .attribute(rule), callsHook: callsHook,
                        attribute: layout.attributes[i], relationship: nil))
            case .toOne, .transientToOne:
                let r = layout.relationships[i].unsafelyUnwrapped
                if r.isOptional, !callsHook { continue }
                steps.append(
                    Step(
                        slot: i, key: key, check: .toOne(mandatory: !r.isOptional),
                        callsHook: callsHook, attribute: nil, relationship: r))
            case .toManyStored, .toManyDerived, .transientToMany:
                let r = layout.relationships[i].unsafelyUnwrapped
                let ruled = !r.isOptional || r.minCount > 0 || r.maxCount > 0
                if !ruled, !callsHook { continue }
                steps.append(
                    Step(
                        slot: i, key: key, check: .toMany(ruled: ruled), callsHook: callsHook,
                        attribute: nil, relationship: r))
            }
        }
        self.steps = steps
    }
}

/// The validation plans of the save under way on this thread, one per entity and class,
/// made when the first object of each is validated.
///
/// `ManagedObjectContext.validate(_:)` installs a fresh set for each save, so a plan never
/// outlives the save (``ManagedObject/validatedKeys`` is asked once per save and class).
/// Validation outside a save (`validateForInsert()` called directly) makes a plan for the
/// object alone.
final class ValidationPlans {
    private var plans: [ValidationPlan] = []
    /// The plan found last: a save's objects come in runs of one entity. Unretained: `plans`
    /// holds it.
    private var last: Unmanaged<ValidationPlan>?

    /// The thread-local slot: the current save's plans (unretained), or `nil`.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Runs `body` with these plans as the current thread's; the previous ones (a save
    /// started by a hook, inside another save) are current again when it returns.
    func during<T>(_ body: () throws -> T) rethrows -> T {
        let key = Self.key
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(key, previous) }
        return try withExtendedLifetime(self) { try body() }
    }

    /// A plan for `object` alone, made for a validation outside a save (the save's plans are
    /// found by ``withPlan(for:_:)``); `nil` when its entity's layout is not built (a model
    /// being linked).
    private static func planOutsideSave(for object: ManagedObject) -> ValidationPlan? {
        let entity = object.entity
        guard entity.layout.kinds.count == entity.properties.count else { return nil }
        return ValidationPlan(entity: entity, objectClass: type(of: object))
    }

    /// Calls `body` with the plan for `object` (the current save's, found or made and kept;
    /// outside a save, one made for it alone) and returns `true`, or returns `false` without
    /// calling it when its entity's layout is not built; during a save the plan is passed
    /// borrowed, not retained: the save's plans hold it (`plans` only grows, and
    /// `during(_:)` holds them) for the whole call, whatever the validation hooks `body`
    /// calls do (a save they start installs plans of its own). Returning the plan retained
    /// it and released it after the object's validation, as the plans' look-up did with the
    /// last plan (W1: four atomic reference-count operations an object); so did a body that
    /// took the plan as an optional and unwrapped it (two an object).
    @inline(__always)
    static func withPlan(
        for object: ManagedObject, _ body: (ValidationPlan) throws -> Void
    ) rethrows -> Bool {
        guard let raw = pthread_getspecific(key) else {
            guard let plan = planOutsideSave(for: object) else { return false }
            try body(plan)
            return true
        }
        let found = Unmanaged<ValidationPlans>.fromOpaque(raw)._withUnsafeGuaranteedRef {
            $0.unretainedPlan(object.entity, type(of: object))
        }
        guard let found else { return false }
        // Debug builds check that the save's plans still hold the borrowed plan after the
        // call (a plan freed during it fails here, as a freed one reused need not crash).
        defer {
            assert(
                Unmanaged<ValidationPlans>.fromOpaque(raw)._withUnsafeGuaranteedRef {
                    $0.holds(found, of: object.entity)
                }, "the borrowed validation plan is no longer held by the save's plans")
        }
        try found._withUnsafeGuaranteedRef { try body($0) }
        return true
    }

    /// Whether `plans` still holds `plan` (its address, for `entity`: a plan made since may
    /// take a freed plan's address). Reads only the plans held, never `plan` itself.
    private func holds(_ plan: Unmanaged<ValidationPlan>, of entity: EntityDescription) -> Bool {
        let address = plan.toOpaque()
        return plans.contains {
            Unmanaged.passUnretained($0).toOpaque() == address && $0.entity === entity
        }
    }

    /// The plan of `entity` and `objectClass`, made and kept if it is not kept yet, as a
    /// reference `plans` holds, not retained; `nil` when the entity's layout is not built.
    private func unretainedPlan(_ entity: EntityDescription, _ objectClass: ManagedObject.Type)
        -> Unmanaged<ValidationPlan>?
    {
        let id = ObjectIdentifier(objectClass)
        if let last, last._withUnsafeGuaranteedRef({ $0.entity === entity && $0.objectClass == id })
        {
            return last
        }
        if let found = plans.first(where: { $0.entity === entity && $0.objectClass == id }) {
            last = .passUnretained(found)
            return last
        }
        guard entity.layout.kinds.count == entity.properties.count else { return nil }
        let made = ValidationPlan(entity: entity, objectClass: objectClass)
        plans.append(made)
        last = .passUnretained(made)
        return last
    }
}
