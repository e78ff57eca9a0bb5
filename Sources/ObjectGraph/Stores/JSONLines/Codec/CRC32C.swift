import Foundation

/// CRC-32C (Castagnoli), the checksum of every line of a JSON-lines store file.
///
/// Reflected polynomial `0x82F63B78`, initial value and final XOR `0xFFFFFFFF`; the check
/// value of `"123456789"` is `0xE3069283`. Computed with slicing-by-8 tables: eight bytes
/// per step, about 1–2 GB/s in optimised builds.
package enum CRC32C {
    /// Eight 256-entry tables, one after another: `tables[k * 256 + b]`.
    private static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for b in 0..<256 {
            var crc = UInt32(b)
            for _ in 0..<8 { crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            t[b] = crc
        }
        for k in 1..<8 {
            for b in 0..<256 {
                let previous = t[(k - 1) * 256 + b]
                t[k * 256 + b] = (previous >> 8) ^ t[Int(previous & 0xFF)]
            }
        }
        return t
    }()

    /// The checksum of `bytes`.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return 0 }
        return tables.withUnsafeBufferPointer { table in
            update(~0, base, bytes.count, table.baseAddress!) ^ 0xFFFF_FFFF
        }
    }

    /// The checksum of a byte array.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }

    private static func update(
        _ seed: UInt32, _ start: UnsafeRawPointer, _ count: Int,
        _ t: UnsafePointer<UInt32>
    ) -> UInt32 {
        var crc = seed
        var p = start
        var n = count
        while n >= 8 {
            let word = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
            let lo = UInt32(truncatingIfNeeded: word) ^ crc
            let hi = UInt32(truncatingIfNeeded: word &>> 32)
            crc =
                t[7 &* 256 &+ Int(lo & 0xFF)] ^ t[6 &* 256 &+ Int((lo &>> 8) & 0xFF)]
                ^ t[5 &* 256 &+ Int((lo &>> 16) & 0xFF)] ^ t[4 &* 256 &+ Int(lo &>> 24)]
                ^ t[3 &* 256 &+ Int(hi & 0xFF)] ^ t[2 &* 256 &+ Int((hi &>> 8) & 0xFF)]
                ^ t[256 &+ Int((hi &>> 16) & 0xFF)] ^ t[Int(hi &>> 24)]
            p += 8
            n &-= 8
        }
        while n > 0 {
            let byte = p.load(as: UInt8.self)
            crc = (crc &>> 8) ^ t[Int((crc ^ UInt32(byte)) & 0xFF)]
            p += 1
            n &-= 1
        }
        return crc
    }
}
