import Foundation
import ObjectGraph

/// Splits UTF-8 bytes into CSV records: RFC 4180 plus what real bank exports do.
///
/// - Records end at LF, CR LF or a lone CR; the last may lack a line break.
/// - A field that starts with `"` is quoted: it may hold delimiters, line breaks and `""`
///   (one quote); spaces or tabs between its closing quote and the next delimiter are
///   ignored. A quote inside an unquoted field is an ordinary character.
/// - A record whose fields are all empty or blank (spaces and tabs only) is skipped, so
///   blank lines and lines of bare delimiters vanish.
/// - Each record remembers the 1-based physical line it starts on; line breaks inside
///   quoted fields count.
///
/// Works on bytes and unescapes fields in place, so reading costs one pass and no copy.
struct CSVReader {
    /// The field separator.
    let delimiter: UInt8
    /// The file name used in error messages.
    let file: String

    /// Reads every record of `bytes` (UTF-8, no byte-order mark).
    ///
    /// - Throws: ``LedgerError`` for a quoted field that never closes, or text
    ///   between a closing quote and the next delimiter.
    func read(_ bytes: [UInt8]) throws -> CSVTable {
        var table = CSVTable()
        var buffer = bytes
        let problem: (line: Int, reason: String)? = buffer.withUnsafeMutableBufferPointer { p in
            scan(p, into: &table)
        }
        if let problem { throw ImportError.file(file, line: problem.line, problem.reason) }
        table.bytes = buffer
        return table
    }

    private func scan(_ p: UnsafeMutableBufferPointer<UInt8>, into t: inout CSVTable) -> (
        line: Int, reason: String
    )? {
        let quote = UInt8(ascii: "\"")
        let cr: UInt8 = 0x0D
        let lf: UInt8 = 0x0A
        let delim = delimiter
        let n = p.count
        var r = 0
        var w = 0
        var line = 1
        while r < n {
            let recordLine = line
            let firstField = t.fieldStarts.count
            fields: while true {
                let start = w
                if r < n, p[r] == quote {
                    let quoteLine = line
                    r += 1
                    while true {
                        guard r < n else {
                            return (quoteLine, "a quoted field opened here is never closed")
                        }
                        let c = p[r]
                        if c == quote {
                            if r + 1 < n, p[r + 1] == quote {
                                p[w] = quote
                                w += 1
                                r += 2
                                continue
                            }
                            r += 1
                            break
                        }
                        if c == lf || (c == cr && (r + 1 >= n || p[r + 1] != lf)) { line += 1 }
                        p[w] = c
                        w += 1
                        r += 1
                    }
                    while r < n, p[r] == 0x20 || (p[r] == 0x09 && delim != 0x09) { r += 1 }
                    if r < n, p[r] != delim, p[r] != cr, p[r] != lf {
                        return (line, "unexpected text after the closing quote of a quoted field")
                    }
                } else {
                    while r < n {
                        let c = p[r]
                        if c == delim || c == cr || c == lf { break }
                        p[w] = c
                        w += 1
                        r += 1
                    }
                }
                t.fieldStarts.append(start)
                t.fieldEnds.append(w)
                guard r < n else { break fields }
                let c = p[r]
                r += 1
                if c == delim { continue fields }
                if c == cr, r < n, p[r] == lf { r += 1 }
                line += 1
                break fields
            }
            if isBlank(p, t, from: firstField) {
                t.fieldStarts.removeSubrange(firstField...)
                t.fieldEnds.removeSubrange(firstField...)
            } else {
                t.recordFields.append(t.fieldStarts.count)
                t.recordLines.append(recordLine)
            }
        }
        return nil
    }

    private func isBlank(_ p: UnsafeMutableBufferPointer<UInt8>, _ t: CSVTable, from first: Int)
        -> Bool
    {
        for k in first..<t.fieldStarts.count {
            for i in t.fieldStarts[k]..<t.fieldEnds[k] where p[i] != 0x20 && p[i] != 0x09 {
                return false
            }
        }
        return true
    }
}
