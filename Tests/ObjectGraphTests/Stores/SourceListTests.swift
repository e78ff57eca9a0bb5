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

    /// A list of the sources 1…8, the even ones categories and the odd ones transactions,
    /// with the two entities and the scopes of store "S".
    private static func alternating() throws
        -> (SourceList, EntityDescription, EntityDescription, [ObjectIDScope])
    {
        let model = try ExpenseModel.make()
        let category = try #require(model.entitiesByName["Category"])
        let transaction = try #require(model.entitiesByName["Transaction"])
        var list = SourceList()
        for key in 1...8 {
            list.add(key: Int64(key), entity: key.isMultiple(of: 2) ? category : transaction)
        }
        return (list, category, transaction, ObjectIDScope.of(model, store: "S"))
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

    /// Each source's entity comes back with it: sources of two entities, one removed and
    /// added back over its hole with the other entity, then a bulk removal, list as IDs of
    /// each one's own entity and store, in key order, holes skipped.
    @Test func membersKeepEachSourcesEntityThroughHolesAndRemovals() throws {
        let (sources, category, transaction, scopes) = try Self.alternating()
        var list = sources
        list.remove(3)
        #expect(list.members(scopes: scopes).map(\.primaryKey) == [1, 2, 4, 5, 6, 7, 8])
        list.add(key: 3, entity: category)
        list.remove(6)
        var doomed: [Int64] = [8, 1, 5, 7]
        list.remove(keys: &doomed)
        let members = list.members(scopes: scopes)
        #expect(members.map(\.primaryKey) == [2, 3, 4])
        #expect(members.allSatisfy { $0.entity === category && $0.storeIdentifier == "S" })
        list.add(key: 9, entity: transaction)
        #expect(
            list.members(scopes: scopes).map(\.entity.name) == [
                "Category", "Category", "Category", "Transaction",
            ])
        #expect(Self.members(list, entity: nil) == [2, 3, 4, 9])
    }

    /// Sources of alternating entities removed one by one until the holes pass half (the
    /// list squeezes them out): the sources left keep their own entities, through both the
    /// IDs and the general path's reported entity index (the `del21` review's gap).
    @Test func squeezingHolesKeepsEachSourcesEntity() throws {
        let (sources, category, transaction, scopes) = try Self.alternating()
        var list = sources
        for key in [1, 2, 3, 5] { list.remove(Int64(key)) }
        #expect(list.count == 8, "four holes of eight: not squeezed yet")
        list.remove(7)
        #expect(list.count == 3, "five holes of eight: squeezed")
        let members = list.members(scopes: scopes)
        #expect(members.map(\.primaryKey) == [4, 6, 8])
        #expect(members.allSatisfy { $0.entity === category })
        var reported: [(Int, Int64)] = []
        list.forEachMember(entity: nil) { entity, key in reported.append((entity, key)) }
        #expect(reported.map(\.1) == [4, 6, 8])
        #expect(reported.allSatisfy { $0.0 == category.index })
        list.add(key: 5, entity: transaction)
        reported = []
        list.forEachMember(entity: nil) { entity, key in reported.append((entity, key)) }
        #expect(
            reported.map(\.0) == [
                category.index, transaction.index, category.index, category.index,
            ])
    }

    /// Keys added together (`add(keys:entity:)`, a bulk insert's path) leave the list adding
    /// them one by one leaves: appended in bulk when they ascend past the list's last key,
    /// else one by one — over a hole at the end, keys in any order, a key already listed,
    /// a key twice.
    @Test func keysAddedTogetherListAsKeysAddedOneByOne() throws {
        let (sources, category, transaction, scopes) = try Self.alternating()
        let cases: [(removing: [Int64], adding: [Int64])] = [
            ([], [9, 10, 12]),  // past the end, ascending: appended
            ([8], [8, 11]),  // over the last key's hole, then past it
            ([], [20, 15]),  // descending
            ([3], [4, 3, 30]),  // a key listed, a hole, then past the end
            ([], [40, 40]),  // a key twice
            ([], []),
        ]
        for (removing, adding) in cases {
            var together = sources
            var single = sources
            for key in removing {
                together.remove(key)
                single.remove(key)
            }
            adding.withUnsafeBufferPointer {
                together.add(keys: $0, entity: Int32(transaction.index))
            }
            for key in adding { single.add(key: key, entity: transaction) }
            let listed = together.members(scopes: scopes)
            #expect(listed == single.members(scopes: scopes), "\(removing) \(adding)")
            #expect(together.count == single.count, "\(removing) \(adding)")
            #expect(Self.members(together, entity: nil) == listed.map(\.primaryKey))
            #expect(listed.map(\.primaryKey) == listed.map(\.primaryKey).sorted())
            #expect(
                listed.filter { adding.contains($0.primaryKey) }.allSatisfy {
                    $0.entity === transaction
                })
            #expect(
                listed.filter { !adding.contains($0.primaryKey) }.allSatisfy {
                    $0.entity === ($0.primaryKey.isMultiple(of: 2) ? category : transaction)
                })
        }
    }
}
