import Foundation
import ObjectGraph

/// Why a cell, a row or the options could not be read; the one place import wording lives.
///
/// Parsers throw these (typed, so the hot loop never boxes an error); ``ImportError`` wraps
/// them into ``LedgerError``s that name the file and line.
enum ImportProblem: Error, Equatable {
    // Amount cells.
    case amountEmpty
    case amountNoDigits
    case amountUnexpected(String)
    case amountTwoSigns
    case amountUnbalancedParenthesis
    case amountGroupSize(separator: String)
    case amountAfterFraction(String)
    case amountDecimalMismatch(style: DecimalStyle, inferredAt: Int?)
    case amountTooManyDigits
    case amountBelowMinimum(String)
    // Date cells.
    case dateEmpty
    case dateExpected(String, position: Int)
    case dateUnknownMonth(position: Int)
    case dateOutOfRange(String)
    case dateTrailing(position: Int)
    case dateFormat(String)
    // Rows.
    case fieldCount(found: Int, expected: Int, like: Int)
    case debitAndCredit
    case neitherDebitNorCredit
    case typeEmpty

    /// The reason, without the cell's text or place (the caller adds those).
    var reason: String {
        switch self {
        case .amountEmpty: "the cell is empty"
        case .amountNoDigits: "no digits"
        case .amountUnexpected(let s): "unexpected \"\(EchoedText.capped(s))\""
        case .amountTwoSigns: "more than one sign"
        case .amountUnbalancedParenthesis: "unbalanced parenthesis"
        case .amountGroupSize(let sep): "digits grouped by \"\(sep)\" must come in threes"
        case .amountAfterFraction(let s): "\"\(EchoedText.capped(s))\" after the decimal separator"
        case .amountDecimalMismatch(let style, let line):
            "\"\(style == .point ? "," : ".")\" groups thousands in this file (decimal "
                + "\(style == .point ? "point" : "comma")"
                + (line.map { ", inferred from line \($0)" } ?? "")
                + (style == .point ? "); pass --decimal-comma if it is a decimal comma" : ")")
        case .amountTooManyDigits: "more than 18 significant digits"
        case .amountBelowMinimum(let s): "\(s) is below the minimum amount 0.01"
        case .dateEmpty: "the cell is empty"
        case .dateExpected(let what, let pos): "expected \(what) at character \(pos)"
        case .dateUnknownMonth(let pos): "no English month name at character \(pos)"
        case .dateOutOfRange(let what): what
        case .dateTrailing(let pos): "unexpected text from character \(pos)"
        case .dateFormat(let what): what
        case .fieldCount(let found, let expected, let like):
            "the row has \(found) field\(found == 1 ? "" : "s"), expected \(expected) like line \(like)"
        case .debitAndCredit: "both the debit and the credit column hold an amount"
        case .neitherDebitNorCredit: "neither the debit nor the credit column holds an amount"
        case .typeEmpty: "the type cell is empty"
        }
    }
}
