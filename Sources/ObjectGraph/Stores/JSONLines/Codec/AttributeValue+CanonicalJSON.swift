import Foundation

extension AttributeValue {
    /// The value's canonical JSON text for an attribute of `type`, as store files hold it.
    ///
    /// Integers are numbers; decimals strings with every digit (`"12.50"` → `"12.5"`); doubles,
    /// floats and dates (seconds since 2001-01-01T00:00:00Z, `Date`'s own reference, so every
    /// date comes back bit for bit) their shortest round-trip number, or a tagged
    /// string for what JSON cannot hold (`"NaN"`, `"Infinity"`, `"-Infinity"`,
    /// `"NaN:0x7ff8000000000001"`); data and transformable payloads base64; UUIDs uppercase;
    /// URLs their absolute string; strings escaped so a line is never broken. See
    /// <doc:StoreFileFormat#5-Attribute-values>.
    ///
    /// ```swift
    /// try AttributeValue.double(-0.0).canonicalJSON(as: .double)   // "-0.0"
    /// ```
    ///
    /// - Throws: ``ObjectGraphError`` ``ObjectGraphError/Reason/valueTypeMismatch`` (134060)
    ///   when the value does not fit `type`.
    public func canonicalJSON(as type: AttributeType) throws -> String {
        let writer = JSONByteWriter(capacity: 64)
        guard writeCanonicalJSON(as: type, to: writer) else {
            throw StoreFileErrors.valueMismatch(self, type)
        }
        return writer.string
    }

    /// Reads a value of `type` from its canonical JSON text (see ``canonicalJSON(as:)``).
    ///
    /// - Throws: ``ObjectGraphError`` ``ObjectGraphError/Reason/invalidValueText`` (134060)
    ///   naming the column of the problem
    ///   when the text is not a valid encoding of a `type` value.
    public init(canonicalJSON text: String, as type: AttributeType) throws {
        var text = text
        self = try text.withUTF8 { utf8 in
            var scanner = JSONScanner(UnsafeRawBufferPointer(utf8))
            do {
                let value = try AttributeValue.readCanonicalJSON(as: type, from: &scanner)
                scanner.skipSpace()
                guard scanner.isAtEnd else {
                    throw scanner.error("unexpected text after the value")
                }
                return value
            } catch let e as JSONScanError {
                throw StoreFileErrors.invalidValueText(
                    e.message, type: type, column: e.offset + 1)
            }
        }
    }

    /// Appends the canonical JSON of this value for an attribute of `type`; returns `false`
    /// (writing nothing) when the value does not fit the type.
    package func writeCanonicalJSON(as type: AttributeType, to w: JSONByteWriter) -> Bool {
        // `switch self` alone (not a tuple with `type`) avoids copying the payload.
        switch self {
        case .null: w.append(ascii: "null")
        case .integer(let v):
            guard type.integerRange?.contains(v) == true else { return false }
            w.append(integer: v)
        case .decimal(let v):
            guard type == .decimal else { return false }
            w.append(0x22)
            DecimalText.write(v, to: w)
            w.append(0x22)
        case .double(let v):
            guard type == .double else { return false }
            Self.write(double: v, to: w)
        case .float(let v):
            guard type == .float else { return false }
            Self.write(float: v, to: w)
        case .string(let v):
            guard type == .string else { return false }
            w.append(quoted: v)
        case .boolean(let v):
            guard type == .boolean else { return false }
            w.append(ascii: v ? "true" : "false")
        case .date(let v):
            guard type == .date else { return false }
            Self.write(double: v.timeIntervalSinceReferenceDate, to: w)
        case .data(let v):
            guard type == .binaryData else { return false }
            w.append(quotedBase64: v)
        case .transformable(let v):
            guard type == .transformable else { return false }
            w.append(quotedBase64: v)
        case .uuid(let v):
            guard type == .uuid else { return false }
            w.append(quotedUUID: v)
        case .uri(let v):
            guard type == .uri else { return false }
            w.append(quoted: v.absoluteString)
        }
        return true
    }

    /// Reads the canonical JSON of a value of `type` at the scanner's position.
    package static func readCanonicalJSON(as type: AttributeType, from s: inout JSONScanner) throws
        -> AttributeValue
    {
        if s.consumeNull() { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let start = s.position
            let v = try s.readInt64()
            guard type.integerRange!.contains(v) else {
                throw JSONScanError(offset: start, message: "\(v) does not fit \(type.rawValue)")
            }
            return .integer(v)
        case .decimal:
            let start = s.position
            var scratch: [UInt8] = []
            let range = try s.readStringRange(scratch: &scratch)
            let parsed =
                range.map { DecimalText.parse(s.bytes(in: $0)) }
                ?? scratch.withUnsafeBytes { DecimalText.parse($0) }
            guard let v = parsed else {
                throw JSONScanError(offset: start, message: "not a decimal number")
            }
            return .decimal(v)
        case .double: return .double(try readDouble(&s))
        case .float: return .float(try readFloat(&s))
        case .string: return .string(try s.readString())
        case .boolean: return .boolean(try s.readBool())
        case .date: return .date(Date(timeIntervalSinceReferenceDate: try readDouble(&s)))
        case .binaryData, .transformable:
            let start = s.position
            guard let data = Data(base64Encoded: Data(try s.readStringBytes())) else {
                throw JSONScanError(offset: start, message: "not valid base64")
            }
            return type == .binaryData ? .data(data) : .transformable(data)
        case .uuid: return .uuid(try readUUID(&s))
        case .uri:
            let start = s.position
            guard let url = URL(string: try s.readString()) else {
                throw JSONScanError(offset: start, message: "not a valid URL")
            }
            return .uri(url)
        case .undefined, .objectID:
            throw s.error("attributes of type \(type.rawValue) are never stored")
        }
    }
}
