import Foundation

extension DateFormat {
    /// Reads the date in `cell` (UTF-8 bytes; surrounding spaces and tabs ignored).
    func parse(_ cell: UnsafeBufferPointer<UInt8>) throws(ImportProblem) -> CivilDate {
        var scanner = ByteScanner(cell)
        scanner.trim()
        guard !scanner.atEnd else { throw .dateEmpty }
        guard let tokens else { return try parseISO(&scanner) }
        var year = 0
        var month = 0
        var day = 0
        for token in tokens {
            switch token {
            case .literal(let b):
                guard scanner.take(b) else {
                    throw .dateExpected(
                        "\"\(Character(Unicode.Scalar(b)))\"", position: scanner.position)
                }
            case .space:
                guard scanner.skipSpaces() else {
                    throw .dateExpected("a space", position: scanner.position)
                }
            case .year4: year = try scanner.number(4...4, "a 4-digit year (%Y)")
            case .year2:
                let yy = try scanner.number(2...2, "a 2-digit year (%y)")
                year = yy <= 68 ? 2000 + yy : 1900 + yy
            case .month: month = try scanner.number(1...2, "a month (%m)")
            case .day: day = try scanner.number(1...2, "a day (%d)")
            case .monthName: month = try scanner.monthName()
            case .hour: try scanner.checkedNumber(0...23, "an hour (%H)")
            case .minute: try scanner.checkedNumber(0...59, "a minute (%M)")
            case .second: try scanner.checkedNumber(0...60, "a second (%S)")
            }
        }
        guard scanner.atEnd else { throw .dateTrailing(position: scanner.position) }
        return try CivilDate.make(year: year, month: month, day: day)
    }

    private func parseISO(_ s: inout ByteScanner) throws(ImportProblem) -> CivilDate {
        let year = try s.number(4...4, "a 4-digit year")
        let extended = s.take(UInt8(ascii: "-"))
        let month = try s.number(2...2, "a 2-digit month")
        if extended, !s.take(UInt8(ascii: "-")) {
            throw .dateExpected("\"-\"", position: s.position)
        }
        let day = try s.number(2...2, "a 2-digit day")
        let date = try CivilDate.make(year: year, month: month, day: day)
        if s.atEnd { return date }
        guard s.take(UInt8(ascii: "T")) || s.take(UInt8(ascii: " ")) else {
            throw .dateTrailing(position: s.position)
        }
        try s.checkedNumber(0...23, "a 2-digit hour", digits: 2...2)
        guard s.take(UInt8(ascii: ":")) else { throw .dateExpected("\":\"", position: s.position) }
        try s.checkedNumber(0...59, "a 2-digit minute", digits: 2...2)
        if s.take(UInt8(ascii: ":")) {
            try s.checkedNumber(0...60, "a 2-digit second", digits: 2...2)
            if s.take(UInt8(ascii: ".")) || s.take(UInt8(ascii: ",")) {
                _ = try s.number(1...9, "a fraction of a second")
            }
        }
        if s.take(UInt8(ascii: "Z")) || s.atEnd { return try s.end(date) }
        guard s.take(UInt8(ascii: "+")) || s.take(UInt8(ascii: "-")) else {
            throw .dateTrailing(position: s.position)
        }
        try s.checkedNumber(0...23, "a 2-digit offset hour", digits: 2...2)
        let colon = s.take(UInt8(ascii: ":"))
        if colon || !s.atEnd {
            try s.checkedNumber(0...59, "a 2-digit offset minute", digits: 2...2)
        }
        return try s.end(date)
    }
}
