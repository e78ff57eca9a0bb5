import Foundation

/// An object of the graph: one entity's instance, living in exactly one context.
///
/// Subclass it per entity and declare properties with ``Attribute`` and ``Relationship``
/// (the stand-ins for `@NSManaged`), or use it directly with ``value(forKey:)`` and
/// ``setValue(_:forKey:)`` for a model loaded at run time.
///
/// ```swift
/// final class Category: ManagedObject {
///     @Attribute var name: String?
///     @Relationship var transactions: Set<Transaction>
/// }
/// let food = Category(context: context)
/// food.name = "Food"
/// ```
///
/// An object may be a *fault*: registered, with its ID, but with values not loaded yet;
/// the first read fills it from the parent context or store. Setting one side of a
/// relationship updates its inverse at once.
///
/// - Important: Managed objects are not `Sendable`. Use an object only on its context's
///   queue (inside `perform`/`performAndWait`, or directly on the main queue for a
///   main-queue context); pass ``objectID`` to other queues.
/// - Note: Mirrors `NSManagedObject`.
open class ManagedObject: CustomStringConvertible {
    /// The object's entity.
    public let entity: EntityDescription
    // Confined to the context's queue like the hot state below; unchecked because a save reads
    // it several times per object (a dynamic exclusivity check each, ≈ 76 instructions).
    /// The object's ID: temporary until its first save to a store, then permanent.
    ///
    /// Read it on the context's queue; pass it (it is `Sendable`) to other queues.
    /// - Note: Mirrors `NSManagedObject.objectID`.
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID
    /// The context the object lives in; `nil` once deleted and saved, after `reset()`, or
    /// once the context is freed.
    ///
    /// Read it on the context's queue, or once the context is gone (an object that outlives
    /// its context reads `nil`). Reading it, or any other property, on another thread while
    /// the context is being freed is undefined: it may read freed memory.
    /// - Note: Mirrors `NSManagedObject.managedObjectContext`, which is also not a weak
    ///   reference (`unowned(unsafe)`).
    public internal(set) var managedObjectContext: ManagedObjectContext? {
        @inline(__always) get { contextToken?.context }
        @inline(__always) set { contextToken = newValue?.token }
    }
    // Unchecked exclusivity, as the hot state below: setting a relationship between objects
    // of different contexts reads it twice and inserting writes it, a dynamic check
    // (≈ 38 instructions) each.
    /// The token of the context last set (`nil` when none was or `nil` was), through which
    /// ``managedObjectContext`` reads the context (see `ContextToken`).
    ///
    /// Held strongly: a retain when set and a release when replaced, where the weak reference
    /// it replaces gave the context a side table and cost ≈ 120 instructions to set and ≈ 143
    /// to load. Equal tokens of two objects mean one context (alive, or freed for both), so
    /// relating two objects checks that they share a context by a comparison (see
    /// `checkDestination`), and `isIn(_:)` asks whether an object is in a context without
    /// loading it.
    @exclusivity(unchecked) private(set) var contextToken: ContextToken?

