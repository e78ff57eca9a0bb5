import Foundation

extension ManagedObjectContext {
    /// The rows a settled plan writes, one change set per store; call holding the
    /// coordinator's lock.
    ///
    /// Each inserted object takes its row as its values as soon as the row is built, where the
    /// row can stand for its slots (``ManagedObject/moveSlotsIntoSavedRow(of:_:)``, which builds
    /// the row by moving the slots' values into it; not in a save that merges objects, whose
    /// survivors take other values, or plans values): its slots are freed there, so the
    /// save holds each value once (its slots and its row both, 176 + 176 bytes an expense,
    /// were alive from here to the end of the save, W1's peak), and after the save the object
    /// keeps the row the store took (the same array), as a fetched object does. A failed
    /// commit gives every one its slots back (`commitToStores`). A child's save is not a store
    /// commit: its objects, and the parent's it pushes into, keep their slots until the parent
    /// saves to the store.
    ///
    /// `id` names each saved object's row (see `permanentID`); `newIDs` are the IDs `id` reads
    /// for the inserts, which an insert's own row takes from them directly where nothing is
    /// merged or taken over (``NewObjectIDs/id(of:at:)``).
    func changeSets(
        _ plan: SavePlan, id: (ManagedObject) -> ManagedObjectID, newIDs: NewObjectIDs,
        coordinator: PersistentStoreCoordinator
    ) throws -> [String: StoreChangeSet] {
        var sets: [String: StoreChangeSet] = [:]
        let now = coordinator.clock()
        let empty = StoreChangeSet(author: transactionAuthor, contextName: name, timestamp: now)
        // Rows come in runs for one store (most saves touch one): each run is added at once,
        // not row by row (each `sets` lookup hashes the store's identifier and copies the
        // empty change set), and a save's whole array is handed to a change set whose list is
        // empty as it is (a new change set, or one made for another list: a save's deletions
        // after its updates' patches), without a copy that would keep twice a large save's
        // rows alive. Appending copied each element through the generic tuple's witness for
        // the deletions (≈ 105 instructions a deletion, and as much again to free the copy).
        func add<Row>(
            _ rows: [Row], _ list: WritableKeyPath<StoreChangeSet, [Row]>,
            store: (Row) -> String
        ) {
            rows.forEachRun(by: store) { key, range in
                let run = range.count == rows.count ? rows : Array(rows[range])
                if sets[key] == nil {
                    var set = empty
                    set[keyPath: list] = run
                    sets[key] = set
                } else if sets[key]![keyPath: list].isEmpty {
                    sets[key]![keyPath: list] = run
                } else {
                    sets[key]![keyPath: list] += run
                }
            }
        }
        let storeOf = { (row: StoreRow) in row.objectID.storeIdentifier ?? "" }
        // Not in a save that merges objects or plans other values for any object (a
        // constraint's takeover or merge): a reference to a merged-away object is written as
        // its survivor's, and a planned row is not the object's slots, whose relationships
        // would then be kept beside a row that does not hold them.
        // There, `plan.values(of:)` is each object's slots, which an insert's row is moved
        // out of where the object can keep the row (see `ManagedObject.moveSlotsIntoSavedRow`).
        let keepsRows = plan.survivorOf.isEmpty && !plan.plansValues
        // An insert's own row is named by its new ID, found at a cursor over `newIDs` (in
        // allocation order: each entity's inserts in their order) where no object is merged
        // or takes over a row, so that `id` would give the same; `id` otherwise (entities
        // interleaved, an insert with a permanent ID already). The closure's lookup cost
        // ≈ 195 instructions an insert.
        let direct = plan.survivorOf.isEmpty && plan.takeovers.isEmpty
        // Each insert is read unretained from the plan's array, which holds it through the
        // loop: `map` bound each retained for the closure and released it after (2 atomic
        // calls an insert, W1's save).
        var cursor = 0
        var inserted: [StoreRow] = []
        inserted.reserveCapacity(plan.inserted.count)
        plan.inserted.withUnsafeBufferPointer { objects in
            for i in objects.indices {
                let row = Unmanaged.passUnretained(objects[i])._withUnsafeGuaranteedRef {
                    object in
                    let objectID =
                        (direct ? newIDs.id(of: object, at: &cursor) : nil) ?? id(object)
                    if keepsRows, let values = object.moveSlotsIntoSavedRow(of: plan, id) {
                        return StoreRow(objectID: objectID, version: 1, values: values)
                    }
                    return StoreRow(
                        objectID: objectID, version: 1,
                        values: storeValues(plan.values(of: object), object.entity, id))
                }
                inserted.append(row)
            }
        }
        add(inserted, \.inserted, store: storeOf)
        // Updates go as patches of the slots they change: the store changes those in place,
        // and the save holds no second complete row per updated object (a store that does not
        // accept patches gets complete rows from the coordinator).
        var lastSlots: [Int] = []
        var scratch: [Int] = []
        let patched = plan.updated.map { object in
            patch(of: object, plan, id, shared: &lastSlots, scratch: &scratch)
        }
        add(patched, \.patched) { $0.objectID.storeIdentifier ?? "" }
        handOffRows(of: plan, patched, to: &sets)
        // Labelled as the change set's list is: an unlabelled tuple array was converted to it
        // element by element (`_arrayForceCast`, ≈ 300 instructions a deletion).
        let deleted = plan.deleted.map { (objectID: $0.objectID, version: plan.expected($0)) }
        add(deleted, \.deleted) { $0.objectID.storeIdentifier ?? "" }
        return sets
    }

