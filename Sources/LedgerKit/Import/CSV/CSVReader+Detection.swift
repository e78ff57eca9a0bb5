import Foundation

extension CSVReader {
    /// How many records ``detectDelimiter(in:)`` looks at.
    static let detectionRecords = 20

    /// The delimiter that occurs most often outside quotes in the first records of
    /// `bytes`; on a tie TAB wins, then `;`, then `,`. A file with none of them is `,`.
    ///
    /// - Complexity: O(k), k the bytes of the first ``detectionRecords`` records.
    static func detectDelimiter(in bytes: [UInt8]) -> CSVDelimiter {
        var comma = 0
        var semicolon = 0
        var tab = 0
        var records = 0
        var inQuotes = false
        for b in bytes {
            switch b {
            case UInt8(ascii: "\""): inQuotes.toggle()
            case UInt8(ascii: ",") where !inQuotes: comma += 1
            case UInt8(ascii: ";") where !inQuotes: semicolon += 1
            case 0x09 where !inQuotes: tab += 1
            case 0x0A, 0x0D:
                if !inQuotes { records += 1 }
            default: break
            }
            if records >= detectionRecords { break }
        }
        if tab > 0, tab >= semicolon, tab >= comma { return .tab }
        if semicolon > 0, semicolon >= comma { return .semicolon }
        return .comma
    }
}
