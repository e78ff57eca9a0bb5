import Foundation

extension JSONScanner {
    /// Reads a JSON string: escapes decoded, UTF-8 validated, raw control characters refused.
    package mutating func readString() throws -> String {
        let (start, stop, escaped, ascii) = try scanString()
        if ascii { return asciiString(from: p + start, count: stop - start) }
        if !escaped {
            guard
                let s = String(
                    validating: UnsafeBufferPointer(start: p + start, count: stop - start),
                    as: UTF8.self)
            else {
                throw JSONScanError(offset: start, message: "string is not valid UTF-8")
            }
            return s
        }
        let bytes = try unescape(start..<stop)
        guard let s = String(validating: bytes, as: UTF8.self) else {
            throw JSONScanError(offset: start, message: "string is not valid UTF-8")
        }
        return s
    }

    /// Makes a `String` of `count` bytes at `base` that are known to be ASCII.
    ///
    /// Up to fifteen bytes (the small form's capacity on 64-bit platforms) are copied straight
    /// into the string's inline storage, which costs ≈ 90 instructions where
    /// `String(decoding:as:)`'s repairing path costs ≈ 190–230; longer strings keep
    /// `String(decoding:as:)`, which is the cheaper of the two once storage is allocated.
    /// Either way the string is validated by the standard library and equal, byte for byte,
    /// to the one `String(decoding:as:)` makes.
    ///
    /// - Precondition: the `count` bytes at `base` are initialized and all below 0x80.
    @inline(__always)
    private func asciiString(from base: UnsafePointer<UInt8>, count: Int) -> String {
        guard count <= 15 else {
            return String(decoding: UnsafeBufferPointer(start: base, count: count), as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: count) { buffer in
            UnsafeMutableRawBufferPointer(buffer).copyMemory(
                from: UnsafeRawBufferPointer(start: base, count: count))
            return count
        }
    }

    /// Reads a JSON string and returns its decoded UTF-8 bytes (for base64 and tagged values).
    package mutating func readStringBytes() throws -> [UInt8] {
        let (start, stop, escaped, _) = try scanString()
        if escaped { return try unescape(start..<stop) }
        return Array(UnsafeBufferPointer(start: p + start, count: stop - start))
    }

    /// Reads a string whose raw bytes need no unescaping, returning their range; strings
    /// with escapes are decoded into `scratch` and the range is `nil`.
    package mutating func readStringRange(scratch: inout [UInt8]) throws -> Range<Int>? {
        let (start, stop, escaped, _) = try scanString()
        guard escaped else { return start..<stop }
        scratch = try unescape(start..<stop)
        return nil
    }

    /// Finds the string's content bounds, whether it holds escapes, and whether it is plain
    /// ASCII (no escapes, no byte above 0x7F); consumes it.
    private mutating func scanString() throws -> (Int, Int, Bool, Bool) {
        skipSpace()
        guard position < end, p[position] == 0x22 else {
            throw error("expected a string\(foundText)")
        }
        let open = position
        position &+= 1
        let start = position
        var escaped = false
        var high: UInt64 = 0
        while true {
            // Eight bytes at a time while none is a quote, a backslash or a control byte.
            while position &+ 8 <= end {
                let w = UInt64(
                    littleEndian: UnsafeRawPointer(p + position).loadUnaligned(as: UInt64.self))
                let quote = w ^ 0x2222_2222_2222_2222
                let backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
                let special =
                    ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)
                    | ((w &- ones &* 0x20) & ~w)
                let hits = special & highBits
                if hits != 0 {
                    // Straight to the first hit (the lowest flagged byte always is one), the
                    // bytes before it taken into the ASCII test.
                    let skipped = hits.trailingZeroBitCount &>> 3
                    high |= w & ((1 &<< UInt64(skipped &* 8)) &- 1)
                    position &+= skipped
                    break
                }
                high |= w
                position &+= 8
            }
            guard position < end else { break }
            let b = p[position]
            high |= UInt64(b)
            if b == 0x22 {
                position &+= 1
                return (start, position &- 1, escaped, !escaped && high & highBits == 0)
            }
            if b == 0x5C {
                escaped = true
                position &+= 2
                continue
            }
            if b < 0x20 {
                throw error(String(format: "raw control character 0x%02x in a string", b))
            }
            position &+= 1
        }
        throw JSONScanError(offset: open, message: "unterminated string")
    }

    private func unescape(_ range: Range<Int>) throws -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let b = p[i]
            guard b == 0x5C else {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < range.upperBound else {
                throw JSONScanError(offset: i, message: "unfinished escape")
            }
            let e = p[i + 1]
            i += 2
            switch e {
            case 0x22, 0x5C, 0x2F: out.append(e)
            case 0x62: out.append(0x08)
            case 0x66: out.append(0x0C)
            case 0x6E: out.append(0x0A)
            case 0x72: out.append(0x0D)
            case 0x74: out.append(0x09)
            case 0x75:
                var scalar = try hex4(at: i, limit: range.upperBound)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard i + 6 <= range.upperBound, p[i] == 0x5C, p[i + 1] == 0x75,
                        case let low = try hex4(at: i + 2, limit: range.upperBound),
                        (0xDC00...0xDFFF).contains(low)
                    else {
                        throw JSONScanError(offset: i - 6, message: "lone surrogate in \\u escape")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw JSONScanError(offset: i - 6, message: "lone surrogate in \\u escape")
                }
                out.append(contentsOf: String(Character(Unicode.Scalar(scalar)!)).utf8)
            default:
                throw JSONScanError(
                    offset: i - 2, message: "invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        return out
    }

    private func hex4(at i: Int, limit: Int) throws -> UInt32 {
        guard i + 4 <= limit else {
            throw JSONScanError(offset: i, message: "\\u needs four hex digits")
        }
        var v: UInt32 = 0
        for k in 0..<4 {
            guard let d = hexValue(p[i + k]) else {
                throw JSONScanError(offset: i + k, message: "\\u needs four hex digits")
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }
}

private let ones: UInt64 = 0x0101_0101_0101_0101
private let highBits: UInt64 = 0x8080_8080_8080_8080

/// The value of an ASCII hexadecimal digit (either case), or `nil`.
@inline(__always)
func hexValue(_ b: UInt8) -> UInt8? {
    let digit = b &- 0x30
    if digit < 10 { return digit }
    let letter = (b | 0x20) &- 0x61
    return letter < 6 ? letter &+ 10 : nil
}
