import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Numbers read eight digits at a time (when eight bytes remain) scan to the same mantissa,
/// exponent and flags, the same doubles bit for bit, and the same errors as digit by digit
/// (when fewer remain, and in the reference below: the byte loop the reader used before).
@Suite struct NumberDigitRunTests {
    /// What a scan gave: the number's fields, its double's bits, and where it stopped; or
    /// the error's offset and message.
    private enum Outcome: Equatable {
        case number(
            mantissa: UInt64, exponent: Int, exact: Bool, integer: Bool, negative: Bool,
            range: Range<Int>, bits: UInt64?)
        case failure(offset: Int, message: String)
    }

    /// Scans `text` once, as the reader does.
    private static func scan(_ text: String) -> Outcome {
        var text = text
        return text.withUTF8 { utf8 in
            var s = JSONScanner(UnsafeRawBufferPointer(utf8))
            do {
                let n = try s.readNumber()
                let bits = try? s.double(n).bitPattern
                return .number(
                    mantissa: n.mantissa, exponent: n.exponent, exact: n.isExact,
                    integer: n.isInteger, negative: n.isNegative, range: n.range, bits: bits)
            } catch let e as JSONScanError {
                return .failure(offset: e.offset, message: e.message)
            } catch {
                return .failure(offset: -1, message: "\(error)")
            }
        }
    }

    /// The digits' accumulation as the reader did it one byte at a time before runs of eight
    /// (the mantissa, exponent and exactness only, of a number `scan` accepted).
    private static func reference(_ text: String) -> (UInt64, Int, Bool) {
        let b = Array(text.utf8)
        var i = b.first == 0x2D ? 1 : 0
        var significant = 0
        var mantissa: UInt64 = 0
        var exponent = 0
        var exact = true
        func digit(_ i: Int) -> UInt8? { i < b.count && b[i] &- 0x30 < 10 ? b[i] &- 0x30 : nil }
        if b[i] == 0x30 {
            i += 1
        } else {
            while let d = digit(i) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    significant += 1
                } else {
                    exponent += 1
                    if d != 0 { exact = false }
                }
                i += 1
            }
        }
        if i < b.count, b[i] == 0x2E {
            i += 1
            while let d = digit(i) {
                if significant < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    if mantissa != 0 { significant += 1 }
                    exponent -= 1
                } else if d != 0 {
                    exact = false
                }
                i += 1
            }
        }
        if i < b.count, b[i] | 0x20 == 0x65 {
            i += 1
            let negative = i < b.count && b[i] == 0x2D
            if i < b.count, b[i] == 0x2B || b[i] == 0x2D { i += 1 }
            var e = 0
            while let d = digit(i) {
                e = min(e * 10 + Int(d), 1_000_000)
                i += 1
            }
            exponent += negative ? -e : e
        }
        return (mantissa, exponent, exact)
    }

    /// Checks `text` read before a last `]` (digit by digit once fewer than eight bytes
    /// remain) and before `]` and padding (runs of eight): the same outcome, the
    /// reference's accumulation, and the nearest double that `Double(String)` finds.
    private static func check(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let bare = scan(text + "]")
        let padded = scan(text + "]         ")
        #expect(bare == padded, "\(text)", sourceLocation: sourceLocation)
        guard case .number(let m, let e, let exact, _, _, _, let bits) = padded else { return }
        let (rm, re, rexact) = reference(text)
        #expect(m == rm && e == re && exact == rexact, "\(text)", sourceLocation: sourceLocation)
        if let v = Double(text), v.isFinite {
            #expect(bits == v.bitPattern, "\(text)", sourceLocation: sourceLocation)
        } else {
            #expect(bits == nil, "\(text)", sourceLocation: sourceLocation)
        }
    }

    @Test func numbersAtEveryLengthAndLimitScanAlikeOnBothPaths() {
        let cases = [
            "0", "-0", "0.0", "-0.0", "7", "12345678", "123456789", "1234567890123456789",
            "12345678901234567890", "99999999999999999999999", "18446744073709551615",
            "9223372036854775807", "-9223372036854775808", "1653549287.5802474", "223.21",
            "0.5802474", "0.00000000123456789012", "1.0000000000000000001",
            "10000000000000000000.5",
            "123456789012345678.9", "1234567890123456789.12", "12345678.12345678", "3.14159265",
            "1e5", "1E-5", "1.5e+300", "2.2250738585072014e-308", "4.9e-324", "5e-324",
            "2.4703282292062327e-324", "1.7976931348623157e308", "1.7976931348623159e308",
            "-1.7976931348623157e308", "1e400", "1e-400", "9007199254740993", "0.1",
            "0.30000000000000004",
            "123456780000000000000000", "1.00000000", "100000000", "-12345678.9e-3", "1.2345678e7",
            "01", "1.", "1.e5", "-", "-a", "1e", "1e+", ".5", "+1", "00.5", "-01", "1.x",
        ]
        for text in cases { Self.check(text) }
    }

    @Test func randomDoublesRoundTripBitForBitOnBothPaths() {
        var random = SeededRandomNumberGenerator(seed: 2_520)
        for _ in 0..<20_000 {
            let v = Double(bitPattern: random.next())
            guard v.isFinite else { continue }
            let text = v.description
            Self.check(text)
            var copy = text + ","
            let bits = copy.withUTF8 { utf8 in
                var s = JSONScanner(UnsafeRawBufferPointer(utf8))
                return try? s.readDouble().bitPattern
            }
            #expect(bits == v.bitPattern, "\(text)")
        }
    }

    @Test func randomDigitStringsScanLikeTheByteLoop() {
        var random = SeededRandomNumberGenerator(seed: 8)
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(random.next() % 10)) })
        }
        for _ in 0..<20_000 {
            let whole = Int(random.next() % 24)
            let fraction = Int(random.next() % 24)
            var text = random.next() % 2 == 0 ? "-" : ""
            text += whole == 0 ? "0" : String(1 + random.next() % 9) + digits(whole - 1)
            if fraction > 0 { text += "." + digits(fraction) }
            if random.next() % 4 == 0 { text += "e" + String(Int(random.next() % 40) - 20) }
            Self.check(text)
        }
    }

    @Test func digitRunsStopAtEveryKindOfByte() {
        // Every byte after a run of one to eight digits: digits continue it, anything else
        // ends it, bytes near '0' and '9' and above 0x7F included.
        for length in 1...9 {
            for b in UInt8(0)...UInt8(255) where b != 0x2E && b | 0x20 != 0x65 {
                let bytes =
                    Array("987654321".utf8.prefix(length)) + [b] + Array(repeating: 0x20, count: 9)
                let (m, position) = bytes.withUnsafeBytes { raw in
                    var s = JSONScanner(raw)
                    let n = try? s.readNumber()
                    return (n?.mantissa, s.position)
                }
                let isDigit = b >= 0x30 && b <= 0x39
                let expected = UInt64(
                    String(decoding: bytes[..<(length + (isDigit ? 1 : 0))], as: UTF8.self))
                #expect(m == expected && position == length + (isDigit ? 1 : 0), "\(length) \(b)")
            }
        }
    }
}

