import Foundation

extension ManagedObjectContext {
    /// Runs `prepareForDeletion` and the delete rules of every deletion not yet processed,
    /// following cascades (through cycles, and to objects never loaded) until none are left.
    func propagateDeletes() {
        while !unprocessedDeletes.isEmpty {
            let object = unprocessedDeletes.removeFirst()
            guard object.state.isDeleted, !object.state.deletionProcessed else { continue }
            object.state.deletionProcessed = true
            object.prepareForDeletion()
            for relationship in object.entity.relationships {
                apply(relationship.deleteRule, of: relationship, to: object)
            }
            if object.state.isInserted {
                // Never saved anywhere: it simply leaves the context.
                registry[object.objectID] = nil
                pending.remove(object)
            }
        }
    }

    private func apply(_ rule: DeleteRule, of relationship: RelationshipDescription, to object: ManagedObject) {
        switch rule {
        case .noAction, .deny:
            return // deny is enforced by validateForDelete at save (1600)
        case .nullify:
            guard let inverse = relationship.inverseRelationship else { return }
            for target in destinations(of: relationship, from: object) {
                target.unlink(inverse, object)
            }
        case .cascade:
            for target in destinations(of: relationship, from: object) where !target.state.isDeleted {
                delete(target)
            }
            if let inverse = relationship.inverseRelationship {
                for target in destinations(of: relationship, from: object) { target.unlink(inverse, object) }
            }
        }
    }

    private func destinations(of relationship: RelationshipDescription, from object: ManagedObject) -> [ManagedObject] {
        relationship.isToMany ? object.related(relationship) : object.toOne(relationship).map { [$0] } ?? []
    }
}
