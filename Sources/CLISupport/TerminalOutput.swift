import Foundation

/// Where a command writes: standard output for results, standard error for errors, notices
/// and progress. ``capturing()`` collects both instead, for tests.
// Sendable: `captured` is guarded by `lock`; the file handles are only written to.
package final class TerminalOutput: @unchecked Sendable {
    private let lock = NSLock()
    private let toTerminal: Bool
    private var captured: (out: String, err: String) = ("", "")

    private init(toTerminal: Bool) { self.toTerminal = toTerminal }

    /// Writes to the process's standard output and standard error.
    package static func standard() -> TerminalOutput { TerminalOutput(toTerminal: true) }

    /// Collects everything written, readable through ``standardOutput`` and ``standardError``.
    package static func capturing() -> TerminalOutput { TerminalOutput(toTerminal: false) }

    /// Writes `text` and a newline to standard output.
    package func out(_ text: String) { write(text + "\n", error: false) }

    /// Writes `text` and a newline to standard error.
    package func err(_ text: String) { write(text + "\n", error: true) }

    /// What was written to standard output (capturing outputs only).
    package var standardOutput: String { lock.withLock { captured.out } }

    /// What was written to standard error (capturing outputs only).
    package var standardError: String { lock.withLock { captured.err } }

    private func write(_ text: String, error: Bool) {
        lock.withLock {
            if toTerminal {
                (error ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
            } else if error {
                captured.err += text
            } else {
                captured.out += text
            }
        }
    }
}