/// The word-at-a-time reads stop at the buffer's end, not at the next byte in memory: a
/// scanner over a prefix of a longer run of digits (as salvage scans parts of a damaged
/// line) reads exactly what a scanner over the prefix alone reads. Added after the review
/// of branch `w2p`: every other input had a non-digit right after the number.
@Suite struct ScannerWordReadBoundsTests {
    /// The outcome of `readNumber()` over the first `k` bytes of `bytes`, viewed in place.
    private static func scanPrefix(_ bytes: [UInt8], _ k: Int) -> (String, Int) {
        bytes.withUnsafeBytes { raw in
            var s = JSONScanner(UnsafeRawBufferPointer(rebasing: raw[0..<k]))
            do {
                let n = try s.readNumber()
                let bits = try? s.double(n).bitPattern
                return (
                    "\(n.mantissa) \(n.exponent) \(n.isExact) \(String(describing: bits))",
                    s.position
                )
            } catch let e as JSONScanError {
                return ("error at \(e.offset): \(e.message)", -1)
            } catch {
                return ("\(error)", -1)
            }
        }
    }

    @Test(arguments: ["12345678901234567890", "1.2345678901234567890", "-98765432109876543210e7"])
    func aNumberCutAtEveryLengthReadsOnlyTheBytesBeforeTheCut(_ text: String) {
        let bytes = Array(text.utf8)
        for k in 1...bytes.count {
            let cut = Self.scanPrefix(bytes, k)
            // The same prefix as a buffer of its own, followed by a space and nothing more.
            let alone = Self.scanPrefix(Array(bytes[0..<k]) + [0x20], k)
            #expect(cut.0 == alone.0, "\(text) cut at \(k)")
            if cut.1 >= 0 { #expect(cut.1 == k, "\(text) cut at \(k): stopped at \(cut.1)") }
        }
    }

    @Test func nullCutBeforeItsFourthByteIsNotConsumed() {
        let bytes = Array("null".utf8)
        for k in 0..<4 {
            let (taken, position) = bytes.withUnsafeBytes { raw in
                var s = JSONScanner(UnsafeRawBufferPointer(rebasing: raw[0..<k]))
                return (s.consumeNull(), s.position)
            }
            #expect(!taken && position == 0, "cut at \(k)")
        }
    }
}
