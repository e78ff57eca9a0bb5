/// Which command of a ``CommandLineTool`` is running, for code it calls (a store's
/// transaction author, a log line).
///
/// ```swift
/// context.transactionAuthor = RunningCommand.name   // "ledger add"
/// ```
package enum RunningCommand {
    /// The program's name and the command's words (`["ledger", "category", "add"]`) while a
    /// command runs; empty outside one.
    @TaskLocal package static var words: [String] = []

    /// The words joined by spaces (`"ledger category add"`), or `nil` outside a command.
    package static var name: String? {
        words.isEmpty ? nil : words.joined(separator: " ")
    }
}
