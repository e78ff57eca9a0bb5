import ObjectGraphTesting
import Testing

@testable import ObjectGraph

@Suite struct CRC32CTests {
    @Test func checkValueMatchesTheCastagnoliStandard() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([]) == 0)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)  // RFC 3720 B.4
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
    }

    @Test func tableStepsAgreeWithBitwiseDefinitionForEveryLengthAndOffset() {
        var random = SeededRandomNumberGenerator(seed: 7)
        let data = (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Every offset within a 16-byte step, read in place (unaligned) and copied.
        for start in 0..<17 {
            for length in 0..<(data.count - start) where length < 50 || length % 17 == 0 {
                let slice = Array(data[start..<(start + length)])
                let inPlace = data.withUnsafeBytes {
                    CRC32C.checksum(UnsafeRawBufferPointer(rebasing: $0[start..<(start + length)]))
                }
                #expect(CRC32C.checksum(slice) == bitwise(slice), "start \(start) length \(length)")
                #expect(inPlace == bitwise(slice), "start \(start) length \(length)")
            }
        }
    }

    @Test func combiningTheChecksumsOfTwoPartsGivesTheChecksumOfTheWhole() {
        var random = SeededRandomNumberGenerator(seed: 32)
        let data = (0..<70_000).map { _ in UInt8.random(in: 0...255, using: &random) }
        for cut in [0, 1, 7, 8, 9, 100, 4095, 16_384, 40_000, 69_999, 70_000] {
            let a = Array(data[..<cut])
            let b = Array(data[cut...])
            #expect(
                CRC32C.combine(CRC32C.checksum(a), CRC32C.checksum(b), lengthOfB: b.count)
                    == CRC32C.checksum(data), "cut at \(cut)")
        }
    }

    private func bitwise(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return ~crc
    }
}
