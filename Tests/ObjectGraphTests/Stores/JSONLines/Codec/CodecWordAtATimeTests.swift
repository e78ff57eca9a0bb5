import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The codec's word-at-a-time paths (issue 25, thirteenth session: a UUID's 32 hex digits
/// decoded from four 64-bit words, a string's end found inside its last word) give back
/// exactly what the paths they replace give: every value bit for bit, every refusal with the
/// same message at the same byte.
@Suite struct CodecWordAtATimeTests {
    private func scan<T>(_ text: String, _ body: (inout JSONScanner) throws -> T) throws -> (
        T, Int
    ) {
        var text = text
        return try text.withUTF8 { utf8 in
            var s = JSONScanner(UnsafeRawBufferPointer(utf8))
            let v = try body(&s)
            return (v, s.position)
        }
    }

    private func scanError(_ text: String, _ body: (inout JSONScanner) throws -> Void)
        -> JSONScanError?
    {
        do {
            _ = try scan(text, body)
            return nil
        } catch {
            return error as? JSONScanError
        }
    }

    /// The error reading a string from raw `bytes` (which need not be valid UTF-8) throws.
    static func stringError(_ bytes: [UInt8]) -> JSONScanError? {
        bytes.withUnsafeBytes { raw -> JSONScanError? in
            var s = JSONScanner(raw)
            do {
                _ = try s.readString()
                return nil
            } catch { return error as? JSONScanError }
        }
    }

    @Test func uuidsDecodedWordAtATimeMatchTheDigitByDigitParse() {
        var random = SeededRandomNumberGenerator(seed: 1314)
        let hex = Array("0123456789abcdefABCDEF".utf8)
        // Bytes at the edges of the digit and letter ranges, and beyond ASCII.
        let near: [UInt8] = [
            0x2F, 0x3A, 0x40, 0x47, 0x60, 0x67, 0x00, 0x20, 0x7F, 0x80, 0xC6, 0xE6, 0xFF, 0x2D,
        ]
        for round in 0..<30_000 {
            var bytes = (0..<36).map { _ in hex[Int(random.next() % UInt64(hex.count))] }
            for dash in [8, 13, 18, 23] { bytes[dash] = 0x2D }
            if round % 2 == 1 {
                let at = Int(random.next() % 36)
                bytes[at] =
                    random.next() % 2 == 0
                    ? near[Int(random.next() % UInt64(near.count))]
                    : UInt8(truncatingIfNeeded: random.next())
            }
            let parsed = bytes.withUnsafeBytes { AttributeValue.parseUUID($0) }
            let expected = digitByDigit(bytes)
            #expect(parsed == expected, "\(bytes)")
            // Foundation's parser is laxer (it lets spaces and control bytes through), so it
            // is the reference for valid spellings only.
            if let expected {
                #expect(UUID(uuidString: String(decoding: bytes, as: UTF8.self)) == expected)
            }
        }
    }

