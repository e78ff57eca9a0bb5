import Foundation

/// Learns which ``Attribute`` and ``Relationship`` properties a Swift key path reads, by
/// reading it once on a detached probe object.
///
/// On Linux a key path to a computed property carries no name (it prints as
/// `\Book.<computed 0x… (Int)>`), and the wrapped properties are computed. A probe is an object
/// of the key path's root class whose entity has no properties and carries a ``Recorder``:
/// the wrappers' accessors see it, note the property's key and return a marker (an unusual
/// value; for a to-one, another probe) instead of reading a slot. A key path names a chain
/// of properties when each read happened on the previous read's marker and the key path
/// returned the last marker unchanged, so a computed property that transforms a value (or
/// reads two) is refused rather than mistaken for the property it reads.
enum KeyPathProbe {
    /// What a key path reads.
    enum Resolution: Hashable {
        /// Properties, in order: `["category", "name"]`.
        case properties([String])
        /// The `objectID` of the object that the properties (possibly none) lead to.
        case objectID([String])
    }

    /// The reads made through a probe, and the markers handed out.
    final class Recorder {
        /// What a wrapper returned to the probe.
        enum Marker {
            case value(AttributeValue)
            case object(ManagedObject)
            case objects(ManagedObject)
            case none
        }

        /// One wrapper access.
        struct Read {
            let object: ObjectIdentifier
            let key: String
            /// The wrapped property's key path, when the wrapper hands it over (a
            /// ``Transformable``, and an ``Attribute`` or ``Relationship`` whose type has no
            /// probe marker: `probesByMarker`); compared with the key path converted.
            let wrapped: AnyKeyPath?
            /// The wrapped property's type.
            let valueType: Any.Type
            let marker: Marker
        }

        private(set) var reads: [Read] = []
        private(set) var entity: EntityDescription!

        init() {
            let entity = EntityDescription(name: "ObjectGraph.KeyPathProbe")
            entity.keyPathProbe = self
            self.entity = entity
        }

        func record(
            _ object: ManagedObject, key: String, wrapped: AnyKeyPath? = nil,
            valueType: Any.Type, _ marker: Marker
        ) {
            reads.append(
                Read(
                    object: ObjectIdentifier(object), key: key, wrapped: wrapped,
                    valueType: valueType, marker: marker))
        }

        func forgetReads() { reads.removeAll() }

        /// A new probe of `type`, reporting here.
        func probe(_ type: ManagedObject.Type) -> ManagedObject {
            type.init(entity: entity, insertInto: nil)
        }

        /// Breaks the entity's reference back to the recorder.
        func finish() {
            entity.keyPathProbe = nil
            entity = nil
        }
    }

    // Sendable: guarded by `lock`.
    nonisolated(unsafe) private static var cache: [AnyKeyPath: Resolution?] = [:]
    private static let lock = NSLock()

    /// What `keyPath`, whose root is `rootType`, reads; `nil` when it is not a chain of
    /// wrapped properties (optionally ending in `objectID`).
    ///
    /// Runs the key path once on a probe (and any getters it calls, on objects that have no
    /// context); the answer is cached per key path.
    static func resolve(_ keyPath: AnyKeyPath, rootType: ManagedObject.Type) -> Resolution? {
        lock.lock()
        let cached = cache[keyPath]
        lock.unlock()
        if let cached { return cached }
        let recorder = Recorder()
        defer { recorder.finish() }
        let root = recorder.probe(rootType)
        recorder.forgetReads()
        let result = root[keyPath: keyPath]
        let resolution = chain(recorder.reads, root: root, keyPath: keyPath, result: result)
        lock.lock()
        if cache.count >= 1024 { cache.removeAll() }
        cache[keyPath] = resolution
        lock.unlock()
        return resolution
    }

