import Foundation

/// A cursor over a cell's UTF-8 bytes for the date reader.
struct ByteScanner {
    private let bytes: UnsafeBufferPointer<UInt8>
    private var index: Int
    private var end: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        self.index = 0
        self.end = bytes.count
    }

    var atEnd: Bool { index >= end }
    /// The 1-based character position of the cursor within the trimmed cell.
    var position: Int {
        var count = 1
        var i = 0
        while i < index {
            if bytes[i] & 0xC0 != 0x80 { count += 1 }
            i += 1
        }
        return count - leadingTrim
    }
    private var leadingTrim = 0

    /// Drops spaces and tabs at both ends.
    mutating func trim() {
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 {
            index += 1
            leadingTrim += 1
        }
        while end > index, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
    }

    /// Consumes `b` if it is next.
    mutating func take(_ b: UInt8) -> Bool {
        guard index < end, bytes[index] == b else { return false }
        index += 1
        return true
    }

    /// Consumes one or more spaces or tabs; `false` if there is none.
    mutating func skipSpaces() -> Bool {
        let start = index
        while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index > start
    }

    /// Reads as many digits as `digits` allows (greedy up to its upper bound).
    mutating func number(_ digits: ClosedRange<Int>, _ what: String) throws(ImportProblem) -> Int {
        var value = 0
        var count = 0
        while count < digits.upperBound, index < end, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            index += 1
            count += 1
        }
        guard count >= digits.lowerBound else {
            index -= count
            throw .dateExpected(what, position: position)
        }
        return value
    }

    /// Reads a number of one or two digits (or `digits`) and checks it lies in `range`.
    mutating func checkedNumber(
        _ range: ClosedRange<Int>, _ what: String, digits: ClosedRange<Int> = 1...2
    ) throws(ImportProblem) {
        let value = try number(digits, what)
        guard range.contains(value) else {
            throw .dateOutOfRange("\(what) \(value) is not \(range.lowerBound)–\(range.upperBound)")
        }
    }

    /// Reads an English month name, full or abbreviated, any case; returns 1–12.
    mutating func monthName() throws(ImportProblem) -> Int {
        var letters: [UInt8] = []
        var i = index
        while i < end, letters.count < 10, (bytes[i] | 0x20) >= 0x61, (bytes[i] | 0x20) <= 0x7A {
            letters.append(bytes[i] | 0x20)
            i += 1
        }
        let word = String(decoding: letters, as: UTF8.self)
        for (k, name) in CivilDate.monthNames.enumerated() {
            let full = name.lowercased()
            if word == full || word == full.prefix(3) || (k == 8 && word == "sept") {
                index = i
                return k + 1
            }
        }
        throw .dateUnknownMonth(position: position)
    }

    /// `date` if the cursor is at the end, else the trailing-text problem.
    func end(_ date: CivilDate) throws(ImportProblem) -> CivilDate {
        guard atEnd else { throw .dateTrailing(position: position) }
        return date
    }
}
