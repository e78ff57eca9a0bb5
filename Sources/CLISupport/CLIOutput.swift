import Foundation
import ObjectGraph

/// Where a command writes: standard output and error, or buffers in tests.
package final class CLIOutput: @unchecked Sendable {
    // Sendable: the buffers are guarded by `lock`.
    private let lock = NSLock()
    private let capture: Bool
    private var outBuffer = ""
    private var errBuffer = ""

    private let progressBars: ((_ label: String) -> ProgressBar)?

    private init(capture: Bool, progressBars: ((_ label: String) -> ProgressBar)? = nil) {
        self.capture = capture
        self.progressBars = progressBars
    }

    /// Writes to the process's standard output and error.
    package static var standard: CLIOutput { CLIOutput(capture: false) }
    /// Collects output in memory (``stdout``, ``stderr``), for tests.
    package static func capturing() -> CLIOutput { CLIOutput(capture: true) }

    /// Collects output in memory like ``capturing()``, and gives commands the bars
    /// `progressBars` makes (a fake width, clock and writer) as if standard error were a
    /// terminal, for tests of what a command reports.
    package static func capturing(progressBars: @escaping (_ label: String) -> ProgressBar)
        -> CLIOutput
    {
        CLIOutput(capture: true, progressBars: progressBars)
    }

    /// Writes a line (a newline is added) to standard output.
    package func out(_ text: String) {
        if capture {
            lock.withLock { outBuffer += text + "\n" }
        } else {
            FileHandle.standardOutput.write(Data((text + "\n").utf8))
        }
    }

    /// Writes a line (a newline is added) to standard error.
    package func err(_ text: String) {
        if capture {
            lock.withLock { errBuffer += text + "\n" }
        } else {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
    }

    /// Whether this output writes to the process's standard output and error (not a test's
    /// buffers): only then may a progress bar draw on the terminal.
    package var writesToProcess: Bool { !capture }

    /// A progress bar labelled `label` counting `unit`, or `nil`: with `quiet`, or when
    /// standard error is not a terminal, or for a test's buffers (unless the test gave a
    /// bar maker to ``capturing(progressBars:)``).
    package func progressBar(_ label: String, quiet: Bool, unit: String = "rows") -> ProgressBar? {
        guard !quiet else { return nil }
        if let progressBars {
            let bar = progressBars(label)
            bar.unit = unit
            return bar
        }
        return capture ? nil : ProgressBar.onTerminal(label: label, quiet: quiet, unit: unit)
    }

    /// Everything written to standard output (capturing outputs only).
    package var stdout: String { lock.withLock { outBuffer } }
    /// Everything written to standard error (capturing outputs only).
    package var stderr: String { lock.withLock { errBuffer } }

    /// Writes `value` as one JSON document, indented by two spaces, to standard output.
    package func json(_ value: JSONValue) { out(value.serialized(pretty: true)) }

    /// Writes `value` as JSON on one line (a JSON-lines record) to standard output.
    package func jsonLine(_ value: JSONValue) { out(value.serialized()) }

    /// Writes Foundation's JSON object graph (`[String: Any]`, `[Any]`, strings, numbers,
    /// booleans, `NSNull`) as one JSON document, keys sorted, to standard output.
    ///
    /// - Throws: ``CLIError/failure(_:)`` when `object` holds anything else.
    package func json(_ object: Any) throws {
        guard let value = try? JSONValue(jsonObject: object) else {
            throw CLIError.failure("internal error: output is not valid JSON")
        }
        json(value)
    }

    /// The most characters a table cell shows; longer values are cut and end with `…`
    /// (`--json` output carries them whole).
    package static let maximumCellWidth = 80

    /// Rows as an aligned text table: the first row is the header, columns are two spaces
    /// apart, `rightAligned` columns (numbers) are padded on the left, trailing spaces are
    /// dropped, and `ruled` puts a line of dashes under the header.
    ///
    /// A cell shows at most `maximumCellWidth` characters, on one line (line breaks and tabs
    /// become spaces).
    ///
    /// - Complexity: O(characters shown), whatever the length of the values.
    package func table(
        _ rows: [[String]], rightAligned: Set<Int> = [], ruled: Bool = false,
        maximumCellWidth: Int = CLIOutput.maximumCellWidth
    ) {
        guard let header = rows.first else { return }
        var cells = rows.map { row in
            row.map { Self.tableCell($0, limit: max(1, maximumCellWidth)) }
        }
        var widths = Array(repeating: 0, count: header.count)
        for row in cells {
            for (i, cell) in row.enumerated() where i < widths.count {
                widths[i] = max(widths[i], cell.count)
            }
        }
        if ruled {
            cells.insert(widths.map { (String(repeating: "-", count: $0), $0) }, at: 1)
        }
        for row in cells {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i > 0 { line += "  " }
                let width = i < widths.count ? widths[i] : 0
                let pad = String(repeating: " ", count: max(0, width - cell.count))
                line += rightAligned.contains(i) ? pad + cell.text : cell.text + pad
            }
            while line.last == " " { line.removeLast() }
            out(line)
        }
    }

    /// A table cell's text, cut to `limit` characters, and its length in characters.
    private static func tableCell(_ value: String, limit: Int) -> (text: String, count: Int) {
        var text = value
        if let cut = value.index(value.startIndex, offsetBy: limit, limitedBy: value.endIndex),
            cut < value.endIndex
        {
            text = value[..<value.index(before: cut)] + "…"
        }
        if text.contains(where: { $0.isNewline || $0 == "\t" }) {
            text = String(text.map { $0.isNewline || $0 == "\t" ? " " : $0 })
        }
        return (text, text.count)
    }

    /// `text` with control characters made visible, for echoing user input in messages:
    /// C0 controls other than newline and tab, DEL and C1 controls become `\u{XX}` escapes,
    /// so a file name or value holding an escape sequence cannot drive the terminal.
    package static func visible(_ text: String) -> String {
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
    package static func describe(_ error: any Error) -> String {
        if let localized = (error as? any LocalizedError)?.errorDescription { return localized }
        return "\(error)"
    }
}
