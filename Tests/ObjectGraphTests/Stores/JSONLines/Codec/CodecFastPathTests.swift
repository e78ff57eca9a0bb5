import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// The reader's shortcuts (plain integers, UUIDs in canonical form, entity names as written)
/// accept exactly what the general paths accept and hand everything else to them.
@Suite struct CodecFastPathTests {
    /// The row spelled by `text`, read by `codec`.
    private static func row(_ text: String, _ codec: RowCodec) throws -> StoreRow {
        var text = text
        return try text.withUTF8 { utf8 in
            var s = JSONScanner(UnsafeRawBufferPointer(utf8))
            return try codec.read(&s)
        }
    }

    private func int64(_ text: String) throws -> (Int64, Int) {
        var text = text
        return try text.withUTF8 { utf8 in
            var s = JSONScanner(UnsafeRawBufferPointer(utf8))
            let v = try s.readInt64()
            return (v, s.position)
        }
    }

    @Test func integersReadTheSameOnEitherPath() throws {
        let cases: [(String, Int64, Int)] = [
            ("7", 7, 1), (" 42,", 42, 3), ("123456789012345678", 123_456_789_012_345_678, 18),
            ("1234567890123456789", 1_234_567_890_123_456_789, 19),
            ("9223372036854775807]", .max, 19), ("-9223372036854775808", .min, 20),
            ("0", 0, 1), ("-5", -5, 2), ("10}", 10, 2),
        ]
        for (text, value, end) in cases {
            let (v, position) = try int64(text)
            #expect(v == value && position == end, "\(text)")
        }
        for bad in ["12.5", "12e3", "12E3", "9223372036854775808", "01", "1.", "-", "x", ""] {
            #expect(throws: JSONScanError.self, "\(bad)") { _ = try int64(bad) }
        }
    }

