import Foundation
import Synchronization

/// The entity and store a ``ManagedObjectID``'s key belongs to: the shared, immutable part of
/// every ID of that entity and store (`storeIdentifier == nil` for temporary IDs).
///
/// Scopes are interned per entity (``ObjectIDScopes``), so IDs made anywhere (a store's rows,
/// a URI, a reopened store, another coordinator on the same store identifier) share one
/// scope and compare by its identity. Hot paths do not intern per ID: a ``RowTable``, a
/// ``RowCodec`` and the coordinator keep the scope of each entity and build IDs with
/// `ManagedObjectID(scope:primaryKey:)`.
final class ObjectIDScope: Sendable {
    /// The entity of the IDs (held strongly: an ID keeps its entity alive, as it always has).
    let entity: EntityDescription
    /// The store of the IDs; `nil` for temporary IDs.
    let storeIdentifier: String?

    fileprivate init(entity: EntityDescription, storeIdentifier: String?) {
        self.entity = entity
        self.storeIdentifier = storeIdentifier
    }

    /// Whether `other` stands for the same entity and store (the slow half of ID equality).
    @inline(never)
    func isEquivalent(to other: ObjectIDScope) -> Bool {
        entity === other.entity && storeIdentifier == other.storeIdentifier
    }

    /// The shared scope of `entity` in the store `store`.
    ///
    /// - Complexity: One lock and one dictionary lookup; keep the result per entity where IDs
    ///   are made in bulk.
    static func of(_ entity: EntityDescription, store: String) -> ObjectIDScope {
        ObjectIDScopes.lock.lock()
        defer { ObjectIDScopes.lock.unlock() }
        return entity.idScopes.scope(of: entity, store: store)
    }

    /// The shared scopes of every entity of `model` in the store `store`, by entity index.
    static func of(_ model: ManagedObjectModel, store: String) -> [ObjectIDScope] {
        ObjectIDScopes.lock.lock()
        defer { ObjectIDScopes.lock.unlock() }
        return model.entities.map { $0.idScopes.scope(of: $0, store: store) }
    }

    /// A new temporary ID of `entity`: the next process-wide temporary key and the entity's
    /// temporary scope.
    ///
    /// - Complexity: One lock (for the scope); a context inserting objects keeps the scope
    ///   instead (`ManagedObjectContext.newTemporaryID(for:)`).
    static func nextTemporary(for entity: EntityDescription) -> ManagedObjectID {
        ManagedObjectID(scope: temporaryScope(of: entity), primaryKey: nextTemporaryKey())
    }

    /// The temporary scope of `entity`: the one its temporary IDs share while its model keeps
    /// scopes, else a new one (IDs of either compare equal).
    ///
    /// - Complexity: One lock.
    static func temporaryScope(of entity: EntityDescription) -> ObjectIDScope {
        ObjectIDScopes.lock.lock()
        defer { ObjectIDScopes.lock.unlock() }
        return entity.idScopes.temporaryScope(of: entity)
    }

    /// The next process-wide temporary key (1, 2, 3, …, each handed out once), drawn by an
    /// atomic add without the lock.
    @inline(__always)
    static func nextTemporaryKey() -> Int64 {
        ObjectIDScopes.temporaryKeys.add(1, ordering: .relaxed).newValue
    }
}

/// An entity's interned ``ObjectIDScope``s: one per store identifier and one for temporary IDs.
///
/// Each entity owns one (``EntityDescription/idScopes``). A scope holds its entity strongly, so
/// the table holding its scopes is a cycle: the entity's model breaks it when it goes
/// (``retire()``, from `ManagedObjectModel`'s `deinit`), after which the entity's scopes are
/// made afresh each time and not kept, so an entity that outlives its model (held by an ID)
/// is freed with its last ID. Until its model is built an entity keeps no scopes either.
/// Scopes only the table still references are dropped when the table has doubled since the
/// last such sweep, so a process opening many stores with one model does not grow it without
/// bound. IDs made from scopes that are not kept are still equal to the others (``ManagedObjectID``'s
/// `==` falls back to comparing entity and store), only slower to compare.
final class ObjectIDScopes: @unchecked Sendable {
    // Sendable: every field, of every entity's table, is guarded by the one `lock`.
    /// Guards every entity's table. Interning is rare (once per entity and table, URI or
    /// public initializer).
    fileprivate static let lock = NSLock()
    /// The last temporary key handed out in this process: added to atomically, so that
    /// drawing a key takes no lock (the lock and the scope's look-up cost ≈ 115 instructions
    /// an inserted object, W1).
    fileprivate static let temporaryKeys = Atomic<Int64>(0)

    private var byStore: [String: ObjectIDScope] = [:]
    private var temporary: ObjectIDScope?
    /// The model whose build started keeping scopes, until its `deinit` (`nil`: keep none).
    private var owner: ObjectIdentifier?
    private var keeps: Bool { owner != nil }
    /// The number of kept store scopes at which the next one sweeps first.
    private var sweepAt = 8

    /// Starts keeping scopes: the entity's model `model` is built.
    func open(for model: ObjectIdentifier) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        owner = model
    }

    /// Drops every kept scope and keeps none from now on: the entity's model `model` is gone
    /// (a model whose build failed leaves another model's entities alone).
    func retire(for model: ObjectIdentifier) {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        guard owner == model else { return }
        owner = nil
        byStore = [:]
        temporary = nil
    }

    /// The number of store scopes kept (tests).
    var keptStoreScopes: Int {
        Self.lock.lock()
        defer { Self.lock.unlock() }
        return byStore.count
    }

    /// The scope of `entity` (the table's owner) in `store`; the caller holds `lock`.
    fileprivate func scope(of entity: EntityDescription, store: String) -> ObjectIDScope {
        if let scope = byStore[store] { return scope }
        let scope = ObjectIDScope(entity: entity, storeIdentifier: store)
        guard keeps else { return scope }
        if byStore.count >= sweepAt { sweep() }
        byStore[store] = scope
        return scope
    }

    /// The temporary scope of `entity` (the table's owner); the caller holds `lock`.
    fileprivate func temporaryScope(of entity: EntityDescription) -> ObjectIDScope {
        if let temporary { return temporary }
        let scope = ObjectIDScope(entity: entity, storeIdentifier: nil)
        if keeps { temporary = scope }
        return scope
    }

    /// Drops the store scopes no ID, table or codec references any more. Only this table
    /// hands out references to them, under `lock`, so a scope seen as uniquely referenced here
    /// cannot gain another meanwhile.
    private func sweep() {
        var old: [String: ObjectIDScope] = [:]
        swap(&old, &byStore)
        for store in Array(old.keys) {
            // Taken out of the dictionary first, so that the only references left are the
            // local one and those of the IDs, tables and codecs using it.
            var scope = old.removeValue(forKey: store).unsafelyUnwrapped
            if !isKnownUniquelyReferenced(&scope) { byStore[store] = scope }
        }
        sweepAt = max(8, byStore.count * 2)
    }
}
