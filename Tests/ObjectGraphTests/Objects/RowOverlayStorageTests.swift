import Foundation
import Testing

@testable import ObjectGraph

/// An overlay of one write keeps it in a block of its own (`RowOverlay.OneWrite`), several in
/// an array: values, first-write order and rewrites read the same either way, copies of an
/// overlay do not see each other's writes, and the overlay still fits `FaultSource`'s 8 bytes.
@Suite struct RowOverlayStorageTests {
    /// The slots and values `overlay` lists, in its order.
    private func listed(_ overlay: RowOverlay) -> [(Int, AttributeValue)] {
        var result: [(Int, AttributeValue)] = []
        overlay.forEachEntry { result.append(($0.slot, $0.value)) }
        return result
    }

    @Test func oneWriteThenMoreReadInFirstWriteOrder() {
        var overlay = RowOverlay(3, .integer(1))
        #expect(overlay.count == 1)
        #expect(overlay.value(at: 3) == .integer(1))
        #expect(overlay.value(at: 0) == nil)
        // A rewrite of the one slot stays one write.
        overlay.set(3, .integer(2))
        #expect(overlay.count == 1)
        #expect(listed(overlay).map(\.0) == [3])
        #expect(overlay.value(at: 3) == .integer(2))
        // A second slot, a rewrite of the first, a third slot.
        overlay.set(0, .string("a"))
        overlay.set(3, .integer(4))
        overlay.set(5, .double(0.5))
        #expect(overlay.count == 3)
        #expect(listed(overlay).map(\.0) == [3, 0, 5])
        #expect(listed(overlay).map(\.1) == [.integer(4), .string("a"), .double(0.5)])
        #expect(overlay.value(at: 0) == .string("a"))
        #expect(overlay.value(at: 3) == .integer(4))
        #expect(overlay.value(at: 1) == nil)
    }

    /// An overlay is a value: a copy keeps what it held when copied, whichever is written next.
    @Test func aCopyKeepsItsOwnWrites() {
        let one = RowOverlay(1, .integer(1))
        var rewritten = one
        rewritten.set(1, .integer(2))
        var grown = one
        grown.set(2, .integer(3))
        #expect(listed(one).map(\.1) == [.integer(1)])
        #expect(listed(rewritten).map(\.1) == [.integer(2)])
        #expect(listed(grown).map(\.1) == [.integer(1), .integer(3)])
        var many = grown
        many.set(1, .integer(9))
        many.set(4, .integer(4))
        #expect(listed(grown).map(\.1) == [.integer(1), .integer(3)])
        #expect(listed(many).map(\.1) == [.integer(9), .integer(3), .integer(4)])
    }

    /// The overlay is one reference, and the fault source holding it stays one word: the
    /// object does not grow.
    @Test func theOverlayAndTheFaultSourceAreOneWord() {
        #expect(MemoryLayout<RowOverlay>.size == 8)
        #expect(MemoryLayout<FaultSource>.size == 8)
        #expect(MemoryLayout<RowOverlay.Entry>.stride == 24)
    }
}
