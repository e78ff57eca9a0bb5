import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@testable import LedgerKit

@Suite struct IDPrefixIndexTests {
    static let ids = [
        "3f2a9c1e-0000-4000-8000-000000000001", "3f2a9c1e-5b00-4000-8000-000000000002",
        "a0000000-0000-4000-8000-000000000003",
    ].map { UUID(uuidString: $0)! }

    @Test func aUniquePrefixInAnyCaseWithOrWithoutDashesFindsItsID() throws {
        let index = IDPrefixIndex(Self.ids)
        #expect(try index.match("a") == 2)
        #expect(try index.match("3F2A9C1E-5") == 1)
        #expect(try index.match("3f2a9c1e0") == 0)
        #expect(try index.match(Self.ids[1].uuidString) == 1)
    }

    @Test func anAmbiguousPrefixFailsNamingTheCandidates() {
        let index = IDPrefixIndex(Self.ids)
        #expect {
            try index.match("3f2a")
        } throws: { error in
            message(of: error) == "ID prefix \"3f2a\" is ambiguous: it matches 2 transactions "
                + "(3f2a9c1e-0, 3f2a9c1e-5); give more characters"
        }
    }

    @Test func anUnknownOrMalformedPrefixFails() {
        let index = IDPrefixIndex(Self.ids)
        for bad in ["b", "", "zz", String(repeating: "a", count: 33)] {
            #expect(throws: LedgerError.self) { try index.match(bad) }
        }
        #expect {
            try index.match("b")
        } throws: { error in
            message(of: error) == "no transaction with an ID starting \"b\"; see `ledger list`"
        }
    }

    @Test func shortPrefixesAreUniqueAndAtLeastTheMinimum() {
        let index = IDPrefixIndex(Self.ids)
        #expect(index.shortPrefixes(minimum: 8) == ["3f2a9c1e-0", "3f2a9c1e-5", "a0000000"])
        #expect(index.shortPrefixes(minimum: 1) == ["3f2a9c1e-0", "3f2a9c1e-5", "a"])
        #expect(
            index.shortPrefixes(of: [Self.ids[2], Self.ids[0]]) == [
                Self.ids[2]: "a0000000", Self.ids[0]: "3f2a9c1e-0",
            ])
        #expect(
            IDPrefixIndex([Self.ids[0], Self.ids[0]]).shortPrefixes(minimum: 4) == [
                Self.ids[0].uuidString.lowercased(), Self.ids[0].uuidString.lowercased(),
            ])
    }

    @Test func shortPrefixesOfManyRandomIDsAreUnique() {
        var seeded = SeededRandomNumberGenerator(seed: 99)
        let ids = (0..<20_000).map { _ in seeded.uuid() }
        let short = IDPrefixIndex(ids).shortPrefixes(minimum: 4)
        #expect(Set(short).count == ids.count)
        #expect(zip(ids, short).allSatisfy { $0.uuidString.lowercased().hasPrefix($1) })
    }
}
