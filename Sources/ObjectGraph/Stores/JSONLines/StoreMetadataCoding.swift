import Foundation

/// Encodes and decodes a store's metadata dictionary as the header's `metadata` object
/// (<doc:StoreFileFormat#2-The-header-line-1>): strings, Booleans, integers, doubles, and
/// arrays and dictionaries of them.
enum StoreMetadataCoding {
    /// The compact JSON of `metadata`, keys sorted.
    ///
    /// - Throws: `.coreData` (134060) naming the key whose value is of another type.
    static func encode(_ metadata: [String: any Sendable]) throws -> [UInt8] {
        let w = JSONByteWriter(capacity: 256)
        try write(metadata, to: w, key: nil)
        return w.array
    }

    private static func write(_ value: any Sendable, to w: JSONByteWriter, key: String?) throws {
        switch value {
        case let v as Bool: w.append(ascii: v ? "true" : "false")
        case let v as String: w.append(quoted: v)
        case let v as Int: w.append(integer: Int64(v))
        case let v as Int64: w.append(integer: v)
        case let v as Int32: w.append(integer: Int64(v))
        case let v as Double where v.isFinite: AttributeValue.write(double: v, to: w)
        case let v as [any Sendable]:
            w.append(0x5B)
            for (i, element) in v.enumerated() {
                if i > 0 { w.append(0x2C) }
                try write(element, to: w, key: key)
            }
            w.append(0x5D)
        case let v as [String: any Sendable]:
            w.append(0x7B)
            for (i, (name, element)) in v.sorted(by: { $0.key < $1.key }).enumerated() {
                if i > 0 { w.append(0x2C) }
                w.append(quoted: name)
                w.append(0x3A)
                try write(element, to: w, key: key ?? name)
            }
            w.append(0x7D)
        default:
            throw ObjectGraphError(
                .invalidMetadata,
                "store metadata: the value of \(key ?? "the metadata") is a \(type(of: value)); "
                    + "metadata holds strings, Booleans, integers, finite doubles, arrays and "
                    + "dictionaries", key: key)
        }
    }

    /// The dictionary `bytes` (a JSON object) holds; integers as `Int`, other numbers as
    /// `Double`.
    static func decode(_ bytes: [UInt8]) -> [String: any Sendable] {
        guard case .object(let object)? = try? JSONParser.parse(Data(bytes)) else { return [:] }
        return object.mapValues(value)
    }

    private static func value(_ json: JSONValue) -> any Sendable {
        switch json {
        case .null: return Optional<String>.none as any Sendable
        case .bool(let b): return b
        case .number(let text):
            if let i = Int(text) { return i }
            return Double(text) ?? 0
        case .string(let s): return s
        case .array(let a): return a.map(value)
        case .object(let o): return o.mapValues(value)
        }
    }
}