    /// A UUID made from its two 64-bit words in one copy (issue 25, twenty-third session) is
    /// the one `UUID(uuid:)` makes from the same 16 bytes: equal, same string, same hash.
    @Test func uuidsMadeFromTheirTwoWordsEqualTheOnesMadeFromTheirBytes() {
        var random = SeededRandomNumberGenerator(seed: 2323)
        var pairs: [(UInt64, UInt64)] = [(0, 0), (~0, ~0), (1, 0), (0, 1 << 63), (~0, 0)]
        for bit in 0..<64 { pairs += [(1 << UInt64(bit), 0), (0, 1 << UInt64(bit))] }
        for _ in 0..<5_000 { pairs.append((random.next(), random.next())) }
        for (first, last) in pairs {
            var bytes = [UInt8](repeating: 0, count: 16)
            bytes.withUnsafeMutableBytes { out in
                out.storeBytes(of: first, as: UInt64.self)
                out.storeBytes(of: last, toByteOffset: 8, as: UInt64.self)
            }
            let expected = UUID(
                uuid: (
                    bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                    bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14],
                    bytes[15]
                ))
            let made = AttributeValue.uuid(first: first, last: last)
            #expect(made == expected && made.uuidString == expected.uuidString, "\(bytes)")
            #expect(made.hashValue == expected.hashValue)
        }
    }

    /// Every byte at every digit's place, in a UUID of either case: a hex digit reads as the
    /// digit-by-digit parse reads it, anything else is refused, and read from a line the
    /// refusal is the same message at the string's first byte.
    @Test func everyByteAtEveryDigitReadsOrIsRefusedAsTheDigitByDigitParse() {
        let places = (0..<36).filter { ![8, 13, 18, 23].contains($0) }
        for spelling in [
            "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0", "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0",
        ] {
            for at in places {
                for byte in UInt8.min...UInt8.max {
                    var bytes = Array(spelling.utf8)
                    bytes[at] = byte
                    let parsed = bytes.withUnsafeBytes { AttributeValue.parseUUID($0) }
                    let expected = digitByDigit(bytes)
                    #expect(parsed == expected, "\(byte) at \(at) of \(spelling)")
                    #expect((expected != nil) == (hexValue(byte) != nil), "\(byte) at \(at)")
                    // A printable ASCII byte that is no quote or backslash leaves the string
                    // well-formed, so the refusal is the UUID's own.
                    guard expected == nil, byte >= 0x20, byte < 0x7F, byte != 0x22, byte != 0x5C
                    else { continue }
                    let line = "\"" + String(decoding: bytes, as: UTF8.self) + "\",1"
                    let e = scanError(line) { s in _ = try AttributeValue.readUUID(&s) }
                    #expect(
                        e?.offset == 0 && e?.message == "not a UUID (8-4-4-4-12 hex digits)",
                        "\(line)")
                }
            }
        }
    }

    /// The parse the word-at-a-time one replaced: a digit at a time, either case.
    private func digitByDigit(_ text: [UInt8]) -> UUID? {
        guard text.count == 36, [8, 13, 18, 23].allSatisfy({ text[$0] == 0x2D }) else {
            return nil
        }
        let digits = text.enumerated().filter { ![8, 13, 18, 23].contains($0.offset) }
        var bytes = [UInt8]()
        for k in stride(from: 0, to: 32, by: 2) {
            guard let hi = hexValue(digits[k].element), let lo = hexValue(digits[k + 1].element)
            else { return nil }
            bytes.append(hi << 4 | lo)
        }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    @Test func stringsEndAndFailAtTheSameByteWhereverTheyFallInAWord() throws {
        var random = SeededRandomNumberGenerator(seed: 1315)
        let pieces = ["a", "Z", " ", "é", "€", "😀", "\"", "\\", "\n", "\u{1}", "/", "\u{2028}"]
        for _ in 0..<20_000 {
            let text = (0..<Int(random.next() % 24)).map { _ in
                pieces[Int(random.next() % UInt64(pieces.count))]
            }.joined()
            let w = JSONByteWriter(capacity: 64)
            let lead = Int(random.next() % 9)
            w.append(raw: String(repeating: " ", count: lead))
            w.append(quoted: text)
            let quoted = w.string
            let (read, end) = try scan(quoted + ",1") { try $0.readString() }
            #expect(read == text && end == quoted.utf8.count, "\(quoted)")
        }
        // A raw control byte, and an unterminated string, at every offset within a word.
        for k in 0..<20 {
            let body = String(repeating: "x", count: k)
            let e = scanError("\"\(body)\u{1}yyyyyyyyyy\"") { _ = try $0.readString() }
            #expect(e?.offset == k + 1 && e?.message == "raw control character 0x01 in a string")
            let open = scanError("\"\(body)") { _ = try $0.readString() }
            #expect(open?.offset == 0 && open?.message == "unterminated string")
        }
        // Invalid UTF-8 after ASCII words is refused at the string's first byte, as before.
        let e = Self.stringError(
            Array("\"abcdefghijklmnop".utf8) + [0xC3, 0x28] + Array("qrstuvwxyz\"".utf8))
        #expect(e?.offset == 1 && e?.message == "string is not valid UTF-8")
    }

    /// Invalid UTF-8 in a string's last word, right before the closing quote, is refused at the
    /// string's first byte wherever the word boundary falls: the bytes the scanner skips to
    /// reach the quote still count in its ASCII test. (The lead's review of `codec`: with
    /// those bytes left out, `"abcdefgh\u{C3}("` read as a repaired string.)
    @Test func invalidUTF8RightBeforeTheClosingQuoteIsRefusedAtEveryAlignment() {
        for bad: [UInt8] in [[0xC3, 0x28], [0xFF], [0xE2, 0x82], [0x80]] {
            for lead in 0..<16 {
                for tail in ["", ",1", ",12345678901234567"] {
                    let e = Self.stringError(
                        [0x22] + Array(String(repeating: "x", count: lead).utf8) + bad + [0x22]
                            + Array(tail.utf8))
                    #expect(
                        e?.offset == 1 && e?.message == "string is not valid UTF-8",
                        "\(bad) after \(lead) bytes, then \(tail)")
                }
            }
        }
    }

    /// `null` is told by one four-byte compare: taken only when all four bytes spell it (after
    /// spaces), never at a line's end with fewer than four bytes left, the position unmoved
    /// otherwise; a value read after a refusal reads as before.
    @Test func nullIsConsumedOnlyWhenAllFourBytesSpellIt() throws {
        let cases: [(String, Bool, Int)] = [
            ("null", true, 4), (" \tnull,", true, 6), ("nullx", true, 4), ("nul", false, 0),
            ("nulL", false, 0), ("Null", false, 0), ("nu", false, 0), ("", false, 0),
            ("\"null\"", false, 0), ("nula", false, 0), ("lnul", false, 0), (" 1", false, 1),
        ]
        for (text, taken, position) in cases {
            let (v, end) = try scan(text) { s in s.consumeNull() }
            #expect(v == taken && end == position, "\(text)")
        }
        #expect(try AttributeValue(canonicalJSON: " null", as: .string) == .null)
        #expect(try AttributeValue(canonicalJSON: "\"null\"", as: .string) == .string("null"))
        #expect(
            scanError("nul") { s in _ = try AttributeValue.readCanonicalJSON(as: .double, from: &s)
            }?.message == "expected a value, found 'n'")
    }

    /// Spaces and tabs before a token are skipped and nothing else is: a byte at or below
    /// 0x20 that is neither (a line break, a carriage return, NUL, 0x1F) stays where it is
    /// and is refused where a token is expected.
    @Test func onlySpacesAndTabsAreSkippedBeforeAToken() throws {
        for space in ["", " ", "\t", " \t  \t"] {
            let (v, end) = try scan(space + "17,") { s in try s.readInt64() }
            #expect(v == 17 && end == space.utf8.count + 2, "\(Array(space.utf8))")
            let (comma, at) = try scan(space + ",") { s in s.consume(0x2C) }
            #expect(comma && at == space.utf8.count + 1, "\(Array(space.utf8))")
        }
        for other in ["\n", "\r", "\u{0}", "\u{1F}", " \n"] {
            let (comma, at) = try scan(other + ",") { s in s.consume(0x2C) }
            let spaces = other.hasPrefix(" ") ? 1 : 0
            #expect(!comma && at == spaces, "\(Array(other.utf8))")
            #expect(scanError(other + "1") { s in _ = try s.readInt64() }?.offset == spaces)
        }
    }
}
