import CLISupport
import Foundation
import Testing

@Suite struct CommandLineToolTests {
    final class Seen: @unchecked Sendable {
        var args: ParsedArguments?
    }

    private func tool(_ seen: Seen) -> CommandLineTool {
        CommandLineTool(
            name: "t", summary: "A test tool.",
            global: [.value("--file", "PATH", "the file"), .flag("--json", "JSON")],
            commands: [
                Command(
                    CommandSpec(
                        path: ["category", "add"], summary: "Add", arguments: "NAME",
                        positionals: 1...1,
                        options: [.value("--color", "HEX", "colour")])
                ) { args, out in
                    seen.args = args
                    out.out("added \(args.positionals[0])")
                },
                Command(CommandSpec(path: ["fail"], summary: "Fails")) { _, _ in
                    throw CLIError.failure("it broke")
                },
            ])
    }

    @Test func globalOptionsMayComeBeforeOrAfterTheCommand() async {
        let seen = Seen()
        let out = CLIOutput.capturing()
        #expect(
            await tool(seen).run(
                ["--file", "a.jsonl", "category", "add", "Food", "--color=#00FF00", "--json"],
                output: out) == 0)
        #expect(seen.args?.value("--file") == "a.jsonl")
        #expect(seen.args?.value("--color") == "#00FF00")
        #expect(seen.args?.has("--json") == true)
        #expect(out.stdout == "added Food\n")
    }

    @Test func usageErrorsExit64WithTheUsage() async {
        let out = CLIOutput.capturing()
        #expect(await tool(Seen()).run(["category", "add"], output: out) == 64)
        #expect(out.stderr.contains("expected 1 argument, got 0"))
        #expect(out.stderr.contains("usage: t category add [options] NAME"))
        #expect(await tool(Seen()).run(["category", "add", "X", "--bogus"], output: out) == 64)
        #expect(out.stderr.contains("unknown option --bogus"))
        #expect(await tool(Seen()).run(["nope"], output: out) == 64)
        #expect(out.stderr.contains("unknown command 'nope'"))
    }

    @Test func failuresExit1WithOneLine() async {
        let out = CLIOutput.capturing()
        #expect(await tool(Seen()).run(["fail"], output: out) == 1)
        #expect(out.stderr == "t: it broke\n")
    }

    @Test func helpWorksOnEveryCommandAndAtTheTop() async {
        let out = CLIOutput.capturing()
        #expect(await tool(Seen()).run(["category", "add", "--help"], output: out) == 0)
        #expect(out.stdout.contains("--color HEX"))
        #expect(out.stdout.contains("--file PATH"))
        let top = CLIOutput.capturing()
        #expect(await tool(Seen()).run(["--help"], output: top) == 0)
        #expect(top.stdout.contains("category add"))
    }

    @Test func tablesAlignColumns() {
        let out = CLIOutput.capturing()
        out.table(
            [["name", "amount"], ["Food", "12.50"], ["Rent", "950.00"]], rightAligned: [1])
        #expect(out.stdout == "name  amount\nFood   12.50\nRent  950.00\n")
    }
}