    // Hot state, confined to the context's queue. Dynamic exclusivity checks are off for these
    // (they cost more than the work on every property access); no access overlaps another.
    /// Current values, one per slot; empty while the object is a fault or keeps its row
    /// (`rowValues`), except for an object that keeps its row's relationship values resolved
    /// beside it (`state.keepsResolvedRelationships`: one that left its context keeping its
    /// row, or a saved insert): then those values, in slot order (or none, when its one
    /// relationship value is kept in `faultSource`; see
    /// ``resolveRelationshipsBeforeLeaving(_:)`` and ``moveSlotsIntoSavedRow(of:_:)``). Read
    /// and written only through ``slots`` (which converts a kept row first) and the row-aware
    /// paths in `ManagedObject+Row.swift`.
    @exclusivity(unchecked) private var storedSlots: [ObjectValue] = []
    /// The values of the store row the object was filled from (or, for a saved insert, the
    /// row its save wrote), kept as its values (shared with the store's row table, not
    /// copied) until something needs them as slots; `nil` otherwise. The row is the object's
    /// committed values: a clean object (or an insert while its save commits) has one, and
    /// so does one whose only writes are to attributes the row stores, kept over it in an
    /// overlay (``RowOverlay``, in `faultSource`); any other write converts it (see
    /// ``materialiseRow()``).
    @exclusivity(unchecked) private(set) var rowValues: [StoreValue]?
    /// The values last read from (or saved to) the parent, kept as the old values of the
    /// slots written since (see ``Snapshot``); `nil` for an unsaved insert and a fault.
    @exclusivity(unchecked) var snapshot: Snapshot?
    /// The row version the snapshot came from (optimistic locking).
    @exclusivity(unchecked) var snapshotVersion: Int64 = 0
    /// Slots changed since the snapshot.
    @exclusivity(unchecked) var changedSlots = SlotSet()
    /// For a fault: where its values come from when it fires (the fetched row, or its fetch
    /// batch). For an object that keeps its row's relationship values beside it: its one
    /// relationship value, when that is all the row held (`FaultSource.resolvedDestination`).
    /// For an object that keeps its row and has attributes written over it: their current
    /// values (`FaultSource.overlay`, a ``RowOverlay``). `nil` otherwise.
    /// Kept on the object so it goes away with the object.
    @exclusivity(unchecked) var faultSource: FaultSource?
    // Keep `state` (one byte) the last stored field: a subclass's stored properties start
    // at the byte after it, so its wrappers (2 bytes each) fill what would be padding. Add
    // 8-byte fields above it. (The bench's `Expense`, six wrappers: 118 bytes, a 128-byte
    // malloc chunk; 126 and 144 with a `contextIdentity` beside the weak context reference,
    // both replaced by `contextToken`; 224 with 7-byte flags before `faultSource` and 16-byte
    // wrappers.)
    /// The object's life-cycle flags.
    @exclusivity(unchecked) var state = ObjectState()

