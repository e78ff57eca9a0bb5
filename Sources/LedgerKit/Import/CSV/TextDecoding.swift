import Foundation
import ObjectGraph

/// Turns a file's bytes into UTF-8 bytes: validates or detects the encoding, drops a UTF-8
/// byte-order mark, and transcodes Latin-1. Everything after this step reads UTF-8 only.
enum TextDecoding {
    /// The UTF-8 bytes of `data` and the encoding they were read as.
    ///
    /// - Throws: `ObjectGraphError` 134060 for a UTF-16 file, or invalid UTF-8 when UTF-8
    ///   was asked for (naming the line of the first bad byte).
    static func decode(_ data: Data, forced: CSVEncoding?, file: String) throws -> (
        [UInt8], CSVEncoding
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
            return (bytes, .utf8)
        case (.latin1, _), (nil, _?):
            return (latin1ToUTF8(bytes), .latin1)
        }
    }

    /// The offset of the first byte that does not belong to a well-formed UTF-8 sequence
    /// (overlong forms, surrogates and values above U+10FFFF are ill-formed), or `nil`.
    static func firstInvalidUTF8(in p: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = p.count
        var i = 0
        while i < n {
            let b = p[i]
            if b < 0x80 {
                i += 1
                continue
            }
            let (length, low, high): (Int, UInt8, UInt8)
            switch b {
            case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
            case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
            case 0xED: (length, low, high) = (3, 0x80, 0x9F)
            case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
            case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
            case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
            default: return i
            }
            guard i + length <= n, p[i + 1] >= low, p[i + 1] <= high else { return i }
            for k in 2..<length where p[i + k] & 0xC0 != 0x80 { return i }
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
