import Foundation

/// What a file's bytes say about an encoding the importer does not read (UTF-16 without a
/// byte-order mark, Shift-JIS, other double-byte East Asian encodings) or a file that mixes
/// UTF-8 with another encoding: each would otherwise be read as Latin-1 and turn into
/// garbage without a word.
///
/// The tests are evidence, not proof; each is chosen so that ordinary Latin-1 and
/// Windows-1252 text (accented letters between ASCII letters, curly quotes, `€`) does not
/// trigger it. A file they wrongly accuse is still read with `--encoding latin-1`.
enum EncodingEvidence {
    /// UTF-16 without a byte-order mark, judged from where the zero bytes fall: ASCII text in
    /// UTF-16 has a zero in every other byte. `"little-endian"`, `"big-endian"`, or `nil`.
    static func utf16(_ p: UnsafeBufferPointer<UInt8>) -> String? {
        let sample = min(p.count, 1 << 16) & ~1
        guard sample >= 4 else { return nil }
        var even = 0
        var odd = 0
        for i in 0..<sample where p[i] == 0 {
            if i & 1 == 0 { even += 1 } else { odd += 1 }
        }
        let half = sample / 2
        if odd * 10 >= half * 3, even * 10 < odd { return "little-endian" }
        if even * 10 >= half * 3, odd * 10 < even { return "big-endian" }
        return nil
    }

    /// Whether the bytes are mostly well-formed UTF-8 with some bytes that are not: a file
    /// joined from two encodings, or damaged. Read as Latin-1, its UTF-8 text would become
    /// `Ã©`-style garbage.
    static func isMostlyUTF8(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var high = 0
        var inSequences = 0
        var i = 0
        while i < p.count {
            guard p[i] >= 0x80 else {
                i += 1
                continue
            }
            let length = utf8SequenceLength(p, at: i)
            if length > 0 {
                high += length
                inSequences += length
                i += length
            } else {
                high += 1
                i += 1
            }
        }
        return inSequences >= 4 && inSequences * 2 >= high
    }

    /// Whether the bytes read as Japanese in Shift-JIS: every byte fits Shift-JIS, and its
    /// two-byte characters (at least three) mostly come in runs, as Japanese words do. In
    /// Latin-1 text an accented letter followed by a letter also fits Shift-JIS, but such
    /// pairs stand alone between ASCII letters.
    static func looksLikeShiftJIS(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var characters = 0
        var inRuns = 0
        var previousWasDouble = false
        var i = 0
        while i < p.count {
            let b = p[i]
            if b < 0x80 || (0xA1...0xDF).contains(b) {
                previousWasDouble = false
                i += 1
                continue
            }
            guard (0x81...0x9F).contains(b) || (0xE0...0xFC).contains(b), i + 1 < p.count,
                (0x40...0x7E).contains(p[i + 1]) || (0x80...0xFC).contains(p[i + 1])
            else { return false }
            characters += 1
            if previousWasDouble { inRuns += 1 }
            previousWasDouble = true
            i += 2
        }
        return characters >= 3 && inRuns * 2 >= characters
    }

    /// Whether the bytes look like a double-byte East Asian encoding (EUC-JP, EUC-KR, GBK,
    /// Big5): most bytes above 0x7F come in runs of two or more, at least three pairs.
    /// Latin-1 text puts its accented letters between ASCII ones.
    static func looksLikeDoubleByte(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
        var high = 0
        var pairs = 0
        var run = 0
        for b in p {
            if b >= 0x80 {
                high += 1
                run += 1
            } else {
                pairs += run / 2
                run = 0
            }
        }
        pairs += run / 2
        return pairs >= 3 && pairs * 2 * 10 >= high * 6
    }

    /// The length of the well-formed UTF-8 sequence starting at `i` (2–4), or 0.
    static func utf8SequenceLength(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b = p[i]
        let (length, low, high): (Int, UInt8, UInt8)
        switch b {
        case 0xC2...0xDF: (length, low, high) = (2, 0x80, 0xBF)
        case 0xE0: (length, low, high) = (3, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, low, high) = (3, 0x80, 0xBF)
        case 0xED: (length, low, high) = (3, 0x80, 0x9F)
        case 0xF0: (length, low, high) = (4, 0x90, 0xBF)
        case 0xF1...0xF3: (length, low, high) = (4, 0x80, 0xBF)
        case 0xF4: (length, low, high) = (4, 0x80, 0x8F)
        default: return 0
        }
        guard i + length <= p.count, p[i + 1] >= low, p[i + 1] <= high else { return 0 }
        for k in 2..<length where p[i + k] & 0xC0 != 0x80 { return 0 }
        return length
    }
}