    /// Creates an object of `entity` and inserts it into `context` (or leaves it detached
    /// when `context` is `nil`, to be inserted later with `insert(_:)`).
    ///
    /// Default values are applied and ``awakeFromInsert()`` runs on insertion. Subclasses
    /// that add designated initializers must also provide this one.
    ///
    /// - Precondition: `entity` is not abstract and belongs to the context's model.
    /// - Note: Mirrors `init(entity:insertInto:)`.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        precondition(
            !entity.isAbstract, "ManagedObject: cannot instantiate abstract entity \(entity.name)")
        // A fault a context is making starts with its own ID (see `FaultIdentity`); any other
        // object with a new temporary one. The parameters are consumed (moved into the
        // property, bound once): stored with `self.entity = entity` and bound twice by `if let
        // context`, each was retained and released around the calls (4 calls a new object).
        guard let context = consume context else {
            self.objectID = FaultIdentity.take(for: entity) ?? .temporary(for: entity)
            self.entity = consume entity
            return
        }
        self.objectID = context.newTemporaryID(for: entity)
        self.entity = consume entity
        context.insertNew(self)
    }

    /// Creates an object of the entity whose class is `Self` and inserts it into `context`.
    ///
    /// ```swift
    /// let t = Transaction(context: draftContext)
    /// ```
    ///
    /// - Precondition: exactly one entity of the context's model uses this class.
    /// - Note: Mirrors `NSManagedObject.init(context:)`.
    public convenience init(context: ManagedObjectContext) {
        let entity = context.entity(forClass: Self.self)
        self.init(entity: entity, insertInto: context)
    }

    // MARK: Values

    /// The object's values, one per slot (empty for a fault): the one way to the slots.
    ///
    /// An object filled from a store row keeps that row (``rowValues``) instead of slots; the
    /// first access here converts it into slots (``materialiseRow()``), so a site that reads
    /// or writes slots never sees a kept row's object as empty or stale. Paths that read the
    /// row form directly (attribute and to-one reads) are in `ManagedObject+Row.swift`; those
    /// that write attributes over it, and read it with its overlay of written values, in
    /// `ManagedObject+Overlay.swift`.
    var slots: [ObjectValue] {
        @inline(__always) _read {
            if rowValues != nil { materialiseRow() }
            yield storedSlots
        }
        @inline(__always) _modify {
            if rowValues != nil { materialiseRow() }
            yield &storedSlots
        }
        @inline(__always) set {
            if newValue.isEmpty {
                holdNoSlots()
            } else {
                if rowValues != nil { forgetRow() }
                storedSlots = newValue
            }
        }
    }

    /// Whether the object holds values (slots or a kept row): `false` for a fault.
    ///
    /// An object of an entity without properties holds its (no) values as an empty kept row
    /// (see ``holdNoSlots()``), so that it does not read as a fault after a save.
    var hasValues: Bool {
        @inline(__always) get { rowValues != nil || !storedSlots.isEmpty }
    }

    /// Sets empty slots: for an entity without properties, values that are none, kept as an
    /// empty row (empty slots alone read as a fault); for any other entity, a fault's.
    /// Out of line: the setter inlined at every site tests only `isEmpty`.
    @inline(never)
    private func holdNoSlots() {
        if state.keepsResolvedRelationships { forgetResolvedRelationships() }
        dropOverlayOrKeptDestination()
        rowValues = entity.properties.isEmpty ? [] : nil
        storedSlots = []
    }

    /// Drops the object's values, slots or kept row (and its overlay): it is a fault
    /// (whatever its entity).
    func dropValues() {
        if rowValues != nil { forgetRow() }
        storedSlots = []
    }

    /// Forgets the kept row with what stands beside it (the relationships kept resolved, the
    /// overlay of written attributes, a destination delete propagation kept), whose values are
    /// being replaced. Out of line: the slots' setter, inlined at every site, tests only
    /// whether a row is kept.
    @inline(never)
    private func forgetRow() {
        if state.keepsResolvedRelationships { forgetResolvedRelationships() }
        dropOverlayOrKeptDestination()
        rowValues = nil
    }

    /// Makes the object keep `row` (a store row's values, shared) as its values, in place of
    /// slots: what filling a fault from a store row does, and a saved insert
    /// (``moveSlotsIntoSavedRow(of:_:)``).
    ///
    /// An overlay of written attributes (``RowOverlay``) is dropped: the row replaces every
    /// value; so is a destination delete propagation kept for the row it replaces. The
    /// callers replace a fault's values, an insert's slots, or
    /// (``ManagedObjectContext/reload(_:from:)``'s fast path) an object with no changes, which
    /// has an overlay only when an undo took its writes back to the committed values.
    /// `row` is taken: a firing fault hands over the values it kept (borrowed, they were
    /// retained here and released by the caller, an atomic pair per fault).
    @inline(__always)
    func keepRow(_ row: consuming [StoreValue]) {
        if state.keepsResolvedRelationships { forgetResolvedRelationships() }
        dropOverlayOrKeptDestination()
        storedSlots = []
        rowValues = row
    }

    /// Lets go of the kept row while a store patches it with the overlay's values, so that
    /// the store changes its row in place (while the object shared it, the store's write
    /// copied the whole row); returns whether it did. The overlay stays. Only the row table's
    /// patch calls it (``StoreRowHandoff``), once it has found the row and with nothing that
    /// can fail before ``takeSavedRow(_:)`` follows, with no read between; an object that
    /// does not keep a row with an overlay (anything happened to it since the patch was
    /// built) lends nothing.
    ///
    /// - Precondition: the store has checked and written the patch (it can no longer fail).
    func lendRowForPatch() -> Bool {
        guard rowValues != nil, case .overlay? = faultSource else { return false }
        rowValues = nil
        return true
    }

    /// Takes `row`, the store's row after its patch of the overlay's values, as the object's
    /// values, and drops the overlay: the object is saved (its committed values are its
    /// current ones) and holds its values once.
    ///
    /// - Precondition: ``lendRowForPatch()`` lent the row and returned `true`.
    func takeSavedRow(_ row: [StoreValue]) {
        if case .overlay? = faultSource { faultSource = nil }
        rowValues = row
    }

    /// Forgets the relationships kept resolved beside a row (the flag, and the destination
    /// kept in `faultSource`), whose values are being replaced: a destination kept on would
    /// hold its object alive and stand for a row it no longer belongs to. Out of line: only
    /// an object that left its context or a saved insert has them.
    @inline(never)
    private func forgetResolvedRelationships() {
        state.keepsResolvedRelationships = false
        if case .resolvedDestination? = faultSource { faultSource = nil }
    }

    /// Keeps `related` (a kept row's relationship values, resolved, in slot order) beside the
    /// row; see ``resolveRelationshipsBeforeLeaving(_:)`` and ``moveSlotsIntoSavedRow(of:_:)``.
    @inline(__always)
    func keepResolvedRelationships(_ related: [ObjectValue]) {
        storedSlots = related
        state.keepsResolvedRelationships = true
    }

    /// Keeps `destination`, the kept row's one relationship value (a to-one's), beside the
    /// row (see ``FaultSource/resolvedDestination(_:)``).
    @inline(__always)
    func keepResolvedDestination(_ destination: ManagedObject) {
        faultSource = .resolvedDestination(destination)
        state.keepsResolvedRelationships = true
    }

    /// Converts a kept row into slots (to-ones and stored to-manys resolved through the
    /// context's registry); does nothing when the object keeps no row.
    ///
    /// An overlay of written attributes (``RowOverlay``) becomes those slots' current values,
    /// and the row's values of those slots their committed ones (kept in the snapshot), so
    /// the object reads, and compares with its committed values, as if every write had been
    /// made to slots.
    ///
    /// An object that keeps its row's relationships resolved beside it (one that left its
    /// context, ``resolveRelationshipsBeforeLeaving(_:)``, or a saved insert,
    /// ``moveSlotsIntoSavedRow(of:_:)``) takes those; any other object without a context
    /// resolves no relationship.
    @inline(never)
    func materialiseRow() {
        // An empty row is the values of an entity without properties: nothing to convert.
        guard let row = rowValues, !row.isEmpty else { return }
        let values: [ObjectValue]
        if state.keepsResolvedRelationships {
            if case .resolvedDestination(let destination)? = faultSource {
                values = Self.leftValues(row, related: [.toOne(destination)], of: entity)
                faultSource = nil
            } else {
                values = Self.leftValues(row, related: storedSlots, of: entity)
            }
            state.keepsResolvedRelationships = false
        } else {
            dropKeptDestination()  // it stood for the row
            if let context = managedObjectContext {
                values = context.objectValues(row, of: entity)
            } else {
                values = Self.detachedValues(row, of: entity)
            }
        }
        rowValues = nil
        storedSlots = values
        if case .overlay(let overlay)? = faultSource {
            faultSource = nil
            overlay.forEachEntry { entry in
                snapshot?.keep(entry.slot, storedSlots[entry.slot])
                storedSlots[entry.slot] = .attribute(entry.value)
            }
        }
    }

    // MARK: State

    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { state.isInserted }
    /// Whether the object was deleted and the deletion not yet saved (or it was deleted elsewhere).
    public var isDeleted: Bool { state.isDeleted }
    /// Whether the object has unsaved changes to its values (transient ones included, as in
    /// Core Data; see ``hasPersistentChangedValues``).
    public var isUpdated: Bool { !state.isInserted && !state.isDeleted && !changedSlots.isEmpty }
    /// Whether the object has unsaved changes to persistent properties (not only transient ones).
    ///
    /// - Note: Mirrors `hasPersistentChangedValues`.
    public var hasPersistentChangedValues: Bool {
        !changedSlots.isEmpty && !changedSlots.isSubset(of: entity.layout.transientSlots)
    }
    /// Whether the object's values are not loaded yet.
    public var isFault: Bool { !hasValues && !state.isInserted }
    /// Whether the object is inserted, deleted or updated.
    public var hasChanges: Bool { state.isInserted || state.isDeleted || !changedSlots.isEmpty }

    /// The object's entity and ID, and its values when loaded.
    open var description: String {
        let kind = isFault ? " (fault)" : ""
        return "<\(entity.name) \(objectID)\(kind)>"
    }

    // MARK: Lifecycle hooks

    /// Called once, when the object is first inserted. Override to set up initial values.
    /// - Note: Mirrors `awakeFromInsert()`.
    open func awakeFromInsert() {}
    /// Called when a fault is filled with values from the parent or store.
    /// - Note: Mirrors `awakeFromFetch()`.
    open func awakeFromFetch() {}
    /// Called before the object is saved (inserted, updated or deleted).
    /// - Note: Mirrors `willSave()`.
    open func willSave() {}
    /// Called after the object was saved; check ``isDeleted`` to act on saved deletions.
    /// - Note: Mirrors `didSave()`.
    open func didSave() {}
    /// Called by `delete(_:)` (and again by a repeated `delete(_:)`), before delete rules run.
    ///
    /// The deletion may still be rolled back or refused at save: remove resources the object
    /// owns (files) in ``didSave()`` once ``isDeleted`` is saved, not here.
    /// - Note: Mirrors `prepareForDeletion()`.
    open func prepareForDeletion() {}
    /// Called before the object's values are discarded (refresh, reset).
    /// - Note: Mirrors `willTurnIntoFault()`.
    open func willTurnIntoFault() {}
    /// Called after the object's values were discarded.
    /// - Note: Mirrors `didTurnIntoFault()`.
    open func didTurnIntoFault() {}

    // MARK: Validation

    /// Checks the object before its insertion is saved: every property against the model's
    /// rules (mandatory, min/max, lengths, pattern, relationship counts), then against your
    /// per-key rules in ``validate(_:forKey:)``.
    ///
    /// `save()` calls it for every inserted object; call it yourself to validate early.
    /// Override to add rules that involve several properties: call `super`, collect its
    /// error and yours, and throw ``ObjectGraphError/combining(_:)`` of them, so several
    /// failures become one 1560 as Core Data does.
    ///
    /// A to-many relationship that is not loaded, unchanged and without a count rule is
    /// skipped without being loaded (your per-key hook is not called for it). For an unloaded
    /// one that lost members deleted in this context, or that has a count rule, the rule
    /// counts and your hook (for its key, see ``validatedKeys``) gets the members left: an
    /// unordered to-many derived from its inverse to-one (see
    /// ``RelationshipDescription/isStoredInRow``) is read without being loaded and stays
    /// unloaded; an ordered one, or one stored in its object's row, is loaded.
    ///
    /// - Throws: the single failure itself (1570, 1580, 1590, 1610–1680, 1550, or your own
    ///   error unchanged), or ``ObjectGraphError`` `.multipleValidationErrors` (1560) with
    ///   every failure under `NSDetailedErrorsKey`.
    /// - Note: Mirrors `validateForInsert()`.
    open func validateForInsert() throws { try validateProperties() }

    /// Checks the object before its changes are saved; same rules as ``validateForInsert()``.
    ///
    /// - Throws: as ``validateForInsert()``.
    /// - Note: Mirrors `validateForUpdate()`.
    open func validateForUpdate() throws { try validateProperties() }

    /// Checks that the object may be deleted: no relationship with the deny rule may still
    /// reach an object that is not being deleted too.
    ///
    /// `save()` calls it for every deleted object. Override to add conditions; call `super`
    /// and combine errors as in ``validateForInsert()``.
    ///
    /// - Throws: ``ObjectGraphError`` `.relationshipDeniedDelete` (1600), or 1560
    ///   when several deny relationships refuse.
    /// - Note: Mirrors `validateForDelete()`.
    open func validateForDelete() throws { try validateDenyRules() }

    /// Checks `value` as a candidate value for `key`: the model's rules, then your
    /// ``validate(_:forKey:)`` hook (only when the model's rules pass).
    ///
    /// Takes the value as the property would hold it: an attribute's Swift value (or an
    /// ``AttributeValue``, or `nil`), a `ManagedObject` or `nil` for a to-one, a `Set` or
    /// array of objects for a to-many. Changes nothing.
    ///
    /// ```swift
    /// try transaction.validateValue(Decimal(0), forKey: "amount")   // throws 1620
    /// ```
    ///
    /// - Throws: the model rule's error (1570, 1580, 1590, 1610–1680), 1550 when the value
    ///   is not of the property's type, or whatever your hook throws, unchanged.
    /// - Precondition: `key` is a property of the entity.
    /// - Note: Mirrors `validateValue(_:forKey:)`, which calls `validate<Key>:error:`;
    ///   the value is not coerced or replaced (Core Data discourages replacing it).
    public func validateValue(_ value: Any?, forKey key: String) throws {
        try validateAgainstModel(value, forKey: key)
        try validate(value, forKey: key)
    }

    /// Your per-key validation rule: override it to check a property's value beyond what
    /// the model can say. Does nothing by default.
    ///
    /// Called by ``validateValue(_:forKey:)`` and, at save, by ``validateForInsert()`` and
    /// ``validateForUpdate()`` once per property whose model rules pass (but a to-many never
    /// loaded nor changed, with no count rule: not loaded for the hook), with the value the
    /// property holds (see ``validateValue(_:forKey:)`` for its shape). Switch on `key`;
    /// call `super` for keys you do not handle (a superclass may have rules). Throw any
    /// error: one of your own domain reaches the caller unchanged, or build one with
    /// ``ObjectGraphError/validationError(_:object:key:value:reason:)``. Do not change the
    /// object here.
    ///
    /// ```swift
    /// override func validate(_ value: Any?, forKey key: String) throws {
    ///     if key == "name", let name = value as? String,
    ///         name != name.trimmingCharacters(in: .whitespaces)
    ///     {
    ///         throw ObjectGraphError.validationError(
    ///             "Category.name must not start or end with spaces; got \"\(name)\"",
    ///             object: self, key: key)
    ///     }
    ///     try super.validate(value, forKey: key)
    /// }
    /// ```
    ///
    /// - Throws: whatever your rule decides.
    /// - Note: Stands for Core Data's `validate<Key>:error:` methods, which are found by
    ///   selector name; Swift on Linux has no such lookup, so one overridable method takes
    ///   the key.
    open func validate(_ value: Any?, forKey key: String) throws {}

    /// The keys your ``validate(_:forKey:)`` override checks; `nil` (the default) means
    /// every key.
    ///
    /// At save, ``validateForInsert()`` and ``validateForUpdate()`` call the per-key hook
    /// only for these keys, so the other properties' values are not converted to `Any` for
    /// a hook that ignores them (the model's rules still run on every property). With the
    /// default, the hook is called for every property. A subclass of a class that declares
    /// keys and overrides the hook for more keys declares the union (`super.validatedKeys`
    /// plus its own). A class whose hook is `ManagedObject`'s (it does nothing) skips it
    /// whatever it declares: the save tells from the class's vtable (with Objective-C
    /// interoperability it cannot, and such a class may declare `[]`).
    ///
    /// ```swift
    /// override class var validatedKeys: Set<String>? { ["name"] }
    /// ```
    ///
    /// ``validateValue(_:forKey:)`` always calls the hook, for any key. A save asks each
    /// class for its keys once (with the first of its objects it validates), not per object.
    ///
    /// - Note: Stands for Core Data calling `validate<Key>:error:` only for the keys that
    ///   have such a method.
    open class var validatedKeys: Set<String>? { nil }
}

// Managed objects live on their context's queue; pass ManagedObjectID instead.
@available(*, unavailable)
extension ManagedObject: @unchecked Sendable {}
