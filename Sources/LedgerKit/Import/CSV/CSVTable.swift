import Foundation

/// The records of a CSV file: every field's unescaped UTF-8 bytes in one buffer, with each
/// record's fields and the physical line it starts on. Blank records are already left out.
struct CSVTable {
    /// The fields' contents, back to back (quotes removed, doubled quotes undoubled).
    var bytes: [UInt8] = []
    /// Start offset in ``bytes`` of every field, record after record.
    var fieldStarts: [Int] = []
    /// End offset (exclusive) in ``bytes`` of every field.
    var fieldEnds: [Int] = []
    /// Index in ``fieldStarts`` of each record's first field, plus a final sentinel.
    var recordFields: [Int] = [0]
    /// The 1-based physical line each record starts on.
    var recordLines: [Int] = []

    /// The number of records.
    var count: Int { recordLines.count }

    /// The number of fields of record `record`.
    func fieldCount(_ record: Int) -> Int { recordFields[record + 1] - recordFields[record] }

    /// The byte range in ``bytes`` of field `field` (0-based) of record `record`.
    func range(_ record: Int, _ field: Int) -> Range<Int> {
        let k = recordFields[record] + field
        return fieldStarts[k]..<fieldEnds[k]
    }

    /// The field as a string (UTF-8; the reader guarantees valid bytes).
    func string(_ record: Int, _ field: Int) -> String {
        String(decoding: bytes[range(record, field)], as: UTF8.self)
    }

    /// All fields of a record as strings.
    func strings(_ record: Int) -> [String] {
        (0..<fieldCount(record)).map { string(record, $0) }
    }
}
