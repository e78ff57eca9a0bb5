import Foundation

extension ManagedObjectContext {
    /// Creates and inserts a new object of the entity named `entityName`.
    ///
    /// - Precondition: the model has such an entity and it is not abstract.
    /// - Note: Mirrors `NSEntityDescription.insertNewObject(forEntityName:into:)`.
    @discardableResult
    public func insertNewObject(forEntityName entityName: String) -> ManagedObject {
        checkQueue("insertNewObject(forEntityName: \"\(entityName)\")")
        guard let entity = model.entitiesByName[entityName] else {
            preconditionFailure("ObjectGraph: the model has no entity named \(entityName)")
        }
        return entity.managedObjectClass.init(entity: entity, insertInto: self)
    }

    /// Inserts an object created without a context (`init(entity:insertInto: nil)`), or an
    /// unsaved insert whose context was freed.
    ///
    /// The object becomes one of this context's ``insertedObjects`` and is saved by its next
    /// save, whatever lists of a former context it was on.
    ///
    /// - Precondition: the object belongs to no live context, and its ID is temporary (an
    ///   object saved to a store, or fetched from one, is fetched again in this context with
    ///   ``object(with:)`` rather than inserted).
    /// - Note: Mirrors `insert(_:)`.
    public func insert(_ object: ManagedObject) {
        checkQueue("insert(_:)")
        if object.isIn(self) { return }
        precondition(
            object.managedObjectContext == nil,
            "ObjectGraph: \(object) already belongs to another context")
        precondition(
            object.objectID.isTemporaryID,
            "ObjectGraph: insert(_:) of \(object), which is in a store (its ID is permanent); "
                + "fetch it in this context with object(with:) instead")
        // A former context's flags (an unsaved insert held past its freed context is still
        // marked pending there) would keep it off this context's lists: it would be
        // registered and never saved.
        object.state.leaveContextLists()
        insertNew(object)
    }

    /// Marks `object` for deletion at the next save; its ``ManagedObject/prepareForDeletion()``
    /// runs now, and the delete rules when pending changes are processed (at the end of the
    /// event, see ``processPendingChanges()``, and at save).
    ///
    /// Deleting an object inserted in this context and not saved simply discards it.
    /// Deleting an object again calls `prepareForDeletion()` again and changes nothing else,
    /// as in Core Data.
    ///
    /// - Note: Mirrors `delete(_:)`.
    public func delete(_ object: ManagedObject) {
        checkQueue("delete(_:)")
        precondition(
            object.isIn(self),
            "ObjectGraph: delete(_:) of \(object), which belongs to another context")
        guard !object.state.isDeleted else {
            object.prepareForDeletion()
            return
        }
        if !object.hasValues { object.fireFault() }
        object.state.isDeleted = true
        pending.add(object)
        unprocessedDeletes.append(object)
        announceDeleted(object)
        object.prepareForDeletion()
    }

