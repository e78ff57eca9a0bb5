import Foundation

/// Which character separates the fraction in amounts: `12.50` or `12,50`.
///
/// The other one of `.` and `,` may then group thousands, as may `'`, `’` and spaces
/// (including no-break and thin spaces). When ``ImportOptions/decimalStyle`` is `nil` the
/// importer infers the style per file from the first amount that settles it (`15,00`,
/// `1.234,56`, `12.5`, `1,000,000`); a file where no amount settles it reads as `.point`.
public enum DecimalStyle: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `1,234.56`: the decimal separator is `.`.
    case point
    /// `1.234,56`: the decimal separator is `,` (`--decimal-comma`).
    case comma

    /// The decimal separator's byte.
    var separator: UInt8 { self == .point ? UInt8(ascii: ".") : UInt8(ascii: ",") }

    /// The other of `.` and `,`, which groups thousands in this style.
    var groupingPunctuation: UInt8 { self == .point ? UInt8(ascii: ",") : UInt8(ascii: ".") }

    /// `point` or `comma`.
    public var description: String { rawValue }
}