    private static func chain(
        _ reads: [Recorder.Read], root: ManagedObject, keyPath: AnyKeyPath, result: Any?
    ) -> Resolution? {
        var holder: ManagedObject = root
        var keys: [String] = []
        for (i, read) in reads.enumerated() {
            guard read.object == ObjectIdentifier(holder) else { return nil }
            keys.append(read.key)
            if i < reads.count - 1 {
                guard case .object(let next) = read.marker else { return nil }
                holder = next
            }
        }
        let value = result.flatMap(PredicateArgument.unwrap)
        if let id = value as? ManagedObjectID {
            guard reads.isEmpty || isObject(reads[reads.count - 1].marker) else { return nil }
            let last = reads.last.flatMap { read -> ManagedObject? in
                if case .object(let o) = read.marker { o } else { nil }
            }
            return id == (last ?? root).objectID ? .objectID(keys) : nil
        }
        guard let read = reads.last else { return nil }
        if reads.count == 1, let wrapped = read.wrapped, wrapped == keyPath {
            return .properties(keys)
        }
        switch read.marker {
        case .value(let marker):
            guard let value else { return nil }
            return (value as? any AttributeConvertible)?.attributeValue == marker
                ? .properties(keys) : nil
        case .object(let marker):
            return (value as? ManagedObject) === marker ? .properties(keys) : nil
        case .objects(let marker):
            let related = (value as? any RelationshipConvertible)?.relatedObjects ?? []
            return related.count == 1 && related[0] === marker ? .properties(keys) : nil
        case .none:
            // A wrapper with no marker for its type resolves only by its own key path (above):
            // a computed property of the same type that reads it is not the property.
            return nil
        }
    }

    private static func isObject(_ marker: Recorder.Marker) -> Bool {
        if case .object = marker { true } else { false }
    }

    // MARK: Markers

    /// Values no computed property is likely to produce from another, one per storable kind;
    /// the first that `Value` accepts is its marker.
    private static let markerCandidates: [AttributeValue] = [
        .string("\u{10FFFD}ObjectGraph key path probe"),
        .integer(24_301), .integer(94),
        .decimal(Decimal(string: "24301.0625")!), .double(24_301.0625), .float(2_430.0625),
        .date(Date(timeIntervalSinceReferenceDate: 24_301.0625)),
        .uuid(UUID(uuid: (0x0B, 0x1E, 0xC7, 0x9A, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0x5E, 0xED))),
        .uri(URL(string: "objectgraph-probe:marker")!), .data(Data([0x0B, 0x1E, 0xC7])),
        .boolean(true),
    ]

    /// The marker an ``Attribute`` returns to a probe (recorded with the read).
    static func attributeMarker<Value: AttributeConvertible>(
        _ object: ManagedObject, _ site: WrapperSite, _: Value.Type, wrapped: AnyKeyPath?
    ) -> Value {
        let recorder = object.entity.keyPathProbe as! Recorder
        let key = PropertyKeys.key(of: site, in: type(of: object))
        for candidate in markerCandidates {
            if let value = Value.fromAttributeValue(candidate) {
                recorder.record(
                    object, key: key, wrapped: wrapped, valueType: Value.self,
                    .value(value.attributeValue))
                return value
            }
        }
        recorder.record(object, key: key, wrapped: wrapped, valueType: Value.self, .none)
        return Value.fromAttributeValue(.null) ?? Value.nullValue
    }

    /// What a ``Transformable`` returns to a probe: no marker (a transformable value is the
    /// transformer's bytes, never compared as itself), so only a key path naming the property
    /// alone resolves; `nil` for an optional `Value`.
    ///
    /// - Precondition: `Value` has a ``placeholder(_:)``: a probe has no value of it to return.
    static func transformableMarker<Value>(
        _ object: ManagedObject, _ site: WrapperSite, _ wrapped: AnyKeyPath
    ) -> Value {
        let recorder = object.entity.keyPathProbe as! Recorder
        let key = PropertyKeys.key(of: site, in: type(of: object))
        recorder.record(object, key: key, wrapped: wrapped, valueType: Value.self, .none)
        guard let placeholder = placeholder(Value.self) else {
            preconditionFailure(
                "ObjectGraph: @Transformable \(key) of type \(Value.self) cannot be read by a key "
                    + "path probe (a Foundation predicate or sort descriptor); declare it optional")
        }
        return placeholder
    }

