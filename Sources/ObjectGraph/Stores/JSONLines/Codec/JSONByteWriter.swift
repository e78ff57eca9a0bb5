import Foundation

/// A growable byte buffer that writes canonical JSON tokens fast: the encoder behind store
/// lines.
///
/// Strings are escaped by ``JSONEscaping``, so the output never contains a raw control
/// character, LF or U+2028/U+2029 (see <doc:StoreFileFormat#51-Strings>); numbers use their
/// shortest round-trip spelling. Not thread-safe: one writer per thread or behind a lock.
package final class JSONByteWriter {
    /// The buffer's state, behind a pointer: memory reached through a pointer is not checked
    /// for exclusive access at run time, as a class's stored `var`s are on every access
    /// (which cost more than the appends themselves).
    private struct State {
        var base: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var count: Int
        var spilled = 0
    }

    private let state: UnsafeMutablePointer<State>

    /// The buffer's first byte (internal, not private: the number spellings in
    /// `JSONByteWriter+Doubles.swift` write into it).
    var base: UnsafeMutablePointer<UInt8> {
        get { state.pointee.base }
        set { state.pointee.base = newValue }
    }

    private var capacity: Int {
        get { state.pointee.capacity }
        set { state.pointee.capacity = newValue }
    }

    /// The number of bytes in the buffer (after the ``spilled`` ones); internal for the same
    /// reason as ``base``.
    var used: Int {
        get { state.pointee.count }
        set { state.pointee.count = newValue }
    }

    /// The number of bytes written: the ``spilled`` ones and those in the buffer.
    package var count: Int { state.pointee.spilled &+ state.pointee.count }

    /// The number of bytes written and handed out by ``spillBuffered(_:)`` or counted by
    /// ``noteSpilled(_:)``: they are no longer in the buffer, which holds the bytes from this
    /// offset on (0 until a large line spills; ``reset(keepingCapacity:)`` sets it back).
    package var spilled: Int { state.pointee.spilled }

    /// Where a large transaction line's bytes go while it is encoded (see ``LineSpill``);
    /// `nil` (the default) keeps every byte in the buffer.
    var spill: LineSpill?

    /// An empty writer with room for `capacity` bytes.
    package init(capacity: Int = 4096) {
        let room = max(capacity, 64)
        // A cache line of its own: writers filled on different threads never share one.
        state = UnsafeMutableRawPointer.allocate(byteCount: 128, alignment: 128)
            .bindMemory(to: State.self, capacity: 1)
        state.initialize(to: State(base: .allocate(capacity: room), capacity: room, count: 0))
    }

    deinit {
        state.pointee.base.deallocate()
        state.deinitialize(count: 1)
        UnsafeMutableRawPointer(state).deallocate()
    }

    /// The bytes in the buffer: all bytes written unless some were ``spilled``, in which case
    /// the buffer starts at offset ``spilled``. Valid until the next write.
    package var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: used) }

    /// The bytes in the buffer (see ``bytes``), copied into an array.
    package var array: [UInt8] { Array(UnsafeBufferPointer(start: base, count: used)) }

    /// The bytes in the buffer (see ``bytes``), as a string.
    package var string: String {
        String(decoding: UnsafeBufferPointer(start: base, count: used), as: UTF8.self)
    }

    /// Forgets the written bytes; keeps up to `keepingCapacity` bytes of storage.
    package func reset(keepingCapacity limit: Int = 1 << 20) {
        used = 0
        state.pointee.spilled = 0
        if capacity > limit {
            base.deallocate()
            capacity = max(limit, 64)
            base = .allocate(capacity: capacity)
        }
    }

    /// Drops the bytes written after the first `length`; bytes already ``spilled`` stay
    /// counted (their owner cuts them off the file, see `LineSpill`).
    package func truncate(to length: Int) {
        used = min(used, max(0, length &- state.pointee.spilled))
    }

    /// Hands the buffered bytes to `body`, then empties the buffer; ``count`` is unchanged
    /// (the bytes count as ``spilled``). When `body` throws, nothing changes.
    func spillBuffered(_ body: (UnsafeRawBufferPointer) throws -> Void) rethrows {
        try body(bytes)
        state.pointee.spilled &+= used
        used = 0
    }

    /// Counts `length` bytes written elsewhere (straight to the spill) as written after the
    /// buffered ones, which must have been spilled first.
    func noteSpilled(_ length: Int) {
        precondition(used == 0, "JSONByteWriter: bytes noted as spilled after buffered bytes")
        state.pointee.spilled &+= length
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    package func reserve(_ extra: Int) {
        if used &+ extra > capacity { grow(used + extra) }
    }

    private func grow(_ needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        bigger.update(from: base, count: used)
        base.deallocate()
        base = bigger
        capacity = newCapacity
    }

    /// Appends one byte.
    @inline(__always)
    package func append(_ byte: UInt8) {
        reserve(1)
        base[used] = byte
        used &+= 1
    }

    /// Appends raw bytes.
    package func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        UnsafeMutableRawPointer(base + used).copyMemory(from: source, byteCount: bytes.count)
        used &+= bytes.count
    }

    /// Appends the bytes of an array.
    package func append(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    /// Appends ASCII text verbatim (no escaping): punctuation, keys known to need none.
    package func append(ascii text: StaticString) {
        append(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends a string's UTF-8 verbatim (no quotes, no escaping).
    package func append(raw text: String) {
        var text = text
        text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// How many bytes ``append(integer:)`` writes for `value` (its digits, and a minus sign
    /// when negative).
    package static func decimalLength(of value: Int64) -> Int {
        digitCount(value.magnitude) &+ (value < 0 ? 1 : 0)
    }

    /// The number of decimal digits of `value` (1 for 0), with no loop: its bit length times
    /// log10(2) (1233 / 4096) is the count or one less, told by one comparison with a power of
    /// ten (`powerOfTen(_:)`, a constant table; `value | 1` so that 0 counts one digit: it
    /// changes no comparison with an even power).
    @inline(__always)
    static func digitCount(_ value: UInt64) -> Int {
        let odd = value | 1
        let guess = ((64 &- odd.leadingZeroBitCount) &* 1233) &>> 12
        return guess &+ (odd >= powerOfTen(guess) ? 1 : 0)
    }

    /// Appends a signed integer in decimal.
    ///
    /// The digits are counted first (`digitCount(_:)`), then written from the last, two at a
    /// time from `decimalPairs`, straight into the buffer (no scratch copy): ≈ 80
    /// instructions a number in W1's doubles' integer parts, the call included. A value in
    /// 0–99 (a version, a small key, a small integer part) is written first, by one
    /// comparison: one byte, or one pair from `decimalPairs`, with no digit count.
    package func append(integer value: Int64) {
        reserve(20)
        var out = base + used
        if UInt64(bitPattern: value) < 100 {
            appendBelowHundred(Int(truncatingIfNeeded: value), at: out)
            return
        }
        var magnitude = value.magnitude
        if value < 0 {
            out.pointee = UInt8(ascii: "-")
            out += 1
        }
        let length = Self.digitCount(magnitude)
        let end = UnsafeMutableRawPointer(out + length)
        var offset = 0
        let pairs = decimalPairs
        while magnitude >= 100 {
            let quotient = magnitude / 100
            offset &-= 2
            end.storeBytes(
                of: pairs.loadUnaligned(
                    fromByteOffset: Int(truncatingIfNeeded: magnitude &- quotient &* 100) &<< 1,
                    as: UInt16.self),
                toByteOffset: offset, as: UInt16.self)
            magnitude = quotient
        }
        if magnitude >= 10 {
            end.storeBytes(
                of: pairs.loadUnaligned(
                    fromByteOffset: Int(truncatingIfNeeded: magnitude) &<< 1, as: UInt16.self),
                toByteOffset: offset &- 2, as: UInt16.self)
        } else {
            end.storeBytes(
                of: UInt8(truncatingIfNeeded: magnitude) &+ 0x30, toByteOffset: offset &- 1,
                as: UInt8.self)
        }
        out += length
        used = base.distance(to: out)
    }

    /// Writes `value` (0–99) at `out`, the buffer's end, with room reserved: one digit below
    /// 10, else its two digits from `decimalPairs`: no digit count, no division (W1's row
    /// heads and references: ≈ 38 → ≈ 29 instructions a call on average).
    @inline(__always)
    private func appendBelowHundred(_ value: Int, at out: UnsafeMutablePointer<UInt8>) {
        if value < 10 {
            out.pointee = UInt8(truncatingIfNeeded: value) &+ 0x30
            used &+= 1
        } else {
            UnsafeMutableRawPointer(out).storeBytes(
                of: decimalPairs.loadUnaligned(fromByteOffset: value &<< 1, as: UInt16.self),
                as: UInt16.self)
            used &+= 2
        }
    }

    /// Appends `value` as eight lowercase hexadecimal digits.
    package func append(hex32 value: UInt32) {
        reserve(8)
        for shift in stride(from: 28, through: 0, by: -4) {
            base[used] = hexDigits[Int((value >> UInt32(shift)) & 0xF)]
            used &+= 1
        }
    }

    /// Appends 16 bytes as an uppercase UUID string in quotes: `"XXXXXXXX-XXXX-…"`.
    ///
    /// Each byte's two digits are one 16-bit load from `uppercaseHexPairs` (a constant, not a
    /// lazily made table) and one store, at offsets the unrolled loop fixes.
    package func append(quotedUUID uuid: UUID) {
        reserve(38)
        let out = UnsafeMutableRawPointer(base + used)
        let pairs = uppercaseHexPairs
        withUnsafeBytes(of: uuid.uuid) { raw in
            /// Byte `k`'s two digits at `offset`.
            @inline(__always) func pair(_ k: Int, at offset: Int) {
                out.storeBytes(
                    of: pairs.loadUnaligned(fromByteOffset: Int(raw[k]) &<< 1, as: UInt16.self),
                    toByteOffset: offset, as: UInt16.self)
            }
            out.storeBytes(of: 0x22, as: UInt8.self)
            for offset in stride(from: 9, through: 24, by: 5) {
                out.storeBytes(of: 0x2D, toByteOffset: offset, as: UInt8.self)
            }
            for k in 0..<16 {
                // After the quote, two digits a byte and a dash before bytes 4, 6, 8 and 10.
                let dashes =
                    (k >= 4 ? 1 : 0) &+ (k >= 6 ? 1 : 0) &+ (k >= 8 ? 1 : 0) &+ (k >= 10 ? 1 : 0)
                pair(k, at: 1 &+ k &<< 1 &+ dashes)
            }
            out.storeBytes(of: 0x22, toByteOffset: 37, as: UInt8.self)
        }
        used &+= 38
    }

    /// Appends bytes as a quoted base64 string (RFC 4648 §4, padded).
    package func append(quotedBase64 data: Data) {
        append(0x22)
        data.base64EncodedData().withUnsafeBytes { append($0) }
        append(0x22)
    }

    /// Appends a string as a quoted, escaped JSON string.
    ///
    /// A native string's UTF-8 is read where it lies (no copy of the string to make it
    /// mutable for `withUTF8`); a string without contiguous UTF-8 (bridged) is made so first.
    package func append(quoted text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(quotedUTF8: $0) }) != nil { return }
        var text = text
        text.withUTF8 { append(quotedUTF8: $0) }
    }

    /// Appends UTF-8 bytes as a quoted, escaped JSON string.
    ///
    /// A string of eight bytes or more with none to escape (`appendPlainQuoted(_:count:)`)
    /// is copied a word at a time as it is checked; any other goes through the loop below,
    /// which copies runs between escapes.
    package func append(quotedUTF8 utf8: UnsafeBufferPointer<UInt8>) {
        let n = utf8.count
        reserve(n + 2)
        if n >= 8, let p = utf8.baseAddress, appendPlainQuoted(p, count: n) { return }
        base[used] = 0x22
        used &+= 1
        guard let p = utf8.baseAddress else {
            append(0x22)
            return
        }
        var runStart = 0
        var i = 0
        while i < n {
            // Eight bytes at a time while none needs escaping (no control, quote, backslash or 0xE2).
            while i &+ 8 <= n {
                if Self.mayNeedEscape(UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self)) {
                    break
                }
                i &+= 8
            }
            guard i < n else { break }
            let b = p[i]
            if b >= 0x20 && b != 0x22 && b != 0x5C && b != 0xE2 {
                i &+= 1
                continue
            }
            if b == 0xE2 {
                guard i + 2 < n, p[i + 1] == 0x80, p[i + 2] == 0xA8 || p[i + 2] == 0xA9 else {
                    i &+= 1
                    continue
                }
                append(UnsafeRawBufferPointer(start: p + runStart, count: i - runStart))
                append(
                    p[i + 2] == 0xA8 ? JSONEscaping.lineSeparator : JSONEscaping.paragraphSeparator)
                i &+= 3
                runStart = i
                continue
            }
            append(UnsafeRawBufferPointer(start: p + runStart, count: i - runStart))
            appendEscape(b)
            i &+= 1
            runStart = i
        }
        append(UnsafeRawBufferPointer(start: p + runStart, count: n - runStart))
        append(0x22)
    }

    /// Appends `"`, the `count` (≥ 8) bytes at `p` and `"` when no byte needs escaping, and
    /// returns `true`; returns `false` having counted nothing when one may (bytes past the
    /// buffer's count may then have been written over, which the caller's slower path writes
    /// again). The caller has reserved `count + 2` bytes.
    ///
    /// Each word is stored as soon as it is checked, and the last (partial) word is the one
    /// ending at the last byte, overlapping the one before: no byte loop and no `memcpy` call
    /// (≈ 60 instructions fewer for a string of 15 bytes than the loop below).
    @inline(__always)
    private func appendPlainQuoted(_ p: UnsafePointer<UInt8>, count n: Int) -> Bool {
        let source = UnsafeRawPointer(p)
        let out = UnsafeMutableRawPointer(base + used)
        let last = n &- 8
        var i = 0
        while i < last {
            let w = source.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            if Self.mayNeedEscape(w) { return false }
            out.storeBytes(of: w, toByteOffset: i &+ 1, as: UInt64.self)
            i &+= 8
        }
        let w = source.loadUnaligned(fromByteOffset: last, as: UInt64.self)
        if Self.mayNeedEscape(w) { return false }
        out.storeBytes(of: w, toByteOffset: last &+ 1, as: UInt64.self)
        out.storeBytes(of: 0x22, as: UInt8.self)
        out.storeBytes(of: 0x22, toByteOffset: n &+ 1, as: UInt8.self)
        used &+= n &+ 2
        return true
    }

    /// Whether any of the eight bytes of `w` is a control byte, a quote, a backslash or 0xE2
    /// (which may start U+2028 or U+2029): `false` only when none is (a byte after one that
    /// is may be counted too, which only sends the caller to its byte loop).
    @inline(__always)
    private static func mayNeedEscape(_ w: UInt64) -> Bool {
        let quote = w ^ 0x2222_2222_2222_2222
        let backslash = w ^ 0x5C5C_5C5C_5C5C_5C5C
        let e2 = w ^ 0xE2E2_E2E2_E2E2_E2E2
        let hits =
            ((quote &- lowBits) & ~quote) | ((backslash &- lowBits) & ~backslash)
            | ((e2 &- lowBits) & ~e2) | ((w &- lowBits &* 0x20) & ~w)
        return hits & 0x8080_8080_8080_8080 != 0
    }

    /// Appends the escape of an ASCII byte that needs one (see ``JSONEscaping``).
    private func appendEscape(_ b: UInt8) {
        append(JSONEscaping.ascii[Int(b)]!)
    }
}

