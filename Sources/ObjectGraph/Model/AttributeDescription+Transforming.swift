import Foundation

/// How a transformable attribute's values become the bytes a store keeps, and back, through
/// its `valueTransformerName` (see ``AttributeValueTransformer``).
extension AttributeDescription {
    /// The transformer that serves a transformable attribute, looked up when used (so a
    /// transformer registered after the model was built is found).
    enum Transforming {
        /// No name, or one of Foundation's archiving transformers: values are `Codable`,
        /// kept as JSON.
        case codable
        /// The registered transformer of the attribute's name.
        case registered(AttributeValueTransformer, name: String)
        /// A name nobody registered: values are opaque bytes.
        case unregistered(String)
    }

    var transforming: Transforming {
        guard let name = valueTransformerName, !name.isEmpty else { return .codable }
        if let transformer = AttributeValueTransformer.valueTransformer(forName: name) {
            return .registered(transformer, name: name)
        }
        if AttributeValueTransformer.foundationArchivingNames.contains(name) { return .codable }
        return .unregistered(name)
    }

    /// The value to store for `value` as `setValue(_:forKey:)` takes it: for a transformable
    /// attribute, the bytes its transformer gives (or the bytes themselves).
    ///
    /// - Throws: ``ObjectGraphError`` `.valueTypeMismatch` (134060) saying what fits when nothing does.
    func storedValue(for value: Any?) throws -> AttributeValue {
        if type != .transformable || value is AttributeValue {
            if let v = AttributeValue(any: value, for: type) { return v }
            throw TransformErrors.doesNotFit(
                self, value as Any, expected: "a \(type.rawValue) value")
        }
        guard let value = AttributeValue.unwrap(value) else { return .null }
        switch transforming {
        case .registered(let transformer, let name):
            guard let data = transformer.transformedValue(value) as? Data else {
                throw TransformErrors.doesNotFit(
                    self, value, expected: "a value the transformer '\(name)' turns into Data")
            }
            return .transformable(data)
        case .codable:
            if let v = AttributeValue(any: value, for: .transformable) { return v }
            throw TransformErrors.doesNotFit(self, value, expected: "an Encodable value or Data")
        case .unregistered(let name):
            if let data = value as? Data { return .transformable(data) }
            throw TransformErrors.notRegistered(self, name, reading: nil, writing: value)
        }
    }

    /// The stored value as `value(forKey:)` gives it: for a transformable attribute, the
    /// value its registered transformer reads back from the bytes, or the bytes themselves
    /// (the Codable default, whose type the call does not name, and unregistered names).
    func publicValue(of stored: AttributeValue) -> Any? {
        guard type == .transformable, case .transformable(let data) = stored,
            case .registered(let transformer, _) = transforming
        else { return stored.swiftValue(for: type) }
        return transformer.reverseTransformedValue(data)
    }

    /// The stored value read back as `T`: through the registered transformer, or decoded
    /// from JSON for the Codable default; `nil` for nil. `Data` is the stored bytes.
    ///
    /// - Throws: ``ObjectGraphError`` `.valueTypeMismatch` (134060) naming the transformer when it is
    ///   not registered (only `Data`, the stored bytes, can be read then), does not allow
    ///   reverse transformation, or gives something that is not a `T`; naming the type when
    ///   JSON bytes do not decode as one.
    func transformedValue<T>(of stored: AttributeValue, as _: T.Type) throws -> T? {
        let bytes: Data
        switch stored {
        case .null: return nil
        case .transformable(let d), .data(let d): bytes = d
        default:
            if let v = stored.swiftValue(for: type) as? T { return v }
            throw TransformErrors.notA(self, T.self, got: stored.swiftValue(for: type))
        }
        // Data reads the stored bytes, whatever the transformer.
        if T.self == Data.self || T.self == Data?.self, let data = bytes as? T { return data }
        switch transforming {
        case .registered(let transformer, let name):
            guard Swift.type(of: transformer).allowsReverseTransformation() else {
                throw TransformErrors.notReversible(self, name)
            }
            let value = transformer.reverseTransformedValue(bytes)
            guard let typed = value as? T else {
                throw TransformErrors.notA(self, T.self, got: value, transformer: name)
            }
            return typed
        case .codable:
            guard let decodable = T.self as? any Decodable.Type else {
                throw TransformErrors.notA(self, T.self, got: bytes)
            }
            return try Self.decode(decodable, from: bytes, for: self) as? T
        case .unregistered(let name):
            throw TransformErrors.notRegistered(self, name, reading: T.self, writing: nil)
        }
    }

    private static func decode<D: Decodable>(
        _ type: D.Type, from data: Data, for attribute: AttributeDescription
    ) throws -> D {
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw TransformErrors.undecodable(attribute, D.self, error)
        }
    }
}

/// The errors of reading and writing transformable values, code 134060 (`NSCoreDataError`).
enum TransformErrors {
    static func notRegistered(
        _ a: AttributeDescription, _ name: String, reading: Any.Type?, writing: Any?
    ) -> ObjectGraphError {
        let action =
            reading.map { "read its value as \($0)" }
            ?? "store a \(writing.map { "\(type(of: $0))" } ?? "value")"
        return ObjectGraphError(
            .valueTypeMismatch,
            "\(a): the value transformer '\(name)' is not registered, so its values are opaque "
                + "bytes; register it with AttributeValueTransformer.setValueTransformer(_:forName:) "
                + "to \(action) (as Data, the bytes can be read and written)",
            entityName: a.entity?.name, key: a.name)
    }

    static func notReversible(_ a: AttributeDescription, _ name: String) -> ObjectGraphError {
        ObjectGraphError(
            .valueTypeMismatch,
            "\(a): the value transformer '\(name)' does not allow reverse transformation, "
                + "which reading a transformable value needs", entityName: a.entity?.name,
            key: a.name)
    }

    static func notA(
        _ a: AttributeDescription, _ type: Any.Type, got value: Any?, transformer: String? = nil
    ) -> ObjectGraphError {
        let source = transformer.map { "the value transformer '\($0)' gave" } ?? "it holds"
        let got = value.map { "a \(Swift.type(of: $0))" } ?? "nil"
        return ObjectGraphError(
            .valueTypeMismatch, "\(a): cannot read the value as \(type): \(source) \(got)",
            entityName: a.entity?.name, key: a.name)
    }

    static func undecodable(_ a: AttributeDescription, _ type: Any.Type, _ error: any Error)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .valueTypeMismatch, "\(a): the stored JSON does not decode as \(type): \(error)",
            entityName: a.entity?.name, key: a.name)
    }

    static func doesNotFit(_ a: AttributeDescription, _ value: Any, expected: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .valueTypeMismatch, "\(a) expects \(expected); got \(value) of type \(type(of: value))",
            entityName: a.entity?.name, key: a.name)
    }
}