    /// Gives each store's change set the objects whose kept rows its patches change (those
    /// with an overlay of written attributes and no planned values: their patch is the
    /// overlay), so that they let go of the rows while the store patches them and take the
    /// patched rows back (``StoreRowHandoff``): each row is then changed in place and held
    /// once. `patched` is `plan.updated`'s patches, in order; each store's patches are in the
    /// same order in its change set.
    private func handOffRows(
        of plan: SavePlan, _ patched: [StoreRowPatch], to sets: inout [String: StoreChangeSet]
    ) {
        let updated = plan.updated
        guard updated.contains(where: \.hasRowOverlay) else { return }
        let storeOf = { (patch: StoreRowPatch) in patch.objectID.storeIdentifier ?? "" }
        // One store and no planned values (most saves): patch `k` is `updated[k]`'s, and the
        // closures read the plan's own array (a list of the objects per store was a second
        // array of every updated object, alive through the commit: 0.8 MB for W4b's 100,000).
        // `lendRowForPatch()` lends only a kept row with an overlay, as the list's filter chose.
        if !plan.plansValues, let first = patched.first,
            !patched.contains(where: { storeOf($0) != storeOf(first) })
        {
            sets[storeOf(first)]?.rowHandoff = StoreRowHandoff(
                lend: { k, id in
                    guard k < updated.count, updated[k].objectID == id else { return false }
                    return updated[k].lendRowForPatch()
                },
                take: { k, id, row in
                    guard k < updated.count, updated[k].objectID == id else { return }
                    updated[k].takeSavedRow(row)
                })
            return
        }
        var byStore: [String: [ManagedObject?]] = [:]
        patched.forEachRun(by: storeOf) { key, range in
            byStore[key, default: []] += range.map { i in
                let object = updated[i]
                return object.hasRowOverlay && !plan.hasValues(for: object) ? object : nil
            }
        }
        for (key, objects) in byStore where objects.contains(where: { $0 != nil }) {
            // Each closure finds the object by the patch's position and checks it by the
            // patch's ID: a store that moved the patch hands nothing off for it.
            sets[key]?.rowHandoff = StoreRowHandoff(
                lend: { k, id in
                    guard k < objects.count, let object = objects[k], object.objectID == id
                    else { return false }
                    return object.lendRowForPatch()
                },
                take: { k, id, row in
                    guard k < objects.count, let object = objects[k], object.objectID == id
                    else { return }
                    object.takeSavedRow(row)
                })
        }
    }

    /// An updated object's patch: the stored slots it changed (every stored slot when the
    /// plan gives it new values: a conflict merge or a constraint merge), with their values
    /// as the store keeps them. A to-many not loaded is left out: it did not change, and the
    /// row keeps its members. Consecutive patches of the same slots share `shared`'s array.
    private func patch(
        of object: ManagedObject, _ plan: SavePlan, _ id: (ManagedObject) -> ManagedObjectID,
        shared: inout [Int], scratch: inout [Int]
    ) -> StoreRowPatch {
        // Without planned values, each changed slot's current value is read as it is held
        // (an object that keeps its row reads its overlay: no conversion into slots).
        let planned = plan.hasValues(for: object)
        let values = planned ? plan.values(of: object) : []
        let kinds = object.entity.layout.kinds
        let count = planned ? values.count : kinds.count
        // The slots are compared with the previous patch's as they come, and only collected
        // when they differ: most updates of a save change the same slots, and refilling a
        // scratch array per patch cost a `replaceSubrange` each.
        var matched = 0
        var differs = false
        func value(_ i: Int) -> ObjectValue { planned ? values[i] : object.currentValue(at: i) }
        func add(_ i: Int) {
            guard i < count else { return }
            switch (kinds[i], value(i)) {
            case (.attribute, .attribute), (.toOne, .toOne), (.toManyStored, .toMany(_?)):
                if !differs {
                    if matched < shared.count && shared[matched] == i {
                        matched += 1
                        return
                    }
                    differs = true
                    scratch.removeAll(keepingCapacity: true)
                    scratch.append(contentsOf: shared[..<matched])
                }
                scratch.append(i)
            default: break
            }
        }
        if planned {
            for i in kinds.indices { add(i) }
        } else {
            object.changedSlots.forEachSlot(add)
        }
        if differs {
            shared = scratch
        } else if matched < shared.count {
            shared = Array(shared[..<matched])
        }
        // A patch of one slot keeps its value in a block, no array: the object's overlay
        // block where it holds the value (shared, no copy), else a block of its own.
        if shared.count == 1 {
            let i = shared[0]
            if !planned, let write = object.overlayWriteBlock(ofSlot: i) {
                return StoreRowPatch(
                    objectID: id(object), version: plan.expected(object) + 1, slots: shared,
                    write: write)
            }
            return StoreRowPatch(
                objectID: id(object), version: plan.expected(object) + 1, slots: shared,
                value: storeValue(value(i), kinds[i], id))
        }
        // `reserveCapacity` and appends: `Array(unsafeUninitializedCapacity:)` took the
        // runtime's unspecialised allocation (≈ 690 instructions a patch against ≈ 360).
        var stored: [StoreValue] = []
        stored.reserveCapacity(shared.count)
        for i in shared { stored.append(storeValue(value(i), kinds[i], id)) }
        return StoreRowPatch(
            objectID: id(object), version: plan.expected(object) + 1, slots: shared,
            values: stored)
    }
}
