import Foundation

/// Declares a managed object's attribute: the Swift stand-in for `@NSManaged`.
///
/// The key is the property's name; `@Attribute("other") var x` only renames.
///
/// ```swift
/// final class Transaction: ManagedObject {
///     @Attribute var amount: Decimal
///     @Attribute var note: String?
/// }
/// ```
///
/// Reads fire the object's fault; writes record a change. A value of the wrong type for the
/// model's attribute traps, naming entity, key and expected type.
///
/// - Note: Mirrors `@NSManaged` attribute properties.
@propertyWrapper
public struct Attribute<Value: AttributeConvertible> {
    let key: String?
    var slot = -1

    /// An attribute whose key is the property's name.
    public init() { self.key = nil }
    /// An attribute stored under `key`.
    public init(_ key: String) { self.key = key }

    /// Unavailable: `@Attribute` works only on `ManagedObject` subclasses.
    @available(*, unavailable, message: "@Attribute is available only on ManagedObject subclasses")
    public var wrappedValue: Value {
        get { preconditionFailure("@Attribute is available only on ManagedObject subclasses") }
        set { preconditionFailure("@Attribute is available only on ManagedObject subclasses") }
    }

    /// Reads and writes the attribute through the enclosing object.
    public static subscript<Object: ManagedObject>(
        _enclosingInstance object: Object,
        wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
        storage storageKeyPath: ReferenceWritableKeyPath<Object, Self>
    ) -> Value {
        get {
            let slot = resolve(object, storageKeyPath)
            let stored = object.read(slot, "\(object.entity.name).\(object.entity.properties[slot].name)").attributeValue
            if stored.isNull { return Value.fromAttributeValue(.null) ?? Value.nullValue }
            guard let value = Value.fromAttributeValue(stored) else {
                preconditionFailure("ObjectGraph: \(object.entity.name).\(object.entity.properties[slot].name) holds \(stored), which is not a \(Value.self)")
            }
            return value
        }
        set {
            let slot = resolve(object, storageKeyPath)
            let attribute = object.entity.properties[slot] as! AttributeDescription
            guard let value = newValue.attributeValue.coerced(to: attribute.type) else {
                preconditionFailure("""
                    ObjectGraph: \(object.entity.name).\(attribute.name) expects a \(attribute.type.rawValue) value; \
                    got \(newValue.attributeValue)
                    """)
            }
            object.write(slot, .attribute(value), "\(object.entity.name).\(attribute.name) = …")
        }
    }

    private static func resolve<Object: ManagedObject>(_ object: Object, _ storage: ReferenceWritableKeyPath<Object, Self>) -> Int {
        let cached = object[keyPath: storage].slot
        if cached >= 0 { return cached }
        let key = object[keyPath: storage].key ?? PropertyKeys.name(of: storage)
        guard let attribute = object.entity.attributesByName[key] else {
            preconditionFailure("ObjectGraph: @Attribute \(key): entity \(object.entity.name) has no attribute '\(key)'")
        }
        object[keyPath: storage].slot = attribute.index
        return attribute.index
    }
}

/// Learns a wrapped property's name from its storage key path (`\Category._name` → `name`).
enum PropertyKeys {
    // Sendable: guarded by `lock`.
    nonisolated(unsafe) private static var names: [AnyKeyPath: String] = [:]
    private static let lock = NSLock()

    static func name(of keyPath: AnyKeyPath) -> String {
        lock.lock(); defer { lock.unlock() }
        if let name = names[keyPath] { return name }
        let text = "\(keyPath)"
        var name = String(text.split(separator: ".").last ?? Substring(text))
        if name.hasPrefix("_") { name.removeFirst() }
        names[keyPath] = name
        return name
    }
}