    /// The object for `objectID`: the registered one, or a new fault. Never does I/O and
    /// never returns nil; a fault for a row that does not exist fails when it fires.
    ///
    /// The object stays alive at least until the end of the current event.
    ///
    /// - Note: Mirrors `object(with:)`.
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        checkQueue("object(with:)")
        let object = registeredOrFault(objectID)
        keepForEvent(object)
        return object
    }

    /// The object for `objectID`, with its values loaded; throws when it does not exist.
    ///
    /// The object stays alive at least until the end of the current event.
    ///
    /// - Throws: ``ObjectGraphError`` `.objectNotFound` (133000) when no context up the
    ///   chain nor the store has the object (it was deleted, or never saved).
    /// - Note: Mirrors `existingObject(with:)`.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        checkQueue("existingObject(with:)")
        if let object = registry[objectID] {
            if object.state.isDeleted && !object.state.isInserted && !pending.contains(object) {
                throw ObjectErrors.gone(objectID)
            }
            if !object.hasValues {
                guard let row = try upstreamRow(for: objectID) else {
                    throw ObjectErrors.gone(objectID)
                }
                fill(object, from: row)
            }
            keepForEvent(object)
            return object
        }
        guard let row = try upstreamRow(for: objectID) else { throw ObjectErrors.gone(objectID) }
        let object = registeredOrFault(objectID)
        fill(object, from: row)
        keepForEvent(object)
        return object
    }

    /// The registered object for `objectID`, or `nil`; never does I/O.
    ///
    /// An object with no pending changes that nothing references any more is no longer
    /// registered (see ``retainsRegisteredObjects``).
    ///
    /// - Note: Mirrors `registeredObject(for:)`.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        checkQueue("registeredObject(for:)")
        return registry[objectID]
    }

    /// The model of the context's coordinator.
    var model: ManagedObjectModel {
        guard let coordinator = persistentStoreCoordinator else {
            preconditionFailure(
                "ObjectGraph: \(self) has neither a coordinator nor a parent; set parent first")
        }
        return coordinator.managedObjectModel
    }

    /// Whether `model` is ``model`` (`false` for `nil`), compared without holding the
    /// coordinator or the model: a root context reads its coordinator's model in place, which
    /// ``model`` returned retained (a retain and a release of the coordinator and of the
    /// model, twice for each inserted object). A context without a coordinator traps there,
    /// as ``model`` does.
    @inline(__always)
    func usesModel(_ model: ManagedObjectModel?) -> Bool {
        if let coordinator = rootCoordinator { return coordinator.managedObjectModel === model }
        return self.model === model
    }

    /// Whether `entity` is an entity of ``model``, as `usesModel(entity.managedObjectModel)`
    /// answers, without loading the entity's model: that load is an unowned reference's strong
    /// load and its release (2 calls an inserted object). A built model's entity `e` is at
    /// `entities[e.index]` of its model and of no other (an entity joins one model only, see
    /// `ManagedObjectModel.init`), so finding it there is the same answer; an entity of no
    /// model (`index` -1) is in none. ``model`` is read in place as ``usesModel(_:)`` reads it.
    @inline(__always)
    func usesModel(of entity: EntityDescription) -> Bool {
        if let coordinator = rootCoordinator {
            return Self.model(coordinator.managedObjectModel, holds: entity)
        }
        return Self.model(model, holds: entity)
    }

    /// Whether `entity` is at its index in `model`'s entities (see ``usesModel(of:)``).
    @inline(__always)
    private static func model(_ model: ManagedObjectModel, holds entity: EntityDescription)
        -> Bool
    {
        let index = entity.index
        return model.entities.withUnsafeBufferPointer { entities in
            entities.indices.contains(index) && entities[index] === entity
        }
    }

    /// The one entity whose class is `type`, binding `type` by name to an entity without a
    /// class when none is (see `ManagedObjectModel.entity(forClass:)`).
    ///
    /// The answer for a subclass is kept for the next call (`lastClass`): once the model
    /// names one entity for a class, it always does (a class is bound only while no entity has
    /// it, and only entities without a class are bound). The model's look-up walks every
    /// entity, ≈ 240 instructions an object for a model of three (W1, 20,020 objects: 4.78 M).
    /// Plain `ManagedObject` is not kept: binding a subclass changes which entities have it.
    func entity(forClass type: ManagedObject.Type) -> EntityDescription {
        // The kept answer is the context's queue-confined state, as everything a context
        // keeps; `insertNew` checks the queue right after (a check here cost ≈ 40
        // instructions an object, W1 +0.8 M at N = 20,000, with the check off).
        // The kept model compared in place (`usesModel`): through `model`, the coordinator
        // and the model were retained and released for every new object.
        if lastClass == ObjectIdentifier(type), let entity = lastClassEntity,
            usesModel(lastClassModel)
        {
            return entity
        }
        let model = self.model
        switch model.entity(forClass: type) {
        case .success(let entity):
            if type != ManagedObject.self {
                lastClass = ObjectIdentifier(type)
                lastClassModel = model
                lastClassEntity = entity
            }
            return entity
        case .failure(let failure): preconditionFailure("ObjectGraph: \(failure.explanation)")
        }
    }

    // MARK: Registration

    /// A new temporary ID of `entity` for an object being inserted into this context: the
    /// process-wide next temporary key (`ManagedObjectID.temporary(for:)`'s) with the
    /// entity's temporary scope, which is kept for the next call (`lastTemporaryScope`) so
    /// that no lock is taken per object.
    ///
    /// Called by `init(entity:insertInto:)` before `insertNew(_:)` checks the queue: the kept
    /// scope is queue-confined state, as `lastClassEntity` is.
    func newTemporaryID(for entity: EntityDescription) -> ManagedObjectID {
        if lastTemporaryScope?.entity !== entity {
            lastTemporaryScope = ObjectIDScope.temporaryScope(of: entity)
        }
        let key = ObjectIDScope.nextTemporaryKey()
        return ManagedObjectID(scope: lastTemporaryScope.unsafelyUnwrapped, primaryKey: key)
    }

    func insertNew(_ object: ManagedObject) {
        checkQueue("insert \(object.entity.name)")
        precondition(
            usesModel(of: object.entity),
            "ObjectGraph: \(object.entity.name) belongs to another model than \(self)'s")
        object.managedObjectContext = self
        if !object.hasValues { object.slots = ManagedObject.initialSlots(for: object.entity) }
        object.state.isInserted = true
        registry.register(object, as: object.objectID)
        pending.add(object)
        announceInserted(object)
        object.awakeFromInsert()
    }

    /// The object registered under `id`, or a new fault of it, registered now. The table is
    /// probed once for both, and the fault is made with `id` (no temporary ID drawn and
    /// replaced): a fetch of faults does this per row.
    func registeredOrFault(_ id: ManagedObjectID) -> ManagedObject {
        registeredOrFaultInline(id)
    }

    /// ``registeredOrFault(_:)`` inlined into its caller, for the fetch's loop over its rows
    /// (`adoptAll`): inlined there, W5's fetch loop (61,120 rows in its measured region) costs
    /// 16.1 M instructions against 17.3 M through the call. The optimiser had inlined it there
    /// on its own after an unrelated change; this keeps it so. Other callers take the call
    /// (inlined into the validation of an unloaded to-many too, W5 measured 0.2 M more).
    @inline(__always)
    func registeredOrFaultInline(_ id: ManagedObjectID) -> ManagedObject {
        registry.object(for: id) {
            let entity = id.entity
            let object = FaultIdentity.offering(id) {
                entity.managedObjectClass.init(entity: entity, insertInto: nil)
            }
            // A subclass's initialiser that made another object of the entity first gave
            // that one the ID: this one still gets it.
            if object.objectID != id { object.objectID = id }
            object.managedObjectContext = self
            return object
        }
    }

    /// Called by objects when a slot changes and the object is not yet pending, or not yet
    /// recorded for the next objects-did-change.
    func objectDidChange(_ object: ManagedObject) {
        pending.add(object)
        announceUpdated(object)
    }
}

extension ObjectGraphError.Reason {
    /// 133000 (`NSManagedObjectReferentialIntegrityError`): the object does not exist in the
    /// store (``ManagedObjectContext/existingObject(with:)`` of a deleted or unsaved object).
    public static let objectNotFound = Self("objectNotFound", code: 133000)
}

extension ObjectGraphError {
    /// ``Reason/objectNotFound`` (133000), for `catch ObjectGraphError.objectNotFound`.
    public static var objectNotFound: Reason { .objectNotFound }
}

/// Object-lookup error factories.
enum ObjectErrors {
    static func gone(_ id: ManagedObjectID) -> ObjectGraphError {
        ObjectGraphError(
            .objectNotFound,
            "\(id.entity.name) \(id) does not exist (it was deleted, or never saved)",
            entityName: id.entity.name, objectID: id)
    }
}
