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
}

extension RelationshipConvertible {
    /// The first of ``relatedObjects``.
    public var relatedObject: ManagedObject? { relatedObjects.first }
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
    public init(_ key: String) { self.keyNumber = ExplicitKeys.number(of: key) }

    /// The key given as `@Relationship("key")`; `nil` for the property's name.
    var key: String? { ExplicitKeys.key(keyNumber) }

    /// Unavailable: `@Relationship` works only on `ManagedObject` subclasses.
    @available(*, unavailable, message: "@Relationship works only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Relationship is available only on ManagedObject subclasses") }
        set { preconditionFailure("@Relationship is available only on ManagedObject subclasses") }
    }

    /// Reads and writes the relationship through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            guard let r = resolve(object, storageKeyPath) else {
                return KeyPathProbe.relationshipMarker(object, storageKeyPath, wrappedKeyPath)
            }
            return Value.fromRelatedObjects(
                r.isToMany ? object.related(r) : object.toOne(r).map { [$0] } ?? [])
        }
        set {
            guard let r = resolve(object, storageKeyPath) else { return }
            if r.isToMany {
                object.setRelated(r, newValue.relatedObjects)
            } else {
                // Without building an array of the one object (a third of setting a to-one).
                object.setToOne(r, newValue.relatedObject)
            }
        }
    }

    /// The relationship; `nil` only on a key-path probe (see `KeyPathProbe`).
    private static func resolve<Object: ManagedObject>(
        _ object: Object, _ storage: ReferenceWritableKeyPath<Object, Self>
    )
        -> RelationshipDescription?
    {
        let slot = PropertyKeys.slot(
            storage, explicitKey: object[keyPath: storage].key, entity: object.entity,
            relationship: true)
        guard let slot, let r = object.entity.properties[slot] as? RelationshipDescription,
            r.isToMany == Value.isToMany
        else {
            if object.entity.keyPathProbe != nil { return nil }
            let key = object[keyPath: storage].key ?? PropertyKeys.name(of: storage)
            preconditionFailure(
                """
                ObjectGraph: @Relationship \(key): entity \(object.entity.name) has no \
                \(Value.isToMany ? "to-many" : "to-one") relationship '\(key)'
                """)
        }
        return r
    }
}