extension JSONByteWriter: TextOutputStream {
    /// Appends a string's UTF-8 verbatim (TextOutputStream).
    package func write(_ string: String) { append(raw: string) }

    /// Appends ASCII bytes verbatim; `Double.write(to:)` calls this with its digits, sparing
    /// the `String` that `description` would build.
    package func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        append(UnsafeRawBufferPointer(buffer))
    }
}

private let lowBits: UInt64 = 0x0101_0101_0101_0101

/// Lowercase hexadecimal digits by value.
let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

/// The two ASCII decimal digits of 0–99, `n`'s at byte offset 2n: a constant in the binary
/// (a string literal's bytes), so reading it needs no lazy global's check (integers here, the
/// fraction digits of doubles in `JSONByteWriter+Doubles.swift`).
var decimalPairs: UnsafeRawPointer {
    let digits: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    return UnsafeRawPointer(digits.utf8Start)
}

/// The two uppercase hex digits of each byte, `b`'s at byte offset 2b: a constant like
/// `decimalPairs`.
private var uppercaseHexPairs: UnsafeRawPointer {
    let digits: StaticString = """
        000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F2021222324252627\
        28292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F404142434445464748494A4B4C4D4E4F\
        505152535455565758595A5B5C5D5E5F606162636465666768696A6B6C6D6E6F7071727374757677\
        78797A7B7C7D7E7F808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9F\
        A0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBFC0C1C2C3C4C5C6C7\
        C8C9CACBCCCDCECFD0D1D2D3D4D5D6D7D8D9DADBDCDDDEDFE0E1E2E3E4E5E6E7E8E9EAEBECEDEEEF\
        F0F1F2F3F4F5F6F7F8F9FAFBFCFDFEFF
        """
    return UnsafeRawPointer(digits.utf8Start)
}
