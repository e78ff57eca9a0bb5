import Foundation

/// A Swift type a ``Relationship`` property can have: `T?` (to-one), `Set<T>` (to-many) or
/// `[T]` (ordered to-many), where `T` is a `ManagedObject` subclass.
public protocol RelationshipConvertible {
    /// Whether the type holds many objects.
    static var isToMany: Bool { get }
    /// The value holding `objects`.
    static func fromRelatedObjects(_ objects: [ManagedObject]) -> Self
    /// The objects the value holds.
    var relatedObjects: [ManagedObject] { get }
    /// The one object a to-one value holds, or `nil`; the first of ``relatedObjects`` by
    /// default.
    ///
    /// `@Relationship`'s setter reads a to-one's new value through it, so that setting a
    /// to-one does not build an array of its one object.
    var relatedObject: ManagedObject? { get }
    /// Whether a key-path probe tells this type's properties by a marker object, so that
    /// `@Relationship` need not hand it the property's own key path: `true` for `T?`,
    /// `Set<T>` and `[T]`; `false` by default (the probe compares key paths).
    ///
    /// - Note: No Core Data counterpart: Core Data reads key paths by their Objective-C names.
    static var probesByMarker: Bool { get }
}

extension RelationshipConvertible {
    /// The first of ``relatedObjects``.
    public var relatedObject: ManagedObject? { relatedObjects.first }
    /// `false`: the probe compares key paths (see ``probesByMarker``).
    @inlinable public static var probesByMarker: Bool { false }
}

extension Optional: RelationshipConvertible where Wrapped: ManagedObject {
    /// `false`: a to-one.
    public static var isToMany: Bool { false }
    /// The first object, or `nil`.
    public static func fromRelatedObjects(_ objects: [ManagedObject]) -> Self {
        objects.first.map { $0 as! Wrapped }
    }
    /// The object, if any.
    public var relatedObjects: [ManagedObject] { self.map { [$0] } ?? [] }
    /// The object, if any.
    public var relatedObject: ManagedObject? { self }
    /// `true`: the probe has a marker object of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Set: RelationshipConvertible where Element: ManagedObject {
    /// `true`: a to-many.
    public static var isToMany: Bool { true }
    /// The set of `objects`.
    public static func fromRelatedObjects(_ objects: [ManagedObject]) -> Self {
        Set(objects.map { $0 as! Element })
    }
    /// The members.
    public var relatedObjects: [ManagedObject] { Array(self) }
    /// `true`: the probe has a marker object of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

extension Array: RelationshipConvertible where Element: ManagedObject {
    /// `true`: an ordered to-many.
    public static var isToMany: Bool { true }
    /// `objects`, in order.
    public static func fromRelatedObjects(_ objects: [ManagedObject]) -> Self {
        objects.map { $0 as! Element }
    }
    /// The members, in order.
    public var relatedObjects: [ManagedObject] { self }
    /// `true`: the probe has a marker object of this type.
    @inlinable public static var probesByMarker: Bool { true }
}

/// Declares a managed object's relationship: the Swift stand-in for `@NSManaged`.
///
/// ```swift
/// final class Category: ManagedObject {
///     @Relationship var transactions: Set<Transaction>
/// }
/// final class Transaction: ManagedObject {
///     @Relationship var category: Category?
/// }
/// ```
///
/// Assigning updates the inverse relationship at once.
///
/// - Note: Mirrors `@NSManaged` relationship properties.
@propertyWrapper
public struct Relationship<Value: RelationshipConvertible> {
    /// The key given as `@Relationship("key")`, as its number in `ExplicitKeys`; 0 for the
    /// property's name (2 bytes in every object, as ``Attribute``'s).
    @usableFromInline let keyNumber: UInt16

    /// A relationship whose key is the property's name.
    @inlinable public init() { self.keyNumber = 0 }
    /// A relationship stored under `key`.
    ///
    /// The wrapper keeps the key as a 2-byte number in a process-wide table of explicit keys
    /// (each object of the class carries the number, not the string); making it hashes the
    /// key and finds its number without a lock.
    ///
    /// - Precondition: At most 65,535 distinct explicit keys in the process; the trap says so.
    public init(_ key: String) { self.keyNumber = ExplicitKeys.number(of: key) }

    /// The key given as `@Relationship("key")`; `nil` for the property's name.
    @usableFromInline var key: String? { ExplicitKeys.key(keyNumber) }

