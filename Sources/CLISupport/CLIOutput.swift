import Foundation

/// Where a command writes: standard output and error, or buffers in tests.
public final class CLIOutput: @unchecked Sendable {
    // Sendable: the buffers are guarded by `lock`.
    private let lock = NSLock()
    private let capture: Bool
    private var outBuffer = ""
    private var errBuffer = ""

    private init(capture: Bool) { self.capture = capture }

    /// Writes to the process's standard output and error.
    public static var standard: CLIOutput { CLIOutput(capture: false) }
    /// Collects output in memory (``stdout``, ``stderr``), for tests.
    public static func capturing() -> CLIOutput { CLIOutput(capture: true) }

    /// Writes a line (a newline is added) to standard output.
    public func out(_ text: String) {
        if capture {
            lock.withLock { outBuffer += text + "\n" }
        } else {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    /// Writes a line (a newline is added) to standard error.
    public func err(_ text: String) {
        if capture {
            lock.withLock { errBuffer += text + "\n" }
        } else {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Everything written to standard output (capturing outputs only).
    public var stdout: String { lock.withLock { outBuffer } }
    /// Everything written to standard error (capturing outputs only).
    public var stderr: String { lock.withLock { errBuffer } }

    /// Writes `value` as JSON (sorted keys, pretty) to standard output.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when `value` is not JSON-serialisable.
    public func json(_ value: Any) throws {
        guard JSONSerialization.isValidJSONObject(value) else {
            throw CLIError.failure("internal error: output is not valid JSON")
        }
        let data = try JSONSerialization.data(
            withJSONObject: value, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        out(String(decoding: data, as: UTF8.self))
    }

    /// Rows as an aligned text table: the first row is the header, columns are two spaces
    /// apart, `rightAligned` columns (numbers) are padded on the left, trailing spaces are
    /// dropped, and `ruled` puts a line of dashes under the header.
    public func table(_ rows: [[String]], rightAligned: Set<Int> = [], ruled: Bool = false) {
        guard let header = rows.first else { return }
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], cell.count)
            }
        }
        var lines = rows
        if ruled { lines.insert(widths.map { String(repeating: "-", count: $0) }, at: 1) }
        for row in lines {
            let cells = row.enumerated().map { i, cell -> String in
                let pad = String(repeating: " ", count: max(0, widths[i] - cell.count))
                return rightAligned.contains(i) ? pad + cell : cell + pad
            }
            out(
                cells.joined(separator: "  ").replacingOccurrences(
                    of: "\\s+$", with: "", options: .regularExpression))
        }
    }

    /// `text` with control characters made visible, for echoing user input in messages:
    /// C0 controls other than newline and tab, DEL and C1 controls become `\u{XX}` escapes,
    /// so a file name or value holding an escape sequence cannot drive the terminal.
    public static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                result.append(
                    contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                        .unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    private static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 0x0A && v != 0x09) || (v >= 0x7F && v <= 0x9F)
    }

    /// A one-line description of any error (an `ObjectGraphError`'s message, else the text).
    public static func describe(_ error: any Error) -> String {
        if let localized = (error as? any LocalizedError)?.errorDescription { return localized }
        return "\(error)"
    }
}
