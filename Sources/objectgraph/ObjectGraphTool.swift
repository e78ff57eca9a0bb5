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
        summary: "Inspect and maintain ObjectGraph JSON-lines store files.",
        global: [],
        commands: [
            InfoCommand.command, VerifyCommand.command, DumpCommand.command, CompactCommand.command,
            RepairCommand.command,
        ])

    static func main() async {
        exit(await tool.run(Array(CommandLine.arguments.dropFirst())))
    }
}
