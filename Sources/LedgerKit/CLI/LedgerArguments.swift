import CLISupport
import Foundation

/// The options every `ledger` command accepts, before or after the command's words.
package struct LedgerGlobalOptions: ParsableArguments {
    /// `--file PATH`: the ledger file.
    @Option("--file", "PATH", help: "the ledger file (default: $LEDGER_FILE, else ./ledger.jsonl)")
    package var file: String?
    /// `--json`: print JSON instead of text.
    @Flag("--json", help: "print JSON instead of text") package var json: Bool
    /// `--quiet`: no progress bar on standard error.
    @Flag("--quiet", help: "no progress bar on standard error") package var quiet: Bool

    /// The declarations; the parser fills them.
    package init() {}
}

extension LedgerGlobalOptions {
    /// A progress bar labelled `label` on standard error, or `nil` when standard error is not
    /// a terminal, `--quiet` is given or `output` is a test's buffer without a fake bar.
    func progressBar(_ label: String, _ output: CLIOutput, unit: String = "rows") -> ProgressBar? {
        output.progressBar(label, quiet: quiet, unit: unit)
    }
}

/// A `ledger` subcommand.
typealias LedgerCommand = Command<LedgerGlobalOptions>

extension ArgumentTransform where Value == Date {
    /// A calendar date, `YYYY-MM-DD`; a bad one is a one-line failure naming the option.
    static var ledgerDate: Self {
        Self { text, name in
            do { return try LedgerValues.date(text, key: name) } catch {
                throw LedgerSession.failure(error)
            }
        }
    }
}

extension ArgumentTransform where Value == Decimal {
    /// An amount such as `12.50` (positive, at most 2 decimals); a bad one is a one-line
    /// failure naming the option.
    static var ledgerAmount: Self {
        Self { text, name in
            do { return try LedgerValues.amount(text, key: name) } catch {
                throw LedgerSession.failure(error)
            }
        }
    }
}

extension ArgumentTransform where Value == Int {
    /// A whole number above 0, digits only (`+3` and ` 3` are refused).
    static var ledgerCount: Self {
        Self { text, name in
            guard let n = Int(digits: text), n > 0 else {
                throw LedgerSession.failure(
                    LedgerErrors.badValue(name, text, expected: "a whole number above 0"))
            }
            return n
        }
    }
}

extension ArgumentTransform where Value == Int {
    /// A whole number of days, 0 or more, digits only.
    static var ledgerDays: Self {
        Self { text, name in
            guard let n = Int(digits: text), n >= 0 else {
                throw LedgerSession.failure(
                    LedgerErrors.badValue(name, text, expected: "a whole number of days, 0 or more")
                )
            }
            return n
        }
    }
}

extension ArgumentTransform {
    /// One of a fixed set of words: `parse` returns `nil` for any other, which fails with
    /// `bad --rule "explode": expected nullify, cascade or deny`.
    static func ledgerChoice(expected: String, _ parse: @escaping @Sendable (String) -> Value?)
        -> Self
    {
        Self { text, name in
            guard let value = parse(text) else {
                throw LedgerSession.failure(LedgerErrors.badValue(name, text, expected: expected))
            }
            return value
        }
    }

    /// A value whose parser throws `LedgerError`s, reported as one-line failures.
    static func ledger(_ parse: @escaping @Sendable (String) throws -> Value) -> Self {
        Self { text, _ in
            do { return try parse(text) } catch { throw LedgerSession.failure(error) }
        }
    }
}

extension ArgumentTransform where Value == ColumnReference {
    /// A column: a 1-based number or a header name.
    static var column: Self { Self { text, _ in ColumnReference(argument: text) } }
}
