import Foundation
import Testing

@testable import ObjectGraph

/// Sorting: nil placement, numeric and string comparisons, to-one key paths, errors.
@Suite struct FetchSortDescriptorTests {
    let graph = PredicateTestGraph()

    /// Labels sorted by `descriptors`, ties kept in label order (stability is the caller's).
    private func sorted(_ entity: String, _ descriptors: [FetchSortDescriptor]) throws -> [String] {
        let compiled = try descriptors.map { try $0.compile(for: graph.entity(entity)) }
        return graph.records(of: entity).enumerated().sorted { a, b in
            for d in compiled {
                switch d.compare(a.element, b.element) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a.offset < b.offset
        }.map(\.element.label)
    }

    @Test func numbersSortByValueAcrossTypes() throws {
        #expect(
            try sorted("Transaction", [.init(key: "amount")]) == [
                "t8", "t5", "t1", "t7", "t6", "t2", "t4", "t3",
            ])
        #expect(
            try sorted("Transaction", [.init(key: "amount", ascending: false)])
                == ["t3", "t4", "t2", "t6", "t7", "t1", "t5", "t8"])
    }

    @Test func nilSortsFirstAscendingAndLastDescending() throws {
        #expect(
            try sorted("Transaction", [.init(key: "rate")]) == [
                "t4", "t6", "t8", "t5", "t1", "t2", "t3", "t7",
            ])
        #expect(
            try sorted("Transaction", [.init(key: "rate", ascending: false)])
                == ["t7", "t3", "t2", "t1", "t5", "t8", "t6", "t4"])
        #expect(try sorted("Transaction", [.init(key: "date")]).first == "t6")
        #expect(try sorted("Transaction", [.init(key: "date", ascending: false)]).last == "t6")
    }

    @Test func datesSortByInstantWithTiesLeftToTheCaller() throws {
        #expect(
            try sorted("Transaction", [.init(key: "date")]) == [
                "t6", "t5", "t1", "t8", "t4", "t2", "t3", "t7",
            ])
        let d = try FetchSortDescriptor(key: "date").compile(for: graph.entity("Transaction"))
        #expect(d.compare(graph["t1"], graph["t8"]) == .orderedSame)
        #expect(
            try sorted("Transaction", [.init(key: "date"), .init(key: "title", ascending: false)])
                == ["t6", "t5", "t8", "t1", "t4", "t2", "t3", "t7"])
    }

    @Test func plainStringsSortByScalarsAndCaseInsensitiveIgnoresCase() throws {
        #expect(
            try sorted("Transaction", [.init(key: "title")]) == [
                "t6", "t3", "t1", "t4", "t2", "t7", "t5", "t8",
            ])
        #expect(
            try sorted("Transaction", [.init(key: "title", comparison: .caseInsensitive)])
                == ["t5", "t6", "t3", "t1", "t4", "t2", "t7", "t8"])
        let d = FetchSortDescriptor(key: "x", comparison: .caseInsensitive)
        let compiled = CompiledSortDescriptor(
            relationships: [], slot: 0, ascending: true, comparison: d.comparison)
        #expect(compiled.compareValues("ABC", "abc") == .orderedSame)
        #expect(compiled.compareValues("Straße", "STRASSE") == .orderedSame)
    }

    @Test func localizedStandardSortsDigitsByValueAndIgnoresCase() throws {
        let d = CompiledSortDescriptor(
            relationships: [], slot: 0, ascending: true, comparison: .localizedStandard)
        let names: [AttributeValue] = ["file10", "File1", "file2", "FILE20"]
        let order = names.sorted { d.compareValues($0, $1) == .orderedAscending }
        #expect(order == ["File1", "file2", "file10", "FILE20"])
        let plain = CompiledSortDescriptor(
            relationships: [], slot: 0, ascending: true, comparison: .plain)
        #expect(
            names.sorted { plain.compareValues($0, $1) == .orderedAscending } == [
                "FILE20", "File1", "file10", "file2",
            ])
    }

    @Test func toOneKeyPathsSortByTheRelatedValue() throws {
        let order = try sorted("Transaction", [.init(key: "category.name")])
        #expect(order == ["t6", "t5", "t8", "t1", "t2", "t3", "t4", "t7"])
        #expect(
            try sorted(
                "Transaction",
                [.init(key: "category.parent.name", ascending: false), .init(key: "amount")])
                == ["t8", "t5", "t7", "t4", "t3", "t1", "t6", "t2"])
        let d = try FetchSortDescriptor(key: "category.name").compile(
            for: graph.entity("Transaction"))
        #expect(d.value(of: graph["t6"]) == .null)
        #expect(d.value(of: graph["t1"]) == "Food")
    }

    @Test func descriptorsDescribeAndReverse() {
        let d = FetchSortDescriptor(key: "date", ascending: false)
        #expect(d.reversed == FetchSortDescriptor(key: "date"))
        #expect(d.description == "date desc")
        #expect(
            FetchSortDescriptor(key: "name", comparison: .localizedStandard).description
                == "name asc localizedStandard")
    }

    @Test(arguments: ["tags.name", "category", "nope", "title.count", "", "category.nope", "tags"])
    func badKeysFailToCompile(_ key: String) throws {
        let error = #expect(throws: ObjectGraphError.self) {
            try FetchSortDescriptor(key: key).compile(for: graph.entity("Transaction"))
        }
        #expect(error?.reason == .invalidSortKey)
        #expect(error?.entityName == "Transaction")
        #expect(error?.key == key)
    }

    @Test func valuesOfDifferentKindsHaveAFixedOrder() {
        let d = CompiledSortDescriptor(
            relationships: [], slot: 0, ascending: true, comparison: .plain)
        let values: [AttributeValue] = [
            .transformable(Data([1])), .data(Data([2])), .data(Data([1, 0])),
            .uri(URL(string: "a:b")!),
            .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
            .date(Date(timeIntervalSince1970: 0)),
            "b", "a", .double(.nan), .double(2.5), .boolean(true), .integer(-1), .null,
        ]
        let order = values.sorted { d.compareValues($0, $1) == .orderedAscending }
        #expect(
            order == [
                .null, .integer(-1), .boolean(true), .double(2.5), .double(.nan), "a", "b",
                .date(Date(timeIntervalSince1970: 0)),
                .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
                .uri(URL(string: "a:b")!), .data(Data([1, 0])), .data(Data([2])),
                .transformable(Data([1])),
            ])
    }
}
