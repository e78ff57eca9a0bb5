import Foundation

/// Keeps a `Codable` value as its JSON encoding (keys sorted, so equal values give equal
/// bytes): the transformer of transformable attributes that name none.
///
/// Register one under a name to give an attribute that names it a value type of its own:
///
/// ```swift
/// AttributeValueTransformer.setValueTransformer(CodableValueTransformer<[String]>(),
///                                               forName: "TagsTransformer")
/// ```
///
/// - Note: Core Data's default transformer archives values with `NSCoding`; on Linux values
///   are `Codable` instead, and the bytes are JSON.
open class CodableValueTransformer<Value: Codable>: AttributeValueTransformer, @unchecked Sendable {
    // Sendable: no stored state; JSONEncoder and JSONDecoder are made per call.

    /// Creates the transformer.
    public override init() { super.init() }

    /// `Data`: values become their JSON bytes.
    open override class func transformedValueClass() -> Any.Type { Data.self }

    /// The JSON encoding of `value` when it is a `Value`, else `nil`.
    open override func transformedValue(_ value: Any?) -> Any? {
        guard let value = value as? Value else { return nil }
        return try? JSONEncoder.canonical.encode(value)
    }

    /// The `Value` decoded from JSON bytes, or `nil` when they are not one.
    open override func reverseTransformedValue(_ value: Any?) -> Any? {
        guard let data = value as? Data else { return nil }
        return try? JSONDecoder().decode(Value.self, from: data)
    }
}
