import Foundation

/// The byte that separates fields in a CSV file: comma, semicolon or TAB.
///
/// When ``ImportOptions/delimiter`` is `nil`, the importer detects it by counting each
/// candidate outside quoted fields over the first records; on a tie TAB wins, then `;`.
public enum CSVDelimiter: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `,` (RFC 4180).
    case comma = ","
    /// `;`, common where the decimal separator is a comma.
    case semicolon = ";"
    /// TAB (U+0009), as in "tab-separated values".
    case tab = "\t"

    /// Reads a `--delimiter` argument: `,` `;`, a literal TAB or the two characters `\t`,
    /// or the words `comma`, `semicolon`, `tab` (any case). Returns `nil` for anything else.
    public init?(argument: String) {
        switch argument.lowercased() {
        case ",", "comma": self = .comma
        case ";", "semicolon": self = .semicolon
        case "\t", "tab", "\\t": self = .tab
        default: return nil
        }
    }

    /// The delimiter's byte.
    public var byte: UInt8 {
        switch self {
        case .comma: UInt8(ascii: ",")
        case .semicolon: UInt8(ascii: ";")
        case .tab: 0x09
        }
    }

    /// `,`, `;` or `tab`, as messages and `--json` output show it.
    public var description: String { self == .tab ? "tab" : rawValue }
}