    /// A value of `Value` for a probe to hand back (never compared: the read's marker is
    /// `.none`): `nil`, an empty collection, a `Decodable` decoded
    /// from an empty JSON value, or all-zero bytes of a trivial type; `nil` when none fits.
    static func placeholder<Value>(_ type: Value.Type) -> Value? {
        if let none = type as? any ExpressibleByNilLiteral.Type {
            return none.init(nilLiteral: ()) as? Value
        }
        if let empty = type as? any RangeReplaceableCollection.Type {
            return empty.init() as? Value
        }
        if let empty = type as? any SetAlgebra.Type { return empty.init() as? Value }
        if let empty = type as? any ExpressibleByDictionaryLiteral.Type {
            return emptyDictionary(empty) as? Value
        }
        if let decodable = type as? any Decodable.Type {
            for json in ["{}", "[]", "\"\"", "0", "false"] {
                if let value = try? JSONDecoder().decode(decodable, from: Data(json.utf8)) as? Value
                {
                    return value
                }
            }
        }
        guard _isPOD(type) else { return nil }
        let size = MemoryLayout<Value>.size
        let raw = UnsafeMutableRawPointer.allocate(
            byteCount: max(size, 1), alignment: MemoryLayout<Value>.alignment)
        defer { raw.deallocate() }
        raw.initializeMemory(as: UInt8.self, repeating: 0, count: max(size, 1))
        return raw.load(as: Value.self)
    }

    private static func emptyDictionary<D: ExpressibleByDictionaryLiteral>(_: D.Type) -> D { [:] }

    /// What `primitiveValue(forKey:)` returns to a probe (a custom getter read by a key path):
    /// the string marker, recorded as a read of `key`. The property's type is unknown here
    /// (a probe's entity has no properties), so only a getter that casts the value to
    /// `String` hands the marker back unchanged and resolves; any other getter returns
    /// something else, and the key path does not resolve (rather than trapping on the key).
    static func primitiveMarker(_ object: ManagedObject, key: String, recorder: Recorder) -> Any? {
        let marker = markerCandidates[0]
        recorder.record(object, key: key, valueType: String.self, .value(marker))
        return String.fromAttributeValue(marker)
    }

    /// The marker a ``Relationship`` returns to a probe: a new probe of the destination
    /// class (alone in a collection for a to-many).
    static func relationshipMarker<Value: RelationshipConvertible>(
        _ object: ManagedObject, _ site: WrapperSite, _: Value.Type, wrapped: AnyKeyPath?
    ) -> Value {
        let recorder = object.entity.keyPathProbe as! Recorder
        let key = PropertyKeys.key(of: site, in: type(of: object))
        guard let type = (Value.self as? any RelatedObjectTyped.Type)?.relatedObjectType else {
            recorder.record(object, key: key, wrapped: wrapped, valueType: Value.self, .none)
            return Value.fromRelatedObjects([])
        }
        let marker = recorder.probe(type)
        recorder.record(
            object, key: key, wrapped: wrapped, valueType: Value.self,
            Value.isToMany ? .objects(marker) : .object(marker))
        return Value.fromRelatedObjects([marker])
    }
}

/// A relationship property type that knows its destination class.
protocol RelatedObjectTyped {
    static var relatedObjectType: ManagedObject.Type { get }
}

extension Optional: RelatedObjectTyped where Wrapped: ManagedObject {
    static var relatedObjectType: ManagedObject.Type { Wrapped.self }
}

extension Set: RelatedObjectTyped where Element: ManagedObject {
    static var relatedObjectType: ManagedObject.Type { Element.self }
}

extension Array: RelatedObjectTyped where Element: ManagedObject {
    static var relatedObjectType: ManagedObject.Type { Element.self }
}
