import CLISupport
import Foundation

/// `objectgraph`: inspect and maintain ObjectGraph store files, with no application code (the
/// model comes from the file's header).
///
/// Each command lives in its own file; to add one, declare its `Command` and list it here.
@main
struct ObjectGraphTool {
    static let tool = CommandLineTool(
        name: "objectgraph",
        summary:
            "Inspect, query and maintain ObjectGraph JSON-lines store files; read models; seed and load stores.",
        commands: [
            InfoCommand.command, VerifyCommand.command, DumpCommand.command, FetchCommand.command,
            FetchCommand.countCommand, CompactCommand.command, CopyCommand.command,
            RepairCommand.command, ModelCommand.command, MigrateCommand.command,
            SeedCommand.command, SeedCommand.loadCommand, HistoryCommand.command,
        ])

    static func main() async {
        exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
    }
}
