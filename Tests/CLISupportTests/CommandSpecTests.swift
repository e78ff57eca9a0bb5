import CLISupport
import Testing

@Suite struct CommandSpecTests {
    let spec = CommandSpec(
        name: "dump", summary: "print rows", arguments: [.init("FILE", "the file"), .init("OUT", "output", optional: true)],
        options: [.init("--entity", value: "NAME", "one entity"), .init("--json", "JSON")])

    @Test func parsesPositionalsFlagsAndOptionsInAnyOrder() throws {
        let a = try spec.parse(["--json", "f.jsonl", "--entity", "Expense"])
        #expect(a.positionals == ["f.jsonl"] && a.has("--json") && a.value("--entity") == "Expense")
        let b = try spec.parse(["--entity=Tag", "f", "o"])
        #expect(b.positionals == ["f", "o"] && b.value("--entity") == "Tag" && !b.has("--json"))
        let c = try spec.parse(["--", "--json"])
        #expect(c.positionals == ["--json"] && c.flags.isEmpty)
        #expect(try spec.parse(["f", "-h"]).wantsHelp)
        #expect(try spec.parse(["--help"]).wantsHelp, "help needs no positionals")
    }

    @Test func rejectsBadCommandLinesWithAClearMessage() {
        func message(_ words: [String]) -> String? {
            do { _ = try spec.parse(words); return nil } catch let e as UsageError { return e.message } catch { return "\(error)" }
        }
        #expect(message([]) == "missing FILE")
        #expect(message(["a", "b", "c"]) == "unexpected argument 'c'")
        #expect(message(["a", "--jsn"]) == "unknown option '--jsn'")
        #expect(message(["a", "--entity"]) == "option '--entity' needs a value")
        #expect(message(["a", "--json=yes"]) == "option '--json' takes no value")
    }

    @Test func helpListsUsageArgumentsAndOptionsAligned() {
        let help = spec.help(tool: "og")
        #expect(help.hasPrefix("usage: og dump FILE [OUT] [--entity NAME] [--json]\n\nPrint rows.\n"))
        #expect(help.contains("  FILE  the file\n  OUT   output"))
        #expect(help.contains("  --entity NAME  one entity\n  --json         JSON\n  -h, --help     show this help"))
    }
}

@Suite struct CommandLineToolTests {
    struct Boom: Error, CustomStringConvertible { var description: String { "error 259: it broke" } }

    let tool = CommandLineTool(name: "og", summary: "test tool", commands: [
        Command(CommandSpec(name: "ok", summary: "succeed", arguments: [.init("X", "x")])) { args, out in
            out.out("got \(args.positionals[0])")
            return .success
        },
        Command(CommandSpec(name: "boom", summary: "fail")) { _, _ in throw Boom() },
        Command(CommandSpec(name: "picky", summary: "reject")) { _, _ in throw UsageError("bad value") },
    ])

    private func run(_ words: [String]) async -> (ExitCode, String, String) {
        let output = TerminalOutput.capturing()
        let status = await tool.run(words, output: output)
        return (status, output.standardOutput, output.standardError)
    }

    @Test func dispatchesAndReportsExitCodes() async {
        #expect(await run(["ok", "1"]) == (.success, "got 1\n", ""))
        let (boom, _, boomErr) = await run(["boom"])
        #expect(boom == .failure && boomErr == "og boom: error 259: it broke\n")
        let (picky, _, pickyErr) = await run(["picky"])
        #expect(picky == .usage && pickyErr.hasPrefix("og picky: bad value\nusage: og picky\n"))
        let (missing, _, missingErr) = await run(["ok"])
        #expect(missing == .usage && missingErr.contains("missing X"))
        let (unknown, _, unknownErr) = await run(["nope"])
        #expect(unknown == .usage && unknownErr.hasPrefix("og: unknown command 'nope'"))
        let (none, _, noneErr) = await run([])
        #expect(none == .usage && noneErr.contains("Commands:"))
    }

    @Test func helpGoesToStandardOutputWithSuccess() async {
        let (status, out, err) = await run(["--help"])
        #expect(status == .success && err.isEmpty)
        #expect(out.contains("usage: og COMMAND") && out.contains("  ok     succeed\n  boom   fail\n  picky  reject"))
        #expect(out.contains("Exit status: 0 success, 1 failure, 64 usage error."))
        let (commandHelp, text, _) = await run(["ok", "--help"])
        #expect(commandHelp == .success && text.hasPrefix("usage: og ok X"))
        #expect(await run(["help", "ok"]).1 == text)
    }
}

@Suite struct TextOutputTests {
    @Test func tablesAlignColumnsAndRightAlignNumbers() {
        var table = TextTable(["Entity", "Rows"], alignments: [.left, .right])
        table.append(["Expense", "1,200"])
        table.append(["Tag", "3"])
        #expect(table.rendered == "Entity    Rows\nExpense  1,200\nTag          3")
        #expect(groupedDigits(1_234_567) == "1,234,567" && groupedDigits(-1000) == "-1,000" && groupedDigits(12) == "12")
    }

    @Test func jsonOutputEscapesAndKeepsMemberOrder() {
        let value = JSONOutput.object([("b", .string("a\"\n\u{2028}\u{1}")), ("a", .array([.int(-1), .null, .bool(true)])),
                                       ("v", .raw("\"12.5\"")), ("d", .double(.nan))])
        #expect(value.serialized() == #"{"b":"a\"\n\u2028\u0001","a":[-1,null,true],"v":"12.5","d":null}"#)
        #expect(JSONOutput.object([("x", .array([.int(1)]))]).serialized(pretty: true) == "{\n  \"x\": [\n    1\n  ]\n}")
    }
}
