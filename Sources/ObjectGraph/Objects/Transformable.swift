import Foundation

/// Declares a managed object's transformable attribute, read and written through its value
/// transformer: the Swift stand-in for an `@NSManaged` transformable property.
///
/// ```swift
/// final class Item: ManagedObject {
///     @Transformable var tags: [String]?          // the Codable default: kept as JSON
///     @Transformable var color: Color?            // valueTransformerName "ColorTransformer"
/// }
/// ```
///
/// Writing transforms the value into bytes (``AttributeValueTransformer/transformedValue(_:)``
/// of the attribute's registered transformer, or the JSON encoding of an `Encodable` for the
/// Codable default); reading transforms the stored bytes back. Declare the property optional
/// unless the attribute always has a value. The key is the property's name;
/// `@Transformable("other")` only renames.
///
/// - Precondition: Reading traps with the message of
///   ``ManagedObject/transformedValue(forKey:as:)``'s error when the value cannot be read as
///   `Value` (a transformer nobody registered, bytes that are not a `Value`); read with that
///   method to handle the error instead. Writing traps when the value cannot be stored.
/// - Note: Mirrors `@NSManaged` properties of transformable attributes.
@propertyWrapper
public struct Transformable<Value> {
    /// The key given as `@Transformable("key")`, as its number in `ExplicitKeys`; 0 for the
    /// property's name (2 bytes in every object, as ``Attribute``'s).
    @usableFromInline let keyNumber: UInt16

    /// A transformable attribute whose key is the property's name.
    @inlinable public init() { self.keyNumber = 0 }
    /// A transformable attribute stored under `key`.
    ///
    /// The wrapper keeps the key as a 2-byte number in a process-wide table of explicit keys
    /// (each object of the class carries the number, not the string); making it hashes the
    /// key and finds its number without a lock.
    ///
    /// - Precondition: At most 65,535 distinct explicit keys in the process; the trap says so.
    public init(_ key: String) { self.keyNumber = ExplicitKeys.number(of: key) }

    /// The key given as `@Transformable("key")`; `nil` for the property's name.
    var key: String? { ExplicitKeys.key(keyNumber) }

    /// Unavailable: `@Transformable` works only on `ManagedObject` subclasses.
    @available(*, unavailable, message: "@Transformable works only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Transformable is available only on ManagedObject subclasses") }
        set { preconditionFailure("@Transformable is available only on ManagedObject subclasses") }
    }

    /// Reads and writes the attribute through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            guard let attribute = resolve(object, storageKeyPath) else {
                return KeyPathProbe.transformableMarker(
                    object, WrapperSite(object, storageKeyPath), wrappedKeyPath)
            }
            let stored = object.read(attribute.index, "\(attribute)").attributeValue
            let value: Value?
            do { value = try attribute.transformedValue(of: stored, as: Value.self) } catch {
                preconditionFailure("ObjectGraph: \(error)")
            }
            if let value { return value }
            guard let none = Value.self as? any ExpressibleByNilLiteral.Type else {
                preconditionFailure(
                    "ObjectGraph: \(attribute) is nil; declare the property as \(Value.self)?")
            }
            return none.init(nilLiteral: ()) as! Value
        }
        set {
            guard let attribute = resolve(object, storageKeyPath) else { return }
            let stored: AttributeValue
            do { stored = try attribute.storedValue(for: newValue) } catch {
                preconditionFailure("ObjectGraph: \(error)")
            }
            object.writeAttribute(attribute.index, stored, "\(attribute) = …")
        }
    }

    /// The attribute; `nil` only on a key-path probe (see `KeyPathProbe`).
    private static func resolve<Object: ManagedObject>(
        _ object: Object, _ storage: ReferenceWritableKeyPath<Object, Self>
    ) -> AttributeDescription? {
        // Not inlinable, so its caller makes both key paths anyway; the slot is found by the
        // storage's offset all the same, in the one table.
        guard
            let slot = PropertyKeys.attributeSlot(
                WrapperSite(object, storage), of: object, wrapper: "@Transformable")
        else { return nil }
        // The slot was resolved through `attributesByName`: it is an attribute's.
        return unsafeDowncast(object.entity.properties[slot], to: AttributeDescription.self)
    }
}

extension ManagedObject {
    /// The transformable attribute `key`'s value read back as `T` through the attribute's
    /// value transformer (decoded from JSON for the Codable default), or `nil` when it is
    /// nil.
    ///
    /// ```swift
    /// let tags = try item.transformedValue(forKey: "tags", as: [String].self)
    /// ```
    ///
    /// `Data` always reads the stored bytes, whatever the transformer.
    ///
    /// - Throws: ``ObjectGraphError`` `.coreData` (134060) naming the transformer when it is
    ///   not registered, does not allow reverse transformation or gives something that is not
    ///   a `T`, or naming `T` when the stored JSON does not decode as one.
    /// - Precondition: `key` is an attribute of the entity.
    /// - Note: Core Data reads a transformable value with `value(forKey:)`; this is the
    ///   typed, throwing form.
    public func transformedValue<T>(forKey key: String, as type: T.Type = T.self) throws -> T? {
        guard let attribute = entity.attributesByName[key] else {
            unknownKey(key, "transformedValue(forKey:as:)")
        }
        let stored = read(attribute.index, "transformedValue(forKey: \"\(key)\")").attributeValue
        return try attribute.transformedValue(of: stored, as: type)
    }
}
