import Foundation

/// Why a JSON text did not scan: what was wrong, at which byte offset of the scanned range.
package struct JSONScanError: Error, Sendable, CustomStringConvertible {
    /// The 0-based byte offset in the scanned range.
    package let offset: Int
    /// What is wrong, e.g. `expected ',' or ']'`.
    package let message: String

    /// An error at `offset` saying `message`.
    package init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// `message at byte N` (1-based).
    package var description: String { "\(message) at byte \(offset + 1)" }
}

/// A forward-only scanner over UTF-8 JSON bytes, strict to RFC 8259: the reader behind
/// store lines. Allocates only for the strings it returns.
///
/// The scanned memory must outlive the scanner (use it inside `withUnsafeBytes`).
package struct JSONScanner {
    let p: UnsafePointer<UInt8>
    /// The current offset.
    package var position: Int
    /// The offset just past the last byte to scan.
    package let end: Int

    /// A scanner over `bytes`.
    package init(_ bytes: UnsafeRawBufferPointer) {
        // A non-nil pointer even for an empty range keeps every access simple.
        self.p =
            bytes.baseAddress.map { $0.assumingMemoryBound(to: UInt8.self) } ?? emptyBytePointer
        self.position = 0
        self.end = bytes.count
    }

    /// Whether every byte has been consumed.
    package var isAtEnd: Bool { position >= end }

    /// An error at the current position.
    package func error(_ message: String) -> JSONScanError {
        JSONScanError(offset: position, message: message)
    }

    /// Skips spaces and tabs (a line never holds other whitespace).
    ///
    /// Inlined at every token: the usual case, a byte above 0x20 (no space before the token),
    /// is told by one compare before the loop that tells spaces from tabs.
    @inline(__always)
    package mutating func skipSpace() {
        guard position < end, p[position] <= 0x20 else { return }
        while position < end, p[position] == 0x20 || p[position] == 0x09 { position &+= 1 }
    }

    /// The next non-space byte, without consuming it; `nil` at the end.
    @inline(__always)
    package mutating func peek() -> UInt8? {
        skipSpace()
        return position < end ? p[position] : nil
    }

    /// Consumes `byte` if it comes next (after spaces).
    @inline(__always)
    package mutating func consume(_ byte: UInt8) -> Bool {
        skipSpace()
        guard position < end, p[position] == byte else { return false }
        position &+= 1
        return true
    }

    /// Consumes `byte` or throws, naming what was expected.
    @inline(__always)
    package mutating func expect(_ byte: UInt8) throws {
        guard consume(byte) else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))'\(foundText)")
        }
    }

    /// `, found 'x'` or `, found the end of the line`, for messages.
    package var foundText: String {
        guard position < end else { return ", found the end of the line" }
        let b = p[position]
        return b >= 0x20 && b < 0x7F
            ? ", found '\(Character(Unicode.Scalar(b)))'" : String(format: ", found byte 0x%02x", b)
    }

    /// Consumes `null` if it comes next.
    ///
    /// Inlined, and the four bytes compared as one word: asked before nearly every value, it
    /// cost ≈ 25 instructions a call as a function comparing byte by byte.
    @inline(__always)
    package mutating func consumeNull() -> Bool {
        skipSpace()
        // In bounds: four bytes from `position` lie before `end`.
        guard end &- position >= 4,
            UInt32(littleEndian: UnsafeRawPointer(p + position).loadUnaligned(as: UInt32.self))
                == 0x6C6C_756E  // "null", its first byte lowest
        else { return false }
        position &+= 4
        return true
    }

    /// Reads `true` or `false`.
    package mutating func readBool() throws -> Bool {
        skipSpace()
        if end - position >= 4, p[position] == 0x74, p[position + 1] == 0x72,
            p[position + 2] == 0x75,
            p[position + 3] == 0x65
        {
            position &+= 4
            return true
        }
        if end - position >= 5, p[position] == 0x66, p[position + 1] == 0x61,
            p[position + 2] == 0x6C,
            p[position + 3] == 0x73, p[position + 4] == 0x65
        {
            position &+= 5
            return false
        }
        throw error("expected true or false\(foundText)")
    }

    /// Calls `body` for each element of an array, positioned at the element.
    package mutating func forEachElement(_ body: (inout JSONScanner) throws -> Void) throws {
        try expect(0x5B)
        if consume(0x5D) { return }
        repeat { try body(&self) } while consume(0x2C)
        guard consume(0x5D) else { throw error("expected ',' or ']'\(foundText)") }
    }

    /// Calls `body` with each member's key, positioned at its value; rejects duplicate keys.
    package mutating func forEachMember(_ body: (String, inout JSONScanner) throws -> Void) throws {
        try expect(0x7B)
        if consume(0x7D) { return }
        var seen: Set<String> = []
        repeat {
            let start = position
            let key = try readString()
            guard seen.insert(key).inserted else {
                throw JSONScanError(offset: start, message: "duplicate member \"\(key)\"")
            }
            try expect(0x3A)
            try body(key, &self)
        } while consume(0x2C)
        guard consume(0x7D) else { throw error("expected ',' or '}'\(foundText)") }
    }

    /// Skips one value of any kind, checking its syntax; returns the byte range it spanned.
    @discardableResult
    package mutating func skipValue() throws -> Range<Int> {
        skipSpace()
        let start = position
        guard position < end else { throw error("expected a value, found the end of the line") }
        switch p[position] {
        case 0x7B: try forEachMember { _, s in try s.skipValue() }
        case 0x5B: try forEachElement { s in try s.skipValue() }
        case 0x22: _ = try readString()
        case 0x74, 0x66: _ = try readBool()
        case 0x6E: guard consumeNull() else { throw error("expected a value\(foundText)") }
        default: _ = try readNumber()
        }
        return start..<position
    }

    /// The bytes in `range`, which must lie within the scanned memory.
    package func bytes(in range: Range<Int>) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: p + range.lowerBound, count: range.count)
    }
}

// Sendable: written once by its initializer and never mutated; it is only compared, never read.
nonisolated(unsafe) private let emptyBytePointer: UnsafePointer<UInt8> = {
    let p = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    p.initialize(to: 0)
    return UnsafePointer(p)
}()
