import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// A string read by the scanner (issue 25, twenty-fourth session: ASCII strings of up to
/// fifteen bytes copied straight into the small form) is the string the previous path,
/// `String(decoding:as:)`, made: equal, same bytes, same counts, same order, same hash, same
/// bridged `NSString`; and every refusal keeps its message and byte.
@Suite struct StringReadTests {
    /// The pieces the seeded strings are made of: each piece's JSON spelling and the text it
    /// stands for.
    private static let asciiPieces: [(json: String, text: String)] =
        Array("abcXYZ019 #-:.~".unicodeScalars).map { (String($0), String($0)) }
    private static let widePieces: [(json: String, text: String)] = [
        ("é", "é"), ("€", "€"), ("😀", "😀"), ("ß", "ß"), ("中", "中"),
    ]
    private static let escapePieces: [(json: String, text: String)] = [
        ("\\\"", "\""), ("\\\\", "\\"), ("\\/", "/"), ("\\n", "\n"), ("\\t", "\t"),
        ("\\u00e9", "é"), ("\\ud83d\\ude00", "😀"), ("\\u0001", "\u{01}"),
    ]

    /// Reads one string from `json` (a whole JSON string, quotes included).
    private func read(_ json: String) throws -> String {
        var json = json
        return try json.withUTF8 { utf8 in
            var scanner = JSONScanner(UnsafeRawBufferPointer(utf8))
            return try scanner.readString()
        }
    }

    /// The error reading a string from raw `bytes` (which need not be valid UTF-8) throws.
    private func readError(_ bytes: [UInt8]) -> JSONScanError? {
        CodecWordAtATimeTests.stringError(bytes)
    }

    /// Seeded strings of every UTF-8 length 0–64: plain ASCII, ASCII with one multi-byte
    /// character, and ASCII with one escape; each as its JSON spelling and its text.
    private func table() -> [(json: String, text: String)] {
        var random = SeededRandomNumberGenerator(seed: 2424)
        var table: [(json: String, text: String)] = []
        for length in 0...64 {
            for kind in 0..<3 {
                for _ in 0..<4 {
                    var json = ""
                    var text = ""
                    if kind > 0 && length > 0 {
                        let pieces = kind == 1 ? Self.widePieces : Self.escapePieces
                        let piece = pieces[Int(random.next() % UInt64(pieces.count))]
                        json = piece.json
                        text = piece.text
                    }
                    while text.utf8.count < length {
                        let piece = Self.asciiPieces[
                            Int(random.next() % UInt64(Self.asciiPieces.count))]
                        json += piece.json
                        text += piece.text
                    }
                    table.append(("\"" + json + "\"", text))
                }
            }
        }
        return table
    }

    @Test func stringsOfEveryLengthUpToSixtyFourReadBackAsThePreviousPathMadeThem() throws {
        for (json, text) in table() {
            let read = try read(json)
            // The previous path: the text's bytes through `String(decoding:as:)`.
            let previous = String(decoding: Array(text.utf8), as: UTF8.self)
            #expect(read == previous, "\(json)")
            #expect(Array(read.utf8) == Array(previous.utf8), "\(json)")
            #expect(read.count == previous.count, "\(json)")
            #expect(read.utf8.count == previous.utf8.count, "\(json)")
            #expect(read.utf16.count == previous.utf16.count, "\(json)")
            #expect(Array(read.unicodeScalars) == Array(previous.unicodeScalars), "\(json)")
            #expect(read.hashValue == previous.hashValue, "\(json)")
            #expect(!(read < previous) && !(previous < read), "\(json)")
            #expect(read < previous + "!" && previous + "\u{0}" > read, "\(json)")
            #expect(NSString(string: read).isEqual(to: previous), "\(json)")
            #expect(NSString(string: read).length == (previous as NSString).length, "\(json)")
            // Grown past the small form, it stays the same string as the previous one grown.
            var grown = read
            grown += "0123456789"
            #expect(grown == previous + "0123456789", "\(json)")
            #expect(read.utf8.withContiguousStorageIfAvailable { _ in true } == true, "\(json)")
        }
    }

    @Test func plainASCIIStringsAtTheSmallFormsEdgesReadBackExactly() throws {
        for length in 0...20 {
            let text = String(repeating: "x", count: length)
            let read = try read("\"" + text + "\"")
            #expect(read == text)
            #expect(read.utf8.count == length)
            #expect(Array(read.utf8) == Array(text.utf8))
            #expect(read.isEmpty == (length == 0))
        }
    }

    @Test func invalidUTF8IsRefusedWithTheSameErrorAtEveryLength() {
        let invalid: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFF], [0xFE], [0xC3],
            [0xE2, 0x82], [0xF0, 0x9F, 0x98],
        ]
        for length in 0...64 {
            for bad in invalid {
                for at in Set([0, length / 2, length]) {
                    var content = [UInt8](repeating: 0x61, count: length)
                    content.insert(contentsOf: bad, at: at)
                    let error = readError([0x20, 0x22] + content + [0x22])
                    #expect(error?.message == "string is not valid UTF-8", "\(content)")
                    #expect(error?.offset == 2, "\(content)")
                }
            }
        }
    }

    @Test func rawControlBytesAndUnterminatedStringsAreRefusedAsBefore() {
        for length in 0...32 {
            let content = [UInt8](repeating: 0x62, count: length)
            let control = readError([0x22] + content + [0x01, 0x22])
            #expect(control?.message == "raw control character 0x01 in a string")
            #expect(control?.offset == 1 + length)
            let open = readError([0x22] + content)
            #expect(open?.message == "unterminated string")
            #expect(open?.offset == 0)
        }
    }

    /// Saved titles of every length 0–40 come back equal after the file is reopened (and on
    /// the RAM store, from a fresh context).
    @Test(arguments: ["/dev/null", "file"])
    func titlesOfEveryLengthComeBackAfterReopening(store kind: String) throws {
        let model = try ValueRoundTripTests.model("Note", "title", .string)
        let url = try ValueRoundTripTests.storeURL(kind, file: "s.jsonl")
        func container() throws -> PersistentContainer {
            try ValueRoundTripTests.loaded("Strings", model: model, url: url)
        }
        let titles =
            (0...40).map { length in
                String((0..<length).map { Character(Unicode.Scalar(UInt8(0x41 + $0 % 26))) })
            } + ["é", "naïve café au lait", "line\nbreak \"quoted\"", "😀😀😀😀"]
        var current = try container()
        let context = current.newBackgroundContext()
        try context.performAndWait {
            for title in titles {
                context.insertNewObject(forEntityName: "Note").setValue(title, forKey: "title")
            }
            try context.save()
        }
        if kind == "file" {
            ValueRoundTripTests.close(current)
            current = try container()
        }
        let check = current.newBackgroundContext()
        let back = try check.performAndWait {
            try check.fetch(FetchRequest<ManagedObject>(entityName: "Note")).map {
                $0.value(forKey: "title") as? String ?? "<missing>"
            }
        }
        #expect(back.sorted() == titles.sorted())
        ValueRoundTripTests.close(current)
    }
}
