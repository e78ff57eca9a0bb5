import Foundation

/// The canonical encodings of floating-point numbers and UUIDs
/// (<doc:StoreFileFormat#5-Attribute-values>).
extension AttributeValue {
    static func write(double v: Double, to w: JSONByteWriter) {
        if v.isFinite {
            w.append(shortest: v)
        } else {
            writeNonFinite(v, isDefaultNaN: v.bitPattern == Double.nan.bitPattern, to: w) {
                w.append(hex32: UInt32(truncatingIfNeeded: v.bitPattern >> 32))
                w.append(hex32: UInt32(truncatingIfNeeded: v.bitPattern))
            }
        }
    }

    static func write(float v: Float, to w: JSONByteWriter) {
        if v.isFinite {
            w.append(shortest: v)
        } else {
            writeNonFinite(v, isDefaultNaN: v.bitPattern == Float.nan.bitPattern, to: w) {
                w.append(hex32: v.bitPattern)
            }
        }
    }

    /// `"NaN"`, `"NaN:0x…"` (the payload's bits, written by `payload`), `"Infinity"` or
    /// `"-Infinity"`.
    private static func writeNonFinite<F: BinaryFloatingPoint>(
        _ v: F, isDefaultNaN: Bool, to w: JSONByteWriter, payload: () -> Void
    ) {
        if v.isNaN {
            if isDefaultNaN {
                w.append(ascii: "\"NaN\"")
            } else {
                w.append(ascii: "\"NaN:0x")
                payload()
                w.append(0x22)
            }
        } else {
            w.append(ascii: v < 0 ? "\"-Infinity\"" : "\"Infinity\"")
        }
    }

    static func readDouble(_ s: inout JSONScanner) throws -> Double {
        guard s.peek() == 0x22 else { return try s.readDouble() }
        return try readNonFinite(&s, hexDigits: 16) { Double(bitPattern: $0) }
    }

    static func readFloat(_ s: inout JSONScanner) throws -> Float {
        guard s.peek() == 0x22 else { return try s.float(s.readNumber()) }
        return try readNonFinite(&s, hexDigits: 8) { Float(bitPattern: UInt32($0)) }
    }

    /// A non-finite value spelled as a tagged string; `bits` makes a NaN from its payload.
    private static func readNonFinite<F: BinaryFloatingPoint>(
        _ s: inout JSONScanner, hexDigits: Int, bits: (UInt64) -> F
    ) throws -> F {
        let start = s.position
        guard let tag = try readTag(&s, hexDigits: hexDigits) else {
            throw JSONScanError(
                offset: start, message: "expected a number, \"NaN\", \"Infinity\" or \"-Infinity\"")
        }
        switch tag {
        case .nan: return .nan
        case .infinity(let negative): return negative ? -.infinity : .infinity
        case .payload(let p):
            let v = bits(p)
            guard v.isNaN else {
                throw JSONScanError(
                    offset: start, message: "NaN:0x… does not hold a NaN bit pattern")
            }
            return v
        }
    }

    private enum Tag {
        case nan
        case infinity(negative: Bool)
        case payload(UInt64)
    }

    private static func readTag(_ s: inout JSONScanner, hexDigits count: Int) throws -> Tag? {
        let bytes = try s.readStringBytes()
        if bytes.elementsEqual("NaN".utf8) { return .nan }
        if bytes.elementsEqual("Infinity".utf8) { return .infinity(negative: false) }
        if bytes.elementsEqual("-Infinity".utf8) { return .infinity(negative: true) }
        guard bytes.count == 6 + count, bytes.starts(with: "NaN:0x".utf8) else { return nil }
        var v: UInt64 = 0
        for b in bytes[6...] {
            guard b < 0x41 || b > 0x46, let d = hexValue(b) else { return nil }  // lowercase only
            v = v << 4 | UInt64(d)
        }
        return .payload(v)
    }

    static func readUUID(_ s: inout JSONScanner) throws -> UUID {
        s.skipSpace()
        // The usual case: `"` + 36 characters + `"`; a valid UUID's text needs no unescaping.
        if s.position &+ 38 <= s.end, s.p[s.position] == 0x22, s.p[s.position &+ 37] == 0x22,
            let uuid = parseUUID(UnsafeRawBufferPointer(start: s.p + (s.position &+ 1), count: 36))
        {
            s.position &+= 38
            return uuid
        }
        let start = s.position
        var scratch: [UInt8] = []
        let range = try s.readStringRange(scratch: &scratch)
        let parsed =
            range.map { parseUUID(s.bytes(in: $0)) } ?? scratch.withUnsafeBytes { parseUUID($0) }
        guard let uuid = parsed else {
            throw JSONScanError(offset: start, message: "not a UUID (8-4-4-4-12 hex digits)")
        }
        return uuid
    }

    /// Parses `XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX` (either case).
    static func parseUUID(_ text: UnsafeRawBufferPointer) -> UUID? {
        guard text.count == 36, text[8] == 0x2D, text[13] == 0x2D, text[18] == 0x2D,
            text[23] == 0x2D
        else {
            return nil
        }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        // Branch-free: random hex digits would defeat the branch predictor.
        let invalid = hexTable.withUnsafeBufferPointer { table in
            withUnsafeMutableBytes(of: &raw) { out -> UInt8 in
                var bad: UInt8 = 0
                var i = 0
                for k in 0..<16 {
                    if i == 8 || i == 13 || i == 18 || i == 23 { i &+= 1 }
                    let hi = table[Int(text[i])]
                    let lo = table[Int(text[i &+ 1])]
                    bad |= hi | lo
                    out[k] = hi &<< 4 | (lo & 0xF)
                    i &+= 2
                }
                return bad & 0xF0
            }
        }
        return invalid == 0 ? UUID(uuid: raw) : nil
    }
}

/// Hex digit values by byte (either case); 0xFF for every other byte.
private let hexTable: [UInt8] = (0..<256).map { hexValue(UInt8($0)) ?? 0xFF }
