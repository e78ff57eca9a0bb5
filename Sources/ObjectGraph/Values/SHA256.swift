import Foundation

/// SHA-256 (FIPS 180-4) in plain Swift, for version hashes and import keys: the same digest on every platform and run, with no
/// dependency on a crypto library (which this toolchain does not ship on Linux).
///
/// Allocation-free apart from the result: whole blocks are read from the message in place,
/// the padded tail goes through a stack buffer.
package enum SHA256 {
    /// A 256-bit digest, as four big-endian 64-bit words.
    package struct Digest: Hashable, Sendable {
        package var words: (UInt64, UInt64, UInt64, UInt64)

        package static func == (a: Digest, b: Digest) -> Bool { a.words == b.words }

        package func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
        }

        /// Byte `i` (0–31) of the digest.
        package subscript(i: Int) -> UInt8 {
            let word = i < 16 ? (i < 8 ? words.0 : words.1) : (i < 24 ? words.2 : words.3)
            return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (i % 8)))
        }

        /// Lowercase hex of the first `bytes` bytes.
        package func hex(bytes: Int = 32) -> String {
            let hexDigits: StaticString = "0123456789abcdef"
            return String(unsafeUninitializedCapacity: bytes * 2) { out in
                hexDigits.withUTF8Buffer { digits in
                    for i in 0..<bytes {
                        out[2 * i] = digits[Int(self[i] >> 4)]
                        out[2 * i + 1] = digits[Int(self[i] & 0x0F)]
                    }
                }
                return bytes * 2
            }
        }
    }

    /// Lowercase hex of the first `bytes` bytes of the digest of `message`.
    package static func hex(_ message: some Collection<UInt8>, bytes: Int = 32) -> String {
        let digest =
            message.withContiguousStorageIfAvailable { hash(UnsafeRawBufferPointer($0)) }
            ?? Array(message).withUnsafeBytes { hash($0) }
        return digest.hex(bytes: bytes)
    }

    /// The 32-byte digest of `bytes`, as `Data`.
    package static func hash(_ bytes: some Sequence<UInt8>) -> Data {
        let digest = Array(bytes).withUnsafeBytes { hash($0) }
        return Data((0..<32).map { digest[$0] })
    }

    /// The digest of `message`.
    package static func hash(_ message: UnsafeRawBufferPointer) -> Digest {
        var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
            0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c,
            0x1f83_d9ab, 0x5be0_cd19
        )
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { tail in
                let whole = message.count / 64 * 64
                var offset = 0
                while offset < whole {
                    compress(
                        &state, UnsafeRawBufferPointer(rebasing: message[offset..<offset + 64]), w)
                    offset += 64
                }
                let rest = message.count - whole
                let tailLength = rest < 56 ? 64 : 128
                for i in 0..<tailLength { tail[i] = i < rest ? message[whole + i] : 0 }
                tail[rest] = 0x80
                let bitLength = UInt64(message.count) &* 8
                for i in 0..<8 {
                    tail[tailLength - 1 - i] = UInt8(truncatingIfNeeded: bitLength >> UInt64(8 * i))
                }
                let padded = UnsafeRawBufferPointer(tail)
                compress(&state, UnsafeRawBufferPointer(rebasing: padded[0..<64]), w)
                if tailLength == 128 {
                    compress(&state, UnsafeRawBufferPointer(rebasing: padded[64..<128]), w)
                }
            }
        }
        func pair(_ high: UInt32, _ low: UInt32) -> UInt64 { UInt64(high) << 32 | UInt64(low) }
        return Digest(
            words: (
                pair(state.0, state.1), pair(state.2, state.3), pair(state.4, state.5),
                pair(state.6, state.7)
            ))
    }

    private static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32),
        _ block: UnsafeRawBufferPointer, _ w: UnsafeMutableBufferPointer<UInt32>
    ) {
        for t in 0..<16 {
            w[t] =
                UInt32(block[4 * t]) << 24 | UInt32(block[4 * t + 1]) << 16 | UInt32(
                    block[4 * t + 2]) << 8
                | UInt32(block[4 * t + 3])
        }
        for t in 16..<64 {
            let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
            let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
            w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
        }
        var (a, b, c, d, e, f, g, h) = state
        k.withUnsafeBufferPointer { k in
            for t in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let t1 = h &+ s1 &+ ((e & f) ^ (~e & g)) &+ k[t] &+ w[t]
                let t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) &+ ((a & b) ^ (a & c) ^ (b & c))
                h = g
                g = f
                f = e
                e = d &+ t1
                d = c
                c = b
                b = a
                a = t1 &+ t2
            }
        }
        state = (
            state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d,
            state.4 &+ e, state.5 &+ f, state.6 &+ g, state.7 &+ h
        )
    }

    @inline(__always)
    private static func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let k: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
        0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7,
        0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc,
        0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351,
        0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e,
        0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585,
        0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f,
        0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
        0xc671_78f2,
    ]
}
