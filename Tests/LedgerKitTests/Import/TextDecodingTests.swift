import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct TextDecodingTests {
    @Test func validUTF8IsReadAsUTF8AndItsByteOrderMarkDropped() throws {
        let (bytes, encoding, warnings) = try TextDecoding.decode(
            Data([0xEF, 0xBB, 0xBF] + Array("é,1".utf8)), forced: nil, file: "f")
        #expect(encoding == .utf8)
        #expect(bytes == Array("é,1".utf8))
        #expect(warnings.isEmpty)
    }

    @Test func invalidUTF8FallsBackToLatin1ReadingC1BytesAsWindows1252() throws {
        let (bytes, encoding, warnings) = try TextDecoding.decode(
            Data([0x43, 0x61, 0x66, 0xE9, 0x20, 0x80, 0x81, 0xFF]),
            forced: nil, file: "f")
        #expect(encoding == .latin1)
        #expect(String(decoding: bytes, as: UTF8.self) == "Café €\u{81}ÿ")
        // A guess, so it is said, with the first line that shows it.
        #expect(
            warnings == [
                "f:1: the file is not UTF-8 (byte 0xE9), so it was read as Latin-1 "
                    + "(Windows-1252); pass --encoding latin-1 to say so, or save it as UTF-8 "
                    + "if this reads wrong: line 1 reads \"Café €\u{81}ÿ\""
            ])
    }

    @Test func latin1CanBeForcedOnBytesThatAreAlsoValidUTF8() throws {
        let (bytes, encoding, warnings) = try TextDecoding.decode(
            Data([0xC3, 0xA9]), forced: .latin1, file: "f")
        #expect(encoding == .latin1)
        #expect(String(decoding: bytes, as: UTF8.self) == "Ã©")
        #expect(warnings.isEmpty)
    }

    @Test func forcedUTF8RejectsInvalidBytesNamingTheirLine() throws {
        let data = Data(Array("a\r\nb\rc\n".utf8) + [0x64, 0xE9])
        let error = try #require(throws: LedgerError.self) {
            try TextDecoding.decode(data, forced: .utf8, file: "x.csv")
        }
        #expect(error.line == 4)
        #expect(
            error.message
                == "x.csv:4: byte 0xE9 is not valid UTF-8; pass --encoding latin-1 if the file is Latin-1"
        )
    }

    @Test func utf16IsRefusedWithAClearMessage() throws {
        let error = try #require(throws: LedgerError.self) {
            try TextDecoding.decode(Data([0xFF, 0xFE, 0x61, 0x00]), forced: nil, file: "u.csv")
        }
        #expect(error.message.contains("UTF-16"))
    }

    @Test(
        arguments: [
            ([0xC0, 0xAF], 0),  // overlong
            ([0x61, 0xED, 0xA0, 0x80], 1),  // surrogate
            ([0xF4, 0x90, 0x80, 0x80], 0),  // above U+10FFFF
            ([0x61, 0x62, 0xE2, 0x82], 2),  // truncated
            ([0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0x98, 0x80], nil),
        ] as [([UInt8], Int?)])
    func findsTheFirstIllFormedUTF8Byte(_ bytes: [UInt8], _ offset: Int?) {
        #expect(bytes.withUnsafeBufferPointer(TextDecoding.firstInvalidUTF8(in:)) == offset)
    }

    @Test(arguments: [
        ("utf8", CSVEncoding.utf8), ("UTF-8", .utf8), ("latin1", .latin1), ("ISO-8859-1", .latin1),
        ("cp1252", .latin1),
    ])
    func readsEncodingArguments(_ argument: String, _ expected: CSVEncoding) {
        #expect(CSVEncoding(argument: argument) == expected)
    }

    @Test func rejectsUnknownEncodingArguments() {
        #expect(CSVEncoding(argument: "utf-16") == nil)
    }
}
