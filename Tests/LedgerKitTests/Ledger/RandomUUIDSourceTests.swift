import Foundation
import Testing

@testable import LedgerKit

/// The ledger's default IDs: random version-4 UUIDs drawn a block of 256 at a time.
@Suite struct RandomUUIDSourceTests {
    @Test func idsAreDistinctVersionFourUUIDsAcrossManyBlocks() {
        let source = RandomUUIDSource()
        let ids = (0..<10_000).map { _ in source.next() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let text = id.uuidString
            #expect(text[text.index(text.startIndex, offsetBy: 14)] == "4", "\(text)")
            #expect("89AB".contains(text[text.index(text.startIndex, offsetBy: 19)]), "\(text)")
        }
    }

    @Test func everyRandomBitTakesBothValues() {
        // 122 of a version-4 UUID's 128 bits are random; over 2,000 UUIDs (eight blocks) each
        // is seen as 0 and as 1, so no part of a block is left unfilled or reused.
        let source = RandomUUIDSource()
        var ones = [Int](repeating: 0, count: 128)
        let count = 2_000
        for _ in 0..<count {
            withUnsafeBytes(of: source.next().uuid) { bytes in
                for bit in 0..<128 where bytes[bit / 8] & (0x80 >> UInt8(bit % 8)) != 0 {
                    ones[bit] += 1
                }
            }
        }
        let fixed: Set<Int> = [48, 49, 50, 51, 64, 65]  // version (4 bits) and variant (2)
        for bit in 0..<128 where !fixed.contains(bit) {
            #expect(
                ones[bit] > 0 && ones[bit] < count, "bit \(bit) set in \(ones[bit]) of \(count)")
        }
        #expect(ones[48] == 0 && ones[49] == count && ones[50] == 0 && ones[51] == 0)
        #expect(ones[64] == count && ones[65] == 0)
    }
}
