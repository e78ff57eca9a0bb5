import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The row table's primary key → slot map: a dense array below its limit, a dictionary
/// beyond, and every key found where it was put.
@Suite struct KeyMapTests {
    /// The dense array grew by half again past its limit (12M keys → 18M slots against a
    /// limit of 2^24): a key between the limit and the array's end was then written to the
    /// dictionary but read from the array, and lost. Here with a limit of 1,024.
    @Test func aKeyJustPastTheDenseLimitIsFoundAfterTheArrayGrew() {
        var map = KeyMap(denseLimit: 1024)
        map[700] = 1
        map[701] = 2  // grows the array by half again: 1,051 slots before the fix
        map[1030] = 3  // past the limit: the dictionary's
        map[1023] = 4  // the last dense key
        #expect(map[700] == 1)
        #expect(map[701] == 2)
        #expect(map[1030] == 3)
        #expect(map[1023] == 4)
        #expect(map.removeValue(forKey: 1030) == 3)
        #expect(map[1030] == nil)
        #expect(map.removeValue(forKey: 1023) == 4)
        #expect(map[1023] == nil)
    }

    /// Keys in any order, negative ones and ones far past the limit, against a dictionary.
    @Test func seededKeysReadBackAsADictionaryHoldsThem() {
        var map = KeyMap(denseLimit: 4096)
        var expected: [Int64: Int] = [:]
        var random = SeededRandomNumberGenerator(seed: 25)
        for step in 0..<20_000 {
            let key: Int64 =
                switch random.next() % 4 {
                case 0: Int64(random.next() % 5000)
                case 1: Int64(step % 4200)
                case 2: -Int64(random.next() % 100) - 1
                default: Int64(random.next() % 1_000_000)
                }
            if random.next() % 5 == 0 {
                #expect(map.removeValue(forKey: key) == expected.removeValue(forKey: key))
            } else {
                map[key] = step
                expected[key] = step
            }
        }
        for key in Set(expected.keys).union((-101)...5000) {
            #expect(map[key] == expected[key], "key \(key)")
        }
    }

    /// The dense slots are handed out for bulk placement only when every key asked for is in
    /// the array already (not negative, not past its end, not past the limit); what is written
    /// through them reads back through the map.
    @Test func denseSlotsAreHandedOutOnlyForKeysInTheArray() {
        var map = KeyMap(denseLimit: 1024)
        #expect(map.withDenseSlots(covering: 0...0) { _ in true } == nil)
        map.reserveDense(through: 100)
        #expect(map.withDenseSlots(covering: 0...101) { _ in true } == nil)
        #expect(map.withDenseSlots(covering: -1...5) { _ in true } == nil)
        let count = map.withDenseSlots(covering: 3...100) { slots in
            slots[3] = 7
            slots[100] = 9
            return slots.count
        }
        #expect(count == 101)
        #expect(map[3] == 7 && map[100] == 9 && map[4] == nil)
        map.reserveDense(through: 5_000)  // past the limit: the dictionary's
        #expect(map.withDenseSlots(covering: 0...1_023) { _ in true } == nil)
        map[1_023] = 1
        #expect(map.withDenseSlots(covering: 0...1_023) { $0.count } == 1_024)
        #expect(map.withDenseSlots(covering: 0...1_024) { _ in true } == nil)
    }
}
