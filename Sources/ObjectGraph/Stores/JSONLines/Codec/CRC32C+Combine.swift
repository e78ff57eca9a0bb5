import Foundation

extension CRC32C {
    /// The checksum of `a` followed by `b`, from the checksum of `a`, the checksum of `b` and
    /// `b`'s length: what lets a long line's checksum come from the checksums of its parts
    /// (computed across cores) without reading the bytes again.
    ///
    /// Arithmetic on polynomials over GF(2) modulo the CRC polynomial (as zlib's
    /// `crc32_combine`): `crc(a·b) = crc(a) · x^(8·|b|) + crc(b)`.
    /// - Complexity: O(log `lengthOfB`).
    package static func combine(_ crcA: UInt32, _ crcB: UInt32, lengthOfB: Int) -> UInt32 {
        multiply(powerOfX(times8: lengthOfB), crcA) ^ crcB
    }

    /// The reflected polynomial.
    private static let polynomial: UInt32 = 0x82F6_3B78

    /// `a · b` modulo the polynomial (reflected representation: bit 31 is x⁰).
    private static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var m: UInt32 = 1 << 31
        var product: UInt32 = 0
        var b = b
        while true {
            if a & m != 0 {
                product ^= b
                if a & (m &- 1) == 0 { break }
            }
            m >>= 1
            b = b & 1 != 0 ? (b >> 1) ^ polynomial : b >> 1
        }
        return product
    }

    /// `x^(2^k)` modulo the polynomial, for k = 0…31.
    private static let powersOfX: [UInt32] = {
        var p: UInt32 = 1 << 30  // x¹
        var table: [UInt32] = []
        for _ in 0..<32 {
            table.append(p)
            p = multiply(p, p)
        }
        return table
    }()

    /// `x^(8·n)` modulo the polynomial: the factor that shifts a checksum past `n` bytes.
    private static func powerOfX(times8 n: Int) -> UInt32 {
        var p: UInt32 = 1 << 31  // x⁰
        var n = n
        var k = 3  // 8 = 2³
        while n != 0 {
            if n & 1 != 0 { p = multiply(powersOfX[k & 31], p) }
            n >>= 1
            k += 1
        }
        return p
    }
}
