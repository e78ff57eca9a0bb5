import Foundation

/// Turns the values of transformable attributes into the bytes a store keeps, and back:
/// Foundation's `ValueTransformer`, which Foundation on Linux does not have, under a name
/// of ObjectGraph's own.
///
/// Subclass it, override ``transformedValue(_:)`` (value to `Data`, used when a value is
/// set) and ``reverseTransformedValue(_:)`` (`Data` to value, used when it is read), and
/// register an instance under the name the model's attribute gives as its
/// `valueTransformerName`, before the objects are used:
///
/// ```swift
/// final class ColorTransformer: AttributeValueTransformer {
///     override class func transformedValueClass() -> Any.Type { Data.self }
///     override class func allowsReverseTransformation() -> Bool { true }
///     override func transformedValue(_ value: Any?) -> Any? {
///         (value as? Color).map { Data($0.hex.utf8) }
///     }
///     override func reverseTransformedValue(_ value: Any?) -> Any? {
///         (value as? Data).flatMap { Color(hex: String(decoding: $0, as: UTF8.self)) }
///     }
/// }
/// AttributeValueTransformer.setValueTransformer(ColorTransformer(), forName: "ColorTransformer")
/// ```
///
/// An attribute without a transformer name (or naming one of Foundation's archiving
/// transformers, `NSSecureUnarchiveFromData`, `NSKeyedUnarchiveFromData` or
/// `NSUnarchiveFromData`, which do not exist on Linux) uses the Codable default: a value is
/// kept as its JSON encoding (see ``CodableValueTransformer``). A name nobody registered
/// leaves the attribute's values as opaque bytes: the model loads with a warning in
/// `loadWarnings`, stores, fixtures and the seeder work with the bytes, and only reading a
/// value as its transformed type fails, naming the transformer.
///
/// - Important: A registered transformer is shared by every context, so it is called from
///   any queue: it must not keep mutable state without a lock.
/// - Note: Mirrors Foundation's `ValueTransformer` (`NSValueTransformer`).
open class AttributeValueTransformer: @unchecked Sendable {
    // Sendable: this class has no stored state; subclasses must be safe to call from any
    // queue, as the documentation above requires (Foundation's transformers are shared too).

    /// Creates a transformer.
    public init() {}

    /// The type ``transformedValue(_:)`` returns: `Data` for the transformers of
    /// transformable attributes. The default is `Data`.
    ///
    /// - Note: Mirrors `transformedValueClass()`.
    open class func transformedValueClass() -> Any.Type { Data.self }

    /// Whether ``reverseTransformedValue(_:)`` is supported. The default is `true`; a
    /// transformable attribute needs it to read its values.
    ///
    /// - Note: Mirrors `allowsReverseTransformation()`.
    open class func allowsReverseTransformation() -> Bool { true }

    /// The value transformed: for a transformable attribute, the bytes to store for `value`,
    /// or `nil` when the value cannot be transformed. The default returns `value` unchanged.
    ///
    /// - Note: Mirrors `transformedValue(_:)`.
    open func transformedValue(_ value: Any?) -> Any? { value }

    /// The value a transformed value came from: for a transformable attribute, the value the
    /// stored bytes stand for. The default calls ``transformedValue(_:)`` when reverse
    /// transformation is allowed, and returns `nil` otherwise.
    ///
    /// - Note: Mirrors `reverseTransformedValue(_:)`.
    open func reverseTransformedValue(_ value: Any?) -> Any? {
        Self.allowsReverseTransformation() ? transformedValue(value) : nil
    }

    // MARK: The registry

    private static let lock = NSLock()
    /// Guarded by `lock`.
    nonisolated(unsafe) private static var registered: [String: AttributeValueTransformer] = [:]

    /// Registers `transformer` under `name` (or removes the registration when it is `nil`).
    ///
    /// - Note: Mirrors `setValueTransformer(_:forName:)`.
    public static func setValueTransformer(
        _ transformer: AttributeValueTransformer?, forName name: String
    ) {
        lock.lock()
        defer { lock.unlock() }
        registered[name] = transformer
    }

    /// The transformer registered under `name`, or `nil`.
    ///
    /// - Note: Mirrors `init(forName:)` (Objective-C's `valueTransformerForName:`).
    public static func valueTransformer(forName name: String) -> AttributeValueTransformer? {
        lock.lock()
        defer { lock.unlock() }
        return registered[name]
    }

    /// The names transformers are registered under, sorted.
    ///
    /// - Note: Mirrors `valueTransformerNames()`.
    public static func valueTransformerNames() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return registered.keys.sorted()
    }

    /// Foundation's archiving transformers, which Core Data uses by default: on Linux they
    /// stand for the Codable default unless something is registered under their name.
    static let foundationArchivingNames: Set<String> = [
        "NSSecureUnarchiveFromData", "NSKeyedUnarchiveFromData", "NSUnarchiveFromData",
        "NSSecureUnarchiveFromDataTransformerName", "NSKeyedUnarchiveFromDataTransformerName",
    ]
}
