import Foundation
import ObjectGraph

/// What the `ledger` command takes from its process: environment variables, the current
/// directory, and where IDs and dates come from. Tests build their own.
package struct LedgerEnvironment: Sendable {
    /// Environment variables (`LEDGER_FILE` names the default ledger file).
    package var variables: [String: String]
    /// The directory relative paths start from.
    package var currentDirectory: URL
    /// Makes the IDs of new categories and transactions.
    package var newID: @Sendable () -> UUID
    /// The current instant (its local calendar day is the default transaction date).
    package var today: @Sendable () -> Date
    /// Options for the file store.
    package var storeOptions: StoreOptions
    /// Whether standard output is a terminal (colour is used only there); `false` unless
    /// set, `isatty` for ``process``.
    package var stdoutIsTerminal: Bool = false
    /// Arranges for `stop` to be called once when the user interrupts a command that runs
    /// until then (`ledger watch`); called when the command is ready. Default: on SIGINT or
    /// SIGTERM (see ``LedgerInterruption/signals``); tests stop it themselves.
    package var interruption: @Sendable (_ stop: @escaping @Sendable () -> Void) -> Void

    /// An environment with the given values and random IDs, the system clock and default
    /// store options.
    package init(variables: [String: String], currentDirectory: URL) {
        self.variables = variables
        self.currentDirectory = currentDirectory
        self.newID = { RandomUUIDSource.shared.next() }
        self.today = { Date() }
        self.storeOptions = StoreOptions()
        self.interruption = LedgerInterruption.signals
    }

    /// The running process's environment and current directory.
    package static var process: LedgerEnvironment {
        var environment = LedgerEnvironment(
            variables: ProcessInfo.processInfo.environment,
            currentDirectory: URL(
                fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
        environment.stdoutIsTerminal = isatty(STDOUT_FILENO) == 1
        return environment
    }

    /// Whether output may be coloured: standard output is a terminal, `NO_COLOR` is unset
    /// or empty (https://no-color.org), and `TERM` is not `dumb`.
    package var allowsColor: Bool {
        stdoutIsTerminal && (variables["NO_COLOR"] ?? "").isEmpty && variables["TERM"] != "dumb"
    }

    /// The ledger file: `--file PATH`, else `$LEDGER_FILE`, else `./ledger.jsonl`; relative
    /// paths start at ``currentDirectory``, and messages show them as given.
    package func ledgerURL(file: String?) -> URL {
        let path =
            file ?? variables["LEDGER_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "ledger.jsonl"
        return url(path)
    }

    /// `path` as a file URL, relative to ``currentDirectory`` unless absolute.
    package func url(_ path: String) -> URL {
        path.hasPrefix("/")
            ? URL(fileURLWithPath: path) : URL(fileURLWithPath: path, relativeTo: currentDirectory)
    }

    /// The ledger configuration for `file` (`--file`).
    func configuration(file: String?) -> LedgerConfiguration {
        var configuration = LedgerConfiguration(storeURL: ledgerURL(file: file))
        configuration.newID = newID
        configuration.today = today
        configuration.storeOptions = storeOptions
        return configuration
    }
}
