import Foundation
import ObjectGraph

/// A CSV column, named by its 1-based position or by its header text.
///
/// Numbers count from 1, as `--date-column 3` does on the command line. A name matches a
/// header cell exactly after trimming spaces; when no cell matches exactly, a single
/// case-insensitive match is accepted. Names need a header row.
///
/// ```swift
/// let byNumber: ColumnReference = 3
/// let byName: ColumnReference = "Date de valeur"
/// let fromFlag = ColumnReference(argument: "5")   // .number(5)
/// ```
public enum ColumnReference: Sendable, Hashable, CustomStringConvertible,
    ExpressibleByIntegerLiteral, ExpressibleByStringLiteral
{
    /// The 1-based column number.
    case number(Int)
    /// The header text of the column.
    case name(String)

    /// Reads a command-line argument: all ASCII digits is a column number, anything else
    /// a header name.
    public init(argument: String) {
        if !argument.isEmpty, argument.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let number = Int(argument)
        {
            self = .number(number)
        } else {
            self = .name(argument)
        }
    }

    /// A column number, e.g. `3`.
    public init(integerLiteral value: Int) { self = .number(value) }

    /// A header name, e.g. `"Amount"`.
    public init(stringLiteral value: String) { self = .name(value) }

    /// `column 3` or `column "Amount"`, as error messages show it.
    public var description: String {
        switch self {
        case .number(let n): "column \(n)"
        case .name(let name): "column \"\(EchoedText.capped(name))\""
        }
    }
}
