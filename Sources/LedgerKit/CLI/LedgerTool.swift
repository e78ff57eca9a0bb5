import CLISupport
import Foundation

/// The `ledger` command line: every subcommand, ready to run in-process.
///
/// ```swift
/// let tool = LedgerTool.make()
/// exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
/// ```
///
/// Exit codes: 0 success, 1 failure (one line on stderr), 64 usage (with the command's
/// usage on stderr).
package enum LedgerTool {
    /// The tool with every command, reading its environment from `environment`.
    package static func make(environment: LedgerEnvironment = .process)
        -> CommandLineTool<LedgerGlobalOptions>
    {
        CommandLineTool(
            name: "ledger",
            summary:
                "A single-file expense ledger: categories, transactions, receipts and bank CSV "
                + "imports in one JSON-lines file.",
            global: LedgerGlobalOptions.self,
            commands: [
                InitCommand.make(environment), DemoCommand.make(),
                CategoryCommands.add(environment), CategoryCommands.list(environment),
                CategoryCommands.rename(environment), CategoryCommands.delete(environment),
                RuleCommands.add(environment), RuleCommands.list(environment),
                RuleCommands.delete(environment), CategorizeCommand.make(environment),
                BudgetCommands.set(environment), BudgetCommands.list(environment),
                BudgetCommands.delete(environment),
                AddCommand.make(environment), ListCommand.make(environment),
                EditCommand.make(environment),
                DeleteCommand.make(environment), ClearCommand.make(environment),
                ReportCommand.make(environment), ImportCommand.make(environment),
                ExportCommand.make(environment), MaintenanceCommands.compact(environment),
                MaintenanceCommands.verify(environment), BatchCommands.adjust(environment),
                BatchCommands.purge(environment), UndoCommand.make(environment),
                HistoryCommand.make(environment), WatchCommand.make(environment),
            ])
    }
}
