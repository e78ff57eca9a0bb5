import Foundation
import Testing

@testable import ObjectGraph

/// One escaping for every JSON writer: the store's fast writer and the JSON value writer
/// (model files, fixtures, `--json` output) spell every character the same way.
@Suite struct JSONEscapingTests {
    @Test func bothWritersEscapeEveryCharacterTheSameWay() throws {
        var samples = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) }
        samples += ["\u{2028}", "\u{2029}", "é", "😀", "\u{9B}", "a/b", "\u{E2}\u{80}"]
        samples.append(samples.joined())
        for text in samples {
            let writer = JSONByteWriter()
            writer.append(quoted: text)
            #expect(writer.string == JSONValue.quoted(text), "\(Array(text.unicodeScalars))")
            #expect(try JSONParser.parse(Data(writer.string.utf8)) == .string(text))
        }
    }

    @Test func controlCharactersUseShortEscapesWhereJSONHasThem() {
        #expect(JSONValue.quoted("\u{08}\u{0C}\n\r\t") == #""\b\f\n\r\t""#)
        #expect(JSONValue.quoted("\u{0}\u{1B}\u{1F}") == #""\u0000\u001b\u001f""#)
        #expect(JSONValue.quoted("\"\\/\u{7F}") == "\"\\\"\\\\/\u{7F}\"")
        #expect(JSONValue.quoted("a\u{2028}b\u{2029}") == #""a\u2028b\u2029""#)
    }

    @Test func objectsKeepTheirOrderUnlessSortedAndCompareAsSets() throws {
        let ordered = JSONValue.object([("b", .integer(1)), ("a", .array([.null, .bool(true)]))])
        #expect(ordered.serialized() == #"{"b":1,"a":[null,true]}"#)
        #expect(ordered.serialized(sortingKeys: true) == #"{"a":[null,true],"b":1}"#)
        #expect(ordered == .object(["a": .array([.null, .bool(true)]), "b": .integer(1)]))
        #expect(
            ordered.serialized(pretty: true) == """
                {
                  "b": 1,
                  "a": [
                    null,
                    true
                  ]
                }
                """)
        #expect(JSONObject(["z": .null, "é": .null, "A": .null]).keys == ["A", "z", "é"])
        #expect(
            try JSONParser.parse(Data(#"{"b":1,"a":2}"#.utf8)).serialized() == #"{"b":1,"a":2}"#)
    }

    @Test func foundationObjectGraphsConvertWithSortedKeys() throws {
        let value = try JSONValue(
            jsonObject: [
                "name": "Food", "count": 3, "cleared": true, "note": NSNull(), "share": 0.5,
                "items": [1, "two"],
            ] as [String: Any])
        #expect(
            value.serialized()
                == #"{"cleared":true,"count":3,"items":[1,"two"],"name":"Food","note":null,"share":0.5}"#
        )
        #expect(throws: EncodingError.self) { try JSONValue(jsonObject: Date()) }
        #expect(throws: EncodingError.self) { try JSONValue(jsonObject: Double.nan) }
    }

    @Test func aModelWithLineSeparatorsStaysOnTheHeaderLine() throws {
        let note = "a\u{2028}b\u{2029}c\nd\u{1B}"
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item", properties: [AttributeDescription(name: "n", type: .string)],
                userInfo: ["note": note])
        ])
        let url = TemporaryStoreFiles.next("escaping")
        try JSONLinesStore(model: model, url: url).close()
        let bytes = try Data(contentsOf: url)
        let header = bytes.prefix { $0 != 0x0A }
        #expect(header.count == bytes.count - 1, "the header is the file's only line")
        #expect(!header.contains(0x1B))
        #expect(String(decoding: header, as: UTF8.self).contains(#"a\u2028b\u2029c\nd\u001b"#))
        let stored = try JSONLinesStore.metadata(at: url).model
        #expect(stored[entityName: "Item"]?.userInfo["note"] == note)
    }
}
