import Foundation
import ObjectGraph

/// The model the store conformance suite runs on: every attribute type, inheritance, a
/// to-one with a derived to-many inverse, an ordered to-many and a many-to-many.
public enum ConformanceModel {
    /// Builds a fresh copy of the model.
    ///
    /// Entities: `Item` (every attribute type; `owner` to-one → `Owner.items`; `tags`
    /// many-to-many ↔ `Tag.items`), `SpecialItem` (inherits `Item`, adds `level`), `Owner`
    /// (`name`, `items` to-many derived from `Item.owner`, `favorites` ordered to-many, no
    /// inverse), `Tag` (`label`).
    public static func make() -> ManagedObjectModel {
        // The model is a constant; a failure here is a bug in this file.
        try! ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item",
                properties: [
                    AttributeDescription(name: "i16", type: .integer16),
                    AttributeDescription(name: "i32", type: .integer32),
                    AttributeDescription(name: "i64", type: .integer64),
                    AttributeDescription(name: "dec", type: .decimal),
                    AttributeDescription(name: "dbl", type: .double),
                    AttributeDescription(name: "flt", type: .float),
                    AttributeDescription(name: "str", type: .string),
                    AttributeDescription(name: "flag", type: .boolean),
                    AttributeDescription(name: "when", type: .date),
                    AttributeDescription(name: "blob", type: .binaryData),
                    AttributeDescription(name: "uid", type: .uuid),
                    AttributeDescription(name: "link", type: .uri),
                    AttributeDescription(name: "payload", type: .transformable),
                    RelationshipDescription(name: "owner", destination: "Owner", inverse: "items"),
                    RelationshipDescription(
                        name: "tags", destination: "Tag", inverse: "items", isToMany: true),
                ]),
            EntityDescription(
                name: "SpecialItem", superentityName: "Item",
                properties: [
                    AttributeDescription(name: "level", type: .integer32)
                ]),
            EntityDescription(
                name: "Owner",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "owner", isToMany: true),
                    RelationshipDescription(
                        name: "favorites", destination: "Item", isToMany: true, isOrdered: true),
                ]),
            EntityDescription(
                name: "Tag",
                properties: [
                    AttributeDescription(name: "label", type: .string),
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "tags", isToMany: true),
                ]),
        ])
    }

    /// Edge values for every attribute type, each in its own `Item` row.
    public static var edgeValues: [[String: AttributeValue]] {
        var rows: [[String: AttributeValue]] = []
        let doubles: [Double] = [
            0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude,
            .greatestFiniteMagnitude, 0.1, 1e-300, 123456789.123456789,
        ]
        let floats: [Float] = [0, -0.0, .nan, .infinity, -.infinity, .leastNonzeroMagnitude, 0.1]
        let strings = [
            "", "plain", "line\nbreak", "tab\tand\r\nCRLF", "quote \" and \\ backslash",
            "\u{2028}\u{2029}", "nul\u{0}byte", "emoji 🧾👩‍👩‍👧", "é vs e\u{301}",
            String(repeating: "x", count: 5000),
        ]
        let decimals = [
            "0", "0.01", "-12.50", "123456789012345678901234567890.123456789",
            "0.0000000000000000000000000001",
        ]
        let count = max(doubles.count, floats.count, strings.count, decimals.count)
        for i in 0..<count {
            var row: [String: AttributeValue] = [:]
            row["i16"] = .integer([Int64(Int16.min), Int64(Int16.max), 0, -1][i % 4])
            row["i32"] = .integer([Int64(Int32.min), Int64(Int32.max), 7][i % 3])
            row["i64"] = .integer([Int64.min, Int64.max, 0, 42][i % 4])
            row["dec"] = .decimal(
                Decimal(
                    string: decimals[i % decimals.count], locale: Locale(identifier: "en_US_POSIX"))!
            )
            row["dbl"] = .double(doubles[i % doubles.count])
            row["flt"] = .float(floats[i % floats.count])
            row["str"] = .string(strings[i % strings.count])
            row["flag"] = .boolean(i % 2 == 0)
            row["when"] = .date(
                Date(timeIntervalSince1970: [0, -1e9, 1.7e9 + 0.123456, 4e9, 1e-6][i % 5]))
            row["blob"] = .data(Data((0..<(i * 7)).map { UInt8(truncatingIfNeeded: $0 * 37) }))
            row["uid"] = .uuid(
                UUID(uuid: (UInt8(i), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)))
            row["link"] = .uri(URL(string: "https://example.com/p?q=\(i)&r=%20#frag")!)
            row["payload"] = .transformable(Data("{\"n\":\(i)}".utf8))
            rows.append(row)
        }
        rows.append([:])  // every value null
        return rows
    }
}
