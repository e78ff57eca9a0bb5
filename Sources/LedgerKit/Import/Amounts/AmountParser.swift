import Foundation

/// Reads an amount cell exactly, in the decimal style of its file.
///
/// Accepts, around the number, in any order: spaces, one sign (`-`, `−`, `+`, before or
/// after), parentheses for a negative (`($85.00)`), and currency symbols or codes (`$`,
/// `€`, `£`, `CHF`, `EUR`, `US$`, …). The number: digits, an optional decimal separator
/// with at least one digit after it (`$.23` has none before), and thousands groups of three
/// digits separated by the other of `.` and `,`, by `'`/`’`, or by a space (no-break and
/// thin spaces included). Everything else is a problem with its reason.
struct AmountParser {
    /// Which of `.` and `,` is the decimal separator.
    let style: DecimalStyle
    /// The line the style was inferred from, if it was inferred (for messages).
    let inferredAt: Int?

    /// The amount in `cell`, with its sign.
    func parse(_ p: UnsafeBufferPointer<UInt8>) throws(ImportProblem) -> Amount {
        let end = p.count
        var i = 0
        var minus: Bool?
        var parenthesis = false
        var sawSomething = false
        while i < end {
            var n = AmountSyntax.spaceLength(p, i, end)
            if n > 0 {
                i += n
                continue
            }
            sawSomething = true
            n = AmountSyntax.minusLength(p, i, end)
            if n > 0 || p[i] == UInt8(ascii: "+") {
                guard minus == nil else { throw .amountTwoSigns }
                minus = n > 0
                i += max(n, 1)
                continue
            }
            if p[i] == UInt8(ascii: "(") {
                guard !parenthesis else { throw .amountUnexpected("(") }
                parenthesis = true
                i += 1
                continue
            }
            n = AmountSyntax.currencyLength(p, i, end)
            if n > 0 {
                i += n
                continue
            }
            break
        }
        guard sawSomething else { throw .amountEmpty }
        let (mantissa, scale) = try readNumber(p, &i, end)
        var closed = false
        while i < end {
            var n = AmountSyntax.spaceLength(p, i, end)
            if n == 0 { n = AmountSyntax.currencyLength(p, i, end) }
            if n > 0 {
                i += n
                continue
            }
            n = AmountSyntax.minusLength(p, i, end)
            if n > 0 || p[i] == UInt8(ascii: "+") {
                guard minus == nil else { throw .amountTwoSigns }
                minus = n > 0
                i += max(n, 1)
                continue
            }
            guard p[i] == UInt8(ascii: ")") else {
                throw .amountUnexpected(AmountSyntax.character(p, i, end))
            }
            guard parenthesis, !closed else { throw .amountUnbalancedParenthesis }
            closed = true
            i += 1
        }
        guard parenthesis == closed else { throw .amountUnbalancedParenthesis }
        if parenthesis, minus != nil { throw .amountTwoSigns }
        return Amount(negative: parenthesis || minus == true, mantissa: mantissa, scale: scale)
    }

    /// Reads digits, thousands groups and the fraction from `i`; leaves `i` after them.
    private func readNumber(
        _ p: UnsafeBufferPointer<UInt8>, _ i: inout Int, _ end: Int
    ) throws(ImportProblem) -> (UInt64, Int) {
        var digits = Digits()
        var groupLength = 0
        var groups = 0
        var lastWasPunctuation = false
        var lastSeparator = 0
        func checkGroup(final: Bool, punctuation: Bool, separatorAt at: Int) throws(ImportProblem) {
            let ok = groups == 0 ? (final || (1...3).contains(groupLength)) : groupLength == 3
            guard ok else {
                if punctuation || lastWasPunctuation {
                    throw .amountDecimalMismatch(style: style, inferredAt: inferredAt)
                }
                throw .amountGroupSize(separator: AmountSyntax.character(p, at, end))
            }
        }
        while i < end {
            let b = p[i]
            if AmountSyntax.isDigit(b) {
                try digits.append(b, fraction: false)
                groupLength += 1
                i += 1
                continue
            }
            if b == style.separator {
                guard i + 1 < end, AmountSyntax.isDigit(p[i + 1]) else {
                    throw .amountUnexpected(AmountSyntax.character(p, i, end))
                }
                try checkGroup(final: true, punctuation: false, separatorAt: lastSeparator)
                i += 1
                while i < end, AmountSyntax.isDigit(p[i]) {
                    try digits.append(p[i], fraction: true)
                    i += 1
                }
                if i < end, let n = separatorLength(p, i, end), i + n < end,
                    AmountSyntax.isDigit(p[i + n])
                {
                    throw .amountAfterFraction(AmountSyntax.character(p, i, end))
                }
                return (digits.mantissa, digits.scale)
            }
            guard groupLength > 0, let n = separatorLength(p, i, end), i + n < end,
                AmountSyntax.isDigit(p[i + n])
            else { break }
            let punctuation = b == style.groupingPunctuation
            try checkGroup(final: false, punctuation: punctuation, separatorAt: i)
            lastWasPunctuation = punctuation
            lastSeparator = i
            groups += 1
            groupLength = 0
            i += n
        }
        guard digits.count > 0 else {
            throw i < end ? .amountUnexpected(AmountSyntax.character(p, i, end)) : .amountNoDigits
        }
        if groups > 0 {
            try checkGroup(final: false, punctuation: false, separatorAt: lastSeparator)
        }
        return (digits.mantissa, digits.scale)
    }

    /// The byte length of a thousands separator (or either of `.` `,`) at `i`, or `nil`.
    private func separatorLength(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, _ end: Int) -> Int? {
        if p[i] == UInt8(ascii: ".") || p[i] == UInt8(ascii: ",") { return 1 }
        let n = max(AmountSyntax.apostropheLength(p, i, end), AmountSyntax.spaceLength(p, i, end))
        return n > 0 ? n : nil
    }
}

/// Accumulates decimal digits into a mantissa, refusing more than 18 significant ones.
private struct Digits {
    var mantissa: UInt64 = 0
    var scale = 0
    var count = 0
    var significant = 0

    mutating func append(_ b: UInt8, fraction: Bool) throws(ImportProblem) {
        count += 1
        if fraction { scale += 1 }
        if mantissa == 0, b == 0x30 { return }
        significant += 1
        guard significant <= 18 else { throw .amountTooManyDigits }
        mantissa = mantissa * 10 + UInt64(b - 0x30)
    }
}