    @Test func uuidsInAnyAcceptedSpellingReadTheSame() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        for text in [
            "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F\"", " \"e621e1f8-c36c-495a-93fc-0c247a3e6e5f\"",
            "\"\\u0045621E1F8-C36C-495A-93FC-0C247A3E6E5F\"",
        ] {
            #expect(try AttributeValue(canonicalJSON: text, as: .uuid) == .uuid(uuid), "\(text)")
        }
        for bad in [
            "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5\"", "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5G\"",
            "\"E621E1F8+C36C-495A-93FC-0C247A3E6E5F\"", "\"E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
        ] {
            #expect(throws: ObjectGraphError.self, "\(bad)") {
                _ = try AttributeValue(canonicalJSON: bad, as: .uuid)
            }
        }
    }

    @Test func entityNamesAreFoundWhetherEscapedOrNot() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Exp", properties: [AttributeDescription(name: "n", type: .integer64)]),
            EntityDescription(
                name: "Expense", properties: [AttributeDescription(name: "n", type: .integer64)]),
            EntityDescription(name: "Base", isAbstract: true, properties: []),
        ])
        let codec = RowCodec(model: model, storeIdentifier: "S", path: "test")
        func read(_ text: String) throws -> StoreRow { try Self.row(text, codec) }
        #expect(try read("[\"Exp\",1,1,5]").objectID.entity.name == "Exp")
        #expect(try read("[\"Expense\",2,1,5]").objectID.entity.name == "Expense")
        #expect(try read("[ \"Exp\\u0065nse\",3,1,5]").objectID.entity.name == "Expense")
        #expect(throws: JSONScanError.self) { _ = try read("[\"Expenses\",1,1,5]") }
        #expect(throws: JSONScanError.self) { _ = try read("[\"Base\",1,1]") }
    }

    /// Entity names are told by two word compares when their quoted name fits 16 bytes and
    /// 16 bytes of the line remain, and byte by byte otherwise: the same entity either way,
    /// abstract entities and near-misses refused (issue 25, thirteenth session).
    @Test func entityNamesOfEveryLengthAreFoundWithinAWordOrBeyondIt() throws {
        let names = [
            "Base", "A", "Abcdefghijklm", "Abcdefghijklmn", "Abcdefghijklmno",
            "Abcdefghijklmnopqrst",
        ]
        let model = try ManagedObjectModel(
            entities: names.map { name in
                EntityDescription(
                    name: name, isAbstract: name == "Base",
                    properties: name == "Base"
                        ? [] : [AttributeDescription(name: "n", type: .integer64)])
            })
        let codec = RowCodec(model: model, storeIdentifier: "S", path: "test")
        let padding = String(repeating: " ", count: 20)
        for name in names.dropFirst() {
            for tail in ["", padding] {
                let row = try Self.row("[\"\(name)\",4,1,5]\(tail)", codec)
                #expect(row.objectID.entity.name == name && row.values == [.attribute(.integer(5))])
            }
        }
        for bad in ["Abcdefghijklmnp", "Abcdefghijkl", "a", "Abcdefghijklmnopqrs", "Base"] {
            #expect(throws: JSONScanError.self, "\(bad)") {
                _ = try Self.row("[\"\(bad)\",4,1,5]\(padding)", codec)
            }
        }
    }

    @Test func uuidsAreWrittenAsFoundationSpellsThemInUppercase() throws {
        var random = SeededRandomNumberGenerator(seed: 21)
        var samples = [
            UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)),
            UUID(
                uuid: (
                    255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255
                )),
            UUID(
                uuid: (
                    0x09, 0x0A, 0x9A, 0xA9, 0x0F, 0xF0, 0x19, 0x91, 0xAB, 0xCD, 0xEF, 0x12, 0x34,
                    0x56, 0x78, 0x9A
                )),
        ]
        for _ in 0..<20_000 {
            let a = random.next()
            let b = random.next()
            var bytes = [UInt8](repeating: 0, count: 16)
            for k in 0..<8 {
                bytes[k] = UInt8(truncatingIfNeeded: a >> (8 * k))
                bytes[8 + k] = UInt8(truncatingIfNeeded: b >> (8 * k))
            }
            samples.append(
                UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6],
                        bytes[7],
                        bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14],
                        bytes[15]
                    )))
        }
        for uuid in samples {
            let text = try AttributeValue.uuid(uuid).canonicalJSON(as: .uuid)
            #expect(text == "\"\(uuid.uuidString)\"")
            #expect(try AttributeValue(canonicalJSON: text, as: .uuid) == .uuid(uuid))
        }
    }

    /// A row's values land in their slots, with `.notStored` for the slots a row does not
    /// keep (transient attributes, to-many relationships), and a row with too few or too many
    /// values, or a malformed value, is refused with the same offset and message whether its
    /// values array is grown or made at its size.
    @Test func rowValuesLandInTheirSlotsWithUnstoredSlotsBetween() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Tag",
                properties: [
                    AttributeDescription(name: "scratch", type: .string, isTransient: true),
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "tag", isToMany: true),
                    AttributeDescription(name: "weight", type: .double),
                    AttributeDescription(name: "cache", type: .integer64, isTransient: true),
                ]),
            EntityDescription(
                name: "Item",
                properties: [
                    RelationshipDescription(name: "tag", destination: "Tag", inverse: "items")
                ]),
        ])
        let codec = RowCodec(model: model, storeIdentifier: "S", path: "test")
        func read(_ text: String) throws -> StoreRow { try Self.row(text, codec) }
        let row = try read("[\"Tag\",7,2,\"red\",1.5]")
        #expect(
            row.values == [
                .notStored, .attribute(.string("red")), .notStored, .attribute(.double(1.5)),
                .notStored,
            ])
        #expect(row.version == 2 && row.objectID.primaryKey == 7)
        #expect(try read("[\"Item\",3,1,7]").values == [.toOne(row.objectID)])
        #expect(try read("[\"Item\",3,1,null]").values == [.toOne(nil)])
        /// The error reading `text` throws (`nil` when it reads).
        func failure(_ text: String) -> JSONScanError? {
            do {
                _ = try read(text)
                return nil
            } catch {
                return error as? JSONScanError
            }
        }
        let short = failure("[\"Tag\",7,2,\"red\"]")
        #expect(short?.offset == 16)
        #expect(short?.message == "Tag rows have 2 values; expected ',', found ']'")
        let long = failure("[\"Tag\",7,2,\"red\",1.5,3]")
        #expect(long?.offset == 20)
        #expect(long?.message == "Tag rows have 2 values; expected ']', found ','")
        let trailing = failure("[\"Tag\",7,2,\"red\",1.5x]")
        #expect(trailing?.offset == 20)
        #expect(trailing?.message == "Tag rows have 2 values; expected ']', found 'x'")
        let malformed = failure("[\"Tag\",7,2,\"red\",-]")
        #expect(malformed?.offset == 18)
        #expect(malformed?.message.hasPrefix("Tag.weight: ") == true)
    }
}
