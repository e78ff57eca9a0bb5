import Foundation
import ObjectGraph

/// Turns a file's bytes into UTF-8 bytes: validates or detects the encoding, drops a UTF-8
/// byte-order mark, and transcodes Latin-1. Everything after this step reads UTF-8 only.
enum TextDecoding {
    /// The UTF-8 bytes of `data`, the encoding they were read as, and warnings.
    ///
    /// Without a forced encoding, valid UTF-8 is read as UTF-8. Other bytes are read as
    /// Latin-1, with a warning showing the first line that holds one, unless they are
    /// evidently something else (see ``EncodingEvidence``): then the file is refused, naming
    /// what it looks like, since reading it as Latin-1 would store garbage.
    ///
    /// - Throws: ``LedgerError`` for a UTF-16 file (with or without a byte-order
    ///   mark), zero bytes, a file that looks like Shift-JIS or another double-byte encoding,
    ///   a mostly-UTF-8 file with stray bytes, or invalid UTF-8 when UTF-8 was asked for —
    ///   each naming the line of the first byte at fault.
    static func decode(_ data: Data, forced: CSVEncoding?, file: String) throws -> (
        bytes: [UInt8], encoding: CSVEncoding, warnings: [String]
    ) {
        var bytes = [UInt8](data)
        if bytes.count >= 2,
            (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)
        {
            throw ImportError.file(
                file, line: 1,
                "the file is UTF-16 (it starts with a UTF-16 byte-order "
                    + "mark); save the export as UTF-8 or Latin-1")
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            bytes.removeFirst(3)
        }
        try bytes.withUnsafeBufferPointer { p in
            guard let zero = p.firstIndex(of: 0) else { return }
            if let order = EncodingEvidence.utf16(p) {
                throw ImportError.file(
                    file, line: 1,
                    "the file is UTF-16 (\(order), without a byte-order mark, judged from its "
                        + "zero bytes); save the export as UTF-8 or Latin-1")
            }
            throw ImportError.file(
                file, line: lineNumber(ofOffset: zero, in: p),
                "byte 0x00 is not text: a CSV export holds no zero bytes "
                    + "(is the file UTF-16 or UTF-32, or not a CSV file?)")
        }
        let invalid = bytes.withUnsafeBufferPointer { firstInvalidUTF8(in: $0) }
        switch (forced, invalid) {
        case (.utf8, let offset?):
            let line = bytes.withUnsafeBufferPointer { lineNumber(ofOffset: offset, in: $0) }
            throw ImportError.file(
                file, line: line,
                String(
                    format: "byte 0x%02X is not valid UTF-8; "
                        + "pass --encoding latin-1 if the file is Latin-1", bytes[offset]))
        case (.utf8, nil), (nil, nil):
            return (bytes, .utf8, [])
        case (.latin1, _):
            return (latin1ToUTF8(bytes), .latin1, [])
        case (nil, let offset?):
            let warning = try bytes.withUnsafeBufferPointer { p in
                try latin1Warning(p, firstInvalid: offset, file: file)
            }
            let decoded = latin1ToUTF8(bytes)
            return (decoded, .latin1, [warning + sample(decoded, line: lineOf(offset, bytes))])
        }
    }

    /// The warning for a file read as Latin-1 because it is not UTF-8, or the error when its
    /// bytes are evidently another encoding.
    private static func latin1Warning(
        _ p: UnsafeBufferPointer<UInt8>, firstInvalid offset: Int, file: String
    ) throws -> String {
        let line = lineNumber(ofOffset: offset, in: p)
        let byte = String(format: "byte 0x%02X", p[offset])
        let retry = "save the export as UTF-8 (or pass --encoding latin-1 if it is Latin-1)"
        if EncodingEvidence.isMostlyUTF8(p) {
            throw ImportError.file(
                file, line: line,
                "the file is UTF-8 except \(byte), which is not (joined from two encodings, or "
                    + "damaged?); fix the file, or pass --encoding latin-1 to read every byte "
                    + "as Latin-1")
        }
        if EncodingEvidence.looksLikeShiftJIS(p) {
            throw ImportError.file(
                file, line: line,
                "the file is not UTF-8 and looks like Shift-JIS (Japanese), which is not "
                    + "read; " + retry)
        }
        if EncodingEvidence.looksLikeDoubleByte(p) {
            throw ImportError.file(
                file, line: line,
                "the file is not UTF-8 and looks like a double-byte East Asian encoding "
                    + "(EUC-JP, EUC-KR, GBK or Big5), which is not read; " + retry)
        }
        return "\(file):\(line): the file is not UTF-8 (\(byte)), so it was read as Latin-1 "
            + "(Windows-1252); pass --encoding latin-1 to say so, or save it as UTF-8 if "
            + "this reads wrong: "
    }

    /// The 1-based line of byte `offset` of `bytes`.
    private static func lineOf(_ offset: Int, _ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { lineNumber(ofOffset: offset, in: $0) }
    }

    /// Line `line` of UTF-8 `bytes`, quoted and capped, for a warning.
    private static func sample(_ bytes: [UInt8], line: Int) -> String {
        var current = 1
        var start = 0
        var i = 0
        while i < bytes.count, current < line {
            if bytes[i] == 0x0A
                || (bytes[i] == 0x0D && (i + 1 >= bytes.count || bytes[i + 1] != 0x0A))
            {
                current += 1
                start = i + 1
            }
            i += 1
        }
        var end = start
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        return "line \(line) reads \"\(EchoedText.capped(text, limit: 80))\""
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence
    /// (overlong forms, surrogates and values above U+10FFFF are ill-formed), or `nil`.
    static func firstInvalidUTF8(in p: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < p.count {
            if p[i] < 0x80 {
                i += 1
                continue
            }
            let length = EncodingEvidence.utf8SequenceLength(p, at: i)
            if length == 0 { return i }
            i += length
        }
        return nil
    }

    /// The 1-based physical line holding byte `offset` (CR LF, CR and LF each end a line).
    static func lineNumber(ofOffset offset: Int, in p: UnsafeBufferPointer<UInt8>) -> Int {
        var line = 1
        var i = 0
        while i < offset {
            if p[i] == 0x0A || (p[i] == 0x0D && (i + 1 >= p.count || p[i + 1] != 0x0A)) {
                line += 1
            }
            i += 1
        }
        return line
    }

    /// Latin-1 bytes as UTF-8, reading 0x80–0x9F as Windows-1252 where it defines them.
    static func latin1ToUTF8(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        for b in bytes {
            if b < 0x80 {
                out.append(b)
                continue
            }
            let scalar = b < 0xA0 ? windows1252[Int(b - 0x80)] : UInt32(b)
            if scalar < 0x800 {
                out.append(UInt8(0xC0 | (scalar >> 6)))
                out.append(UInt8(0x80 | (scalar & 0x3F)))
            } else {
                out.append(UInt8(0xE0 | (scalar >> 12)))
                out.append(UInt8(0x80 | ((scalar >> 6) & 0x3F)))
                out.append(UInt8(0x80 | (scalar & 0x3F)))
            }
        }
        return out
    }

    /// Windows-1252's code points for 0x80–0x9F; the five bytes it leaves undefined keep
    /// their Latin-1 (C1 control) values.
    private static let windows1252: [UInt32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]
}
