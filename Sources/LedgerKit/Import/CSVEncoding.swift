import Foundation

/// The text encoding of a CSV file.
///
/// When ``ImportOptions/encoding`` is `nil`, a file whose bytes are valid UTF-8 is read as
/// UTF-8 and any other file as Latin-1. A UTF-8 byte-order mark (EF BB BF) at the start is
/// dropped in both cases.
public enum CSVEncoding: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// UTF-8; invalid bytes are an error naming their line.
    case utf8 = "utf-8"
    /// ISO-8859-1, with bytes 0x80–0x9F read as Windows-1252 (so 0x80 is `€`), as browsers
    /// and spreadsheet exports treat "Latin-1". Every byte sequence decodes.
    case latin1 = "latin-1"

    /// Reads an `--encoding` argument (any case): `utf-8`, `utf8`; `latin-1`, `latin1`,
    /// `iso-8859-1`, `iso8859-1`, `windows-1252`, `cp1252`. Returns `nil` for anything else.
    public init?(argument: String) {
        switch argument.lowercased() {
        case "utf-8", "utf8": self = .utf8
        case "latin-1", "latin1", "iso-8859-1", "iso8859-1", "iso-latin-1", "windows-1252",
            "cp1252":
            self = .latin1
        default: return nil
        }
    }

    /// `utf-8` or `latin-1`.
    public var description: String { rawValue }
}
