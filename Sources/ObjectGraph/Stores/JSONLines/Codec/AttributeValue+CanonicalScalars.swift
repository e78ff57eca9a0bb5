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
    ///
    /// The 32 digits are decoded eight at a time from 64-bit words (``hexWord(_:)``) and the
    /// UUID made from their 16 bytes in one copy (``uuid(first:last:)``).
    static func parseUUID(_ text: UnsafeRawBufferPointer) -> UUID? {
        guard text.count == 36, let base = text.baseAddress, text[8] == 0x2D, text[13] == 0x2D,
            text[18] == 0x2D, text[23] == 0x2D
        else {
            return nil
        }
        func word(_ offset: Int) -> UInt64 {
            UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
        func half(_ offset: Int) -> UInt64 {
            UInt64(
                UInt32(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        guard let a = hexWord(word(0)), let b = hexWord(half(9) | half(14) << 32),
            let c = hexWord(half(19) | half(24) << 32), let d = hexWord(word(28))
        else { return nil }
        return uuid(
            first: (UInt64(b) << 32 | UInt64(a)).littleEndian,
            last: (UInt64(d) << 32 | UInt64(c)).littleEndian)
    }

    /// The UUID whose 16 bytes are `first`'s eight in memory order, then `last`'s.
    ///
    /// `UUID` is a struct whose one stored property is its `uuid_t` (16 `UInt8`s), so the two
    /// words are its bytes as they are: a copy of 16 bytes, where `UUID(uuid:)` (not inlinable
    /// across the module) takes the 16 bytes as 16 arguments, ≈ 100 instructions a UUID. Should
    /// a toolchain's `UUID` ever hold anything but its 16 bytes, the size check (folded when
    /// compiled) falls back to `UUID(uuid:)`; the codec's tests compare the two bit for bit.
    @inline(__always)
    static func uuid(first: UInt64, last: UInt64) -> UUID {
        if MemoryLayout<UUID>.size == 16 {
            return unsafeBitCast((first, last), to: UUID.self)
        }
        var raw: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &raw) { out in
            out.storeBytes(of: first, as: UInt64.self)
            out.storeBytes(of: last, toByteOffset: 8, as: UInt64.self)
        }
        return UUID(uuid: raw)
    }

    /// The four bytes spelled by the eight hex digits (either case) in `w`, the first digit in
    /// its lowest byte, the first byte in the result's lowest; `nil` when a byte is not a hex
    /// digit. Branch-free: random digits would defeat the branch predictor.
    @inline(__always)
    static func hexWord(_ w: UInt64) -> UInt32? {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        // With every byte below 0x80, adding a constant below 0x80 carries into no other byte:
        // a byte's high bit then says whether it reached the constant's complement.
        guard w & high == 0 else { return nil }
        let isDigit = (w &+ ones &* (0x80 - 0x30)) & ~(w &+ ones &* (0x80 - 0x3A)) & high
        let folded = w | 0x2020_2020_2020_2020  // A–F → a–f; digits keep their value
        let isLetter =
            (folded &+ ones &* (0x80 - 0x61)) & ~(folded &+ ones &* (0x80 - 0x67)) & high
        guard isDigit | isLetter == high else { return nil }
        // Each byte's value: its low four bits, plus 9 for a letter ('a' & 0xF is 1).
        let nibbles = (w & 0x0F0F_0F0F_0F0F_0F0F) &+ (isLetter &>> 7) &* 9
        // Pairs of digits into bytes, then the bytes of the even lanes together.
        var v =
            ((nibbles &<< 4) & 0x00F0_00F0_00F0_00F0) | ((nibbles &>> 8) & 0x000F_000F_000F_000F)
        v = (v | v &>> 8) & 0x0000_FFFF_0000_FFFF
        v = (v | v &>> 16) & 0xFFFF_FFFF
        return UInt32(truncatingIfNeeded: v)
    }
}
