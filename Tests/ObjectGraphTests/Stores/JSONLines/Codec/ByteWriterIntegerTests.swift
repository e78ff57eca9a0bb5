import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The writer's integers (two digits at a time, straight into the buffer) and a long line's
/// checksum (in parts across cores) give exactly what the plain definitions give.
@Suite struct ByteWriterIntegerTests {
    private func written(_ v: Int64) -> String {
        let w = JSONByteWriter(capacity: 64)
        w.append(integer: v)
        return w.string
    }

    @Test func integersAreWrittenAsTheirDecimalDescription() {
        var samples: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, .max, .min, .min + 1]
        // Every power of ten and its neighbours, both signs: each digit count's boundaries.
        var power: Int64 = 1
        for _ in 0...18 {
            samples += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
            if power <= Int64.max / 10 { power *= 10 }
        }
        var random = SeededRandomNumberGenerator(seed: 17)
        for _ in 0..<20_000 {
            let bits = random.next()
            // Magnitudes of every length: shift a random word right by 0–63 bits.
            samples.append(Int64(bitPattern: bits >> (random.next() % 64)))
        }
        for v in samples {
            #expect(written(v) == String(v), "\(v)")
            #expect(JSONByteWriter.decimalLength(of: v) == String(v).utf8.count, "\(v)")
        }
    }

    /// Values of one and two digits (written without a digit count) and their neighbours,
    /// each at a full buffer's end (the writer grows first) and after the bytes it held.
    @Test func smallIntegersAreWrittenAtAFullBuffersEnd() {
        for v in Int64(-101)...101 {
            let w = JSONByteWriter(capacity: 64)
            w.append(Array(repeating: UInt8(ascii: "x"), count: 63))
            w.append(integer: v)
            w.append(0x2C)
            #expect(w.string == String(repeating: "x", count: 63) + "\(v),", "\(v)")
        }
    }

    @Test func integersFollowWhatTheWriterHeld() {
        let w = JSONByteWriter(capacity: 64)
        w.append(ascii: "[")
        for v: Int64 in [7, -12, 345, 0, 1_000_000_007] {
            w.append(integer: v)
            w.append(0x2C)
        }
        #expect(w.string == "[7,-12,345,0,1000000007,")
    }

    @Test func aLongLinesChecksumIsTheSameInPartsAsInOnePass() {
        var random = SeededRandomNumberGenerator(seed: 23)
        for length in [LineFrame.parallelBytes - 1, LineFrame.parallelBytes, 5_000_003] {
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            bytes.withUnsafeBytes { raw in
                #expect(LineFrame.checksum(raw) == CRC32C.checksum(raw), "\(length) bytes")
            }
        }
    }

    /// A line of about 5 MB, `{"t":1,"x":"aaaa…"}` framed with its checksum, without its LF.
    private func longLine() -> [UInt8] {
        let w = JSONByteWriter(capacity: 64)
        w.append(ascii: "{\"t\":1,\"x\":\"")
        w.append(Array(repeating: UInt8(ascii: "a"), count: 5_000_000))
        w.append(ascii: "\"")
        LineFrame.finish(w, bodyStart: 0)
        return Array(w.bytes.dropLast())
    }

    @Test func aLongLineIsCheckedAndItsDamageFound() {
        var line = longLine()
        #expect(line.withUnsafeBytes { LineFrame.problem($0) } == nil)
        line[4_000_000] = UInt8(ascii: "b")
        let problem = line.withUnsafeBytes { LineFrame.problem($0) }
        #expect(problem?.contains("checksum mismatch") == true)
    }

    /// A long line's checksum is computed in more parts than cores
    /// (`ParallelChunks.balancedPartCount()`): a byte changed in the first, a middle or the last
    /// part is found, and the message names the checksum one pass over the body gives.
    @Test func aLongLinesDamageIsFoundInAnyOfItsParts() {
        let sound = longLine()
        let body = sound.count - LineFrame.suffixLength
        let parts = ParallelChunks.balancedPartCount()
        for at in [20, body / 2, body * (parts - 1) / parts + 7, body - 2] {
            var line = sound
            line[at] = UInt8(ascii: "b")
            let problem = line.withUnsafeBytes { LineFrame.problem($0) }
            let computed = line.withUnsafeBytes {
                CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[..<body]))
            }
            let hex = String(computed, radix: 16)
            let spelled = String(repeating: "0", count: 8 - hex.count) + hex
            #expect(
                problem?.hasPrefix("checksum mismatch") == true
                    && problem?.hasSuffix("its content gives \(spelled)") == true, "byte \(at)")
        }
    }
}
