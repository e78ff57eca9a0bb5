import CLISupport
import Foundation
import Testing

@Suite struct CommandLineToolTests {
    struct Global: ParsableArguments {
        @Option("--file", "PATH", help: "the file") var file: String?
        @Flag("--json", help: "JSON") var json: Bool
    }

    struct AddArguments: ParsableArguments {
        @Argument("NAME") var name: String
        @Option("--color", "HEX", help: "colour") var color: String?
    }

    final class Seen: @unchecked Sendable {
        // Sendable: written by the one command a test runs, read after `run` returns.
        var file: String?
        var color: String?
        var json = false
    }

    private func tool(_ seen: Seen) -> CommandLineTool<Global> {
        CommandLineTool(
            name: "t", summary: "A test tool.", global: Global.self,
            commands: [
                Command(["category", "add"], summary: "Add") {
                    (args: AddArguments, global, out) in
                    seen.file = global.file
                    seen.color = args.color
                    seen.json = global.json
                    out.out("added \(args.name)")
                },
                Command(["fail"], summary: "Fails") { (_: NoArguments, _, _) in
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
        #expect(seen.file == "a.jsonl")
        #expect(seen.color == "#00FF00")
        #expect(seen.json)
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

    @Test func anUnknownCommandAfterAGlobalOptionIsTheWordNamed() async {
        // `ledger --file a.jsonl bogus` said "unknown command 'a.jsonl'": the option's value.
        let out = CLIOutput.capturing()
        #expect(await tool(Seen()).run(["--file", "a.jsonl", "bogus"], output: out) == 64)
        #expect(out.stderr.contains("unknown command 'bogus'"), "\(out.stderr)")
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
        let ruled = CLIOutput.capturing()
        ruled.table([["case", "n"], ["a", "10"]], rightAligned: [1], ruled: true)
        #expect(ruled.stdout == "case   n\n----  --\na     10\n")
    }
}
