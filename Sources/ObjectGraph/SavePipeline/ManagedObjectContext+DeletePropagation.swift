import Foundation

extension ManagedObjectContext {
    /// Runs the delete rules of every deletion not yet processed, following cascades (through
    /// cycles, and to objects never loaded) until none are left; an object a cascade deletes
    /// gets its `prepareForDeletion()` from `delete(_:)`, as any other.
    ///
    /// Each deleted object is processed once per deletion in this context. An object that
    /// was inserted here and never saved is discarded: cascade still deletes what it
    /// reaches, and under every other rule its relationships are nullified, so no object
    /// keeps a reference to an object that will never exist.
    func propagateDeletes() {
        // Round by round (cascades add to the next round), so each deletion costs O(1) to take.
        while !unprocessedDeletes.isEmpty {
            let round = unprocessedDeletes
            unprocessedDeletes = []
            for object in round { processDeletion(of: object) }
        }
    }

    private func processDeletion(of object: ManagedObject) {
        guard object.state.isDeleted, !object.state.deletionProcessed else { return }
        object.state.deletionProcessed = true
        let discarded = object.state.isInserted
        for relationship in object.entity.relationships {
            var rule = relationship.deleteRule
            if discarded && rule != .cascade { rule = .nullify }
            apply(rule, of: relationship, to: object)
        }
        if discarded {
            // Never saved anywhere: it simply leaves the context.
            registry.removeValue(forKey: object.objectID)
            pending.remove(object)
        }
    }

    private func apply(
        _ rule: DeleteRule, of relationship: RelationshipDescription, to object: ManagedObject
    ) {
        switch rule {
        case .noAction, .deny:
            return  // deny is enforced by validateForDelete at save (1600)
        case .nullify:
            guard let inverse = relationship.inverseRelationship else { return }
            for target in object.destinations(of: relationship) {
                target.unlink(inverse, object)
            }
        case .cascade:
            let targets = object.destinations(of: relationship)
            for target in targets where !target.state.isDeleted {
                delete(target)
            }
            if let inverse = relationship.inverseRelationship {
                for target in targets { target.unlink(inverse, object) }
            }
        }
    }
}