    /// Unavailable: `@Relationship` works only on `ManagedObject` subclasses.
    @available(*, unavailable, message: "@Relationship works only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Relationship is available only on ManagedObject subclasses") }
        set { preconditionFailure("@Relationship is available only on ManagedObject subclasses") }
    }

    /// Reads and writes the relationship through the enclosing object.
    ///
    /// Inlinable, as ``Attribute``'s, so that the caller's module specialises it for `Value`
    /// and `Object`: the rest (finding the relationship, the inverse) is one non-generic call
    /// into the object. Not inlinable, the generic code ran unspecialised, ≈ 415
    /// instructions of each to-one write's ≈ 2,350 (W1, RAM store). The property is named by
    /// its storage's offset (``WrapperSite``), so an optimised caller makes neither key path.
    @inlinable
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        @inline(__always) get {
            // As ``Attribute``'s: the own key path only for a type without a probe marker.
            Value.probesByMarker
                ? value(in: object, at: WrapperSite(object, storageKeyPath), wrapped: nil)
                : value(
                    in: object, at: WrapperSite(object, storageKeyPath), wrapped: wrappedKeyPath)
        }
        @inline(__always) set { set(newValue, in: object, at: WrapperSite(object, storageKeyPath)) }
    }

    /// The getter's work once the property is identified, out of the accessor so that the
    /// accessor is always inlined and its key paths folded away (see ``Attribute``'s).
    /// `wrapped`: the property's own key path, for a type without a probe marker only.
    @inlinable
    static func value(in object: ManagedObject, at site: WrapperSite, wrapped: AnyKeyPath?)
        -> Value
    {
        guard let related = object.wrappedRelated(site, toMany: Value.isToMany) else {
            return probeMarker(object, site, wrapped)
        }
        return Value.fromRelatedObjects(related)
    }

    /// The setter's work once the property is identified.
    @inlinable
    static func set(_ newValue: Value, in object: ManagedObject, at site: WrapperSite) {
        if Value.isToMany {
            object.setWrappedToMany(newValue.relatedObjects, site)
        } else {
            // Without building an array of the one object (a third of setting a to-one).
            object.setWrappedToOne(newValue.relatedObject, site)
        }
    }

    /// What the getter returns to a key-path probe (see `KeyPathProbe`).
    @usableFromInline
    static func probeMarker(_ object: ManagedObject, _ site: WrapperSite, _ wrapped: AnyKeyPath?)
        -> Value
    {
        KeyPathProbe.relationshipMarker(object, site, Value.self, wrapped: wrapped)
    }
}

extension ManagedObject {
    /// The relationship of the ``Relationship`` wrapper stored at `site` (a to-many when
    /// `toMany`); `nil` only on a key-path probe.
    ///
    /// - Precondition: The entity has such a relationship; the message names the key, the
    ///   entity and the kind expected.
    @inline(__always)
    func wrappedRelationship(_ site: WrapperSite, toMany: Bool) -> RelationshipDescription? {
        let entity = self.entity
        guard
            let slot = PropertyKeys.slot(site, of: self, relationship: true),
            // The slot was resolved through `relationshipsByName`: it is a relationship's.
            case let r = unsafeDowncast(entity.properties[slot], to: RelationshipDescription.self),
            r.isToMany == toMany
        else {
            if entity.keyPathProbe != nil { return nil }
            let name = PropertyKeys.key(of: site, in: type(of: self))
            preconditionFailure(
                """
                ObjectGraph: @Relationship \(name): entity \(entity.name) has no \
                \(toMany ? "to-many" : "to-one") relationship '\(name)'
                """)
        }
        return r
    }

    /// The objects a ``Relationship`` wrapper's getter returns (the to-one's destination as
    /// zero or one object); `nil` only on a key-path probe.
    @usableFromInline
    func wrappedRelated(_ site: WrapperSite, toMany: Bool) -> [ManagedObject]? {
        guard let r = wrappedRelationship(site, toMany: toMany) else { return nil }
        return toMany ? related(r) : toOne(r).map { [$0] } ?? []
    }

    /// Sets the to-one of the ``Relationship`` wrapper stored at `site` (nothing on a
    /// key-path probe), updating the inverse.
    @usableFromInline
    func setWrappedToOne(_ newValue: ManagedObject?, _ site: WrapperSite) {
        guard let r = wrappedRelationship(site, toMany: false) else { return }
        setToOne(r, newValue)
    }

    /// Replaces the members of the to-many of the ``Relationship`` wrapper stored at `site`
    /// (nothing on a key-path probe), updating the inverses.
    @usableFromInline
    func setWrappedToMany(_ objects: [ManagedObject], _ site: WrapperSite) {
        guard let r = wrappedRelationship(site, toMany: true) else { return }
        setRelated(r, objects)
    }
}
