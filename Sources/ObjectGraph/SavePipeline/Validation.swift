import Foundation

extension ManagedObject {
    /// The deny rule: no deny relationship may reach an object that is not deleted too.
    func validateDenyRules() throws {
        var errors: [ObjectGraphError] = []
        for r in entity.relationships where r.deleteRule == .deny {
            let targets = r.isToMany ? related(r) : toOne(r).map { [$0] } ?? []
            let alive = targets.filter { !$0.isDeleted }
            if !alive.isEmpty { errors.append(ValidationErrors.denied(self, r, count: alive.count)) }
        }
        try ValidationErrors.throwCollected(errors)
    }

    /// Checks one value against the model's rules for `key`.
    func validateAgainstModel(_ value: Any?, forKey key: String) throws {
        let property = self.property(key, "validateValue(_:forKey:)")
        if let attribute = property as? AttributeDescription {
            guard let v = AttributeValue(any: value, for: attribute.type) else {
                throw ObjectGraphError(.validation,
                                       "\(entity.name).\(key) must be a \(attribute.type.rawValue); got \(String(describing: value))",
                                       entityName: entity.name, key: key)
            }
            if let error = ValidationRules.check(v, attribute, self) { throw error }
        }
    }

    /// Runs the model's rules on every property and throws what fails.
    func validateProperties() throws {
        if slots.isEmpty { fireFault() }
        var errors: [ObjectGraphError] = []
        for property in entity.properties {
            switch property {
            case let a as AttributeDescription:
                if let error = ValidationRules.check(slots[a.index].attributeValue, a, self) { errors.append(error) }
            case let r as RelationshipDescription:
                if r.isToMany {
                    let count = related(r).filter { !$0.isDeleted }.count
                    if count == 0 && !r.isOptional && r.minCount == 0 {
                        errors.append(ValidationErrors.missing(self, r.name))
                    } else if r.minCount > 0 && count < r.minCount && !(r.isOptional && count == 0) {
                        errors.append(ValidationErrors.tooFew(self, r, count))
                    } else if r.maxCount > 0 && count > r.maxCount {
                        errors.append(ValidationErrors.tooMany(self, r, count))
                    }
                } else if !r.isOptional && (toOne(r) == nil || toOne(r)!.isDeleted) {
                    errors.append(ValidationErrors.missing(self, r.name))
                }
            default: continue
            }
        }
        try ValidationErrors.throwCollected(errors)
    }
}

extension ManagedObjectContext {
    /// Validates every object a save writes and throws the collected failures.
    func validate(_ changes: SaveChanges) throws {
        var errors: [ObjectGraphError] = []
        func collect(_ body: () throws -> Void) {
            do { try body() } catch let e as ObjectGraphError {
                errors += e.code == .validationMultipleErrors ? e.underlying : [e]
            } catch {
                let ns = error as NSError
                errors.append(ObjectGraphError(ObjectGraphError.Code(rawValue: ns.code), ns.localizedDescription))
            }
        }
        for object in changes.inserted { collect { try object.validateForInsert() } }
        for object in changes.updated { collect { try object.validateForUpdate() } }
        for object in changes.deleted { collect { try object.validateForDelete() } }
        try ValidationErrors.throwCollected(errors)
    }
}
