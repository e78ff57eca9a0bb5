import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// A reverse-index source list removes sources one at a time (leaving holes) and many at once
/// (one pass, no holes left): after both, in either order, it lists exactly the sources left,
/// in key order, through its fast path (a known entity, no holes) and its general one.
@Suite struct SourceListTests {
    private static func members(_ list: SourceList, entity: Int?) -> [Int64] {
        var keys: [Int64] = []
        list.forEachMember(entity: entity) { _, key in keys.append(key) }
        return keys
    }

    @Test func aBulkRemovalOverAHoleLeavesExactlyTheOthers() throws {
        let entity = try #require(ExpenseModel.make().entitiesByName["Transaction"])
        var list = SourceList()
        for key in 1...40 { list.add(key: Int64(key), entity: entity) }
        list.remove(5)  // one by one: a hole
        #expect(list.count == 40)
        var doomed = (21...40).reversed().map { Int64($0) } + [7]
        list.remove(keys: &doomed)
        let left = (1...20).filter { $0 != 5 && $0 != 7 }.map { Int64($0) }
        // No hole is left behind, so the fast path, which trusts there is none, lists them.
        #expect(list.count == left.count)
        #expect(Self.members(list, entity: entity.index) == left)
        #expect(Self.members(list, entity: nil) == left)
        // A few of a long list go one by one, as holes the general path skips.
        var few: [Int64] = [2]
        list.remove(keys: &few)
        #expect(Self.members(list, entity: nil) == left.filter { $0 != 2 })
        #expect(Self.members(list, entity: entity.index) == left.filter { $0 != 2 })
    }
}
