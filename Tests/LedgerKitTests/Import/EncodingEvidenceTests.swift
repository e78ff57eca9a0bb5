import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

/// Files in encodings the importer does not read were taken as Latin-1 garbage without a
/// word (a UTF-16 file without a byte-order mark, a Shift-JIS file); they are refused naming
/// what they look like, and a real guess is reported as a warning.
@Suite struct EncodingEvidenceTests {
    private func decode(_ name: String, forced: CSVEncoding? = nil) throws -> (
        bytes: [UInt8], encoding: CSVEncoding, warnings: [String]
    ) {
        try TextDecoding.decode(Data(contentsOf: CSVFixtures.url(name)), forced: forced, file: name)
    }

    private func refusal(_ name: String, forced: CSVEncoding? = nil) -> LedgerError? {
        do {
            _ = try decode(name, forced: forced)
            return nil
        } catch let error as LedgerError {
            return error
        } catch {
            return nil
        }
    }

    @Test(arguments: [
        ("utf16le-no-bom.csv", "little-endian"), ("utf16be-no-bom.csv", "big-endian"),
    ])
    func utf16WithoutAByteOrderMarkIsRecognisedFromItsZeroBytes(_ name: String, _ order: String) {
        let error = refusal(name)
        #expect(
            error?.message.contains("the file is UTF-16 (\(order), without a byte-order mark")
                == true, "\(error?.message ?? "none")")
        // Forcing Latin-1 does not turn zero bytes into text either.
        #expect(refusal(name, forced: .latin1) != nil)
    }

    @Test func zeroBytesThatAreNotUTF16AreRefusedWithTheirLine() {
        let data = Data("date,amount\n2026-01-01,5\n2026-01-02,\u{0}7\n".utf8)
        let error = try? #require(throws: LedgerError.self) {
            try TextDecoding.decode(data, forced: nil, file: "z.csv")
        }
        #expect(error?.line == 3)
        #expect(error?.message.contains("byte 0x00 is not text") == true)
    }

    @Test func shiftJISIsRecognisedAndRefused() {
        let error = refusal("shift-jis.csv")
        #expect(
            error?.message.contains("looks like Shift-JIS (Japanese)") == true,
            "\(error?.message ?? "none")")
        #expect(error?.line == 1)
    }

    @Test func otherDoubleByteEncodingsAreRecognised() {
        // "日付,金額" in EUC-JP: every character is two bytes above 0x7F.
        let euc: [UInt8] = [0xC6, 0xFC, 0xC9, 0xD5, 0x2C, 0xB6, 0xE2, 0xB3, 0xDB, 0x0A, 0x31, 0x0A]
        let error = try? #require(throws: LedgerError.self) {
            try TextDecoding.decode(Data(euc), forced: nil, file: "e.csv")
        }
        #expect(error?.message.contains("double-byte East Asian encoding") == true)
    }

    @Test func aMostlyUTF8FileWithAStrayLatin1ByteIsRefused() {
        let error = refusal("mixed-utf8-latin1.csv")
        #expect(error?.line == 3)
        #expect(
            error?.message.contains("the file is UTF-8 except byte 0xDF") == true,
            "\(error?.message ?? "none")")
        // Asked for, Latin-1 reads it (the UTF-8 part as Latin-1 too).
        #expect((try? decode("mixed-utf8-latin1.csv", forced: .latin1))?.encoding == .latin1)
    }

    @Test func latin1AndWindows1252TextIsReadWithAWarning() throws {
        let (_, encoding, warnings) = try decode("latin1.csv")
        #expect(encoding == .latin1)
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.hasPrefix("latin1.csv:1: the file is not UTF-8 (byte 0xE4)") == true)
        #expect(warnings.first?.hasSuffix("line 1 reads \"Datum;Betrag;Empfänger\"") == true)
        // Curly quotes and accented letters between ASCII letters are not Shift-JIS, although
        // each such pair of bytes is a valid Shift-JIS character.
        let cp1252: [UInt8] =
            Array("payee\nMacy".utf8) + [0x92] + Array("s\nTrader Joe".utf8) + [0x92]
            + Array("s\n".utf8) + [0xE9, 0x6C, 0xE8, 0x76, 0x65, 0x0A]
        let (text, guessed, said) = try TextDecoding.decode(
            Data(cp1252), forced: nil, file: "q.csv")
        #expect(guessed == .latin1 && said.count == 1)
        #expect(String(decoding: text, as: UTF8.self).contains("Macy’s"))
    }
}
