import CLISupport
import Foundation
import Testing

/// Options declared once as typed properties: parsing, defaults, required options, groups,
/// help generated from the declarations, and declarations refused when the command is built.
@Suite struct TypedArgumentsTests {
    enum Rule: String, Sendable { case nullify, cascade }

    struct Query: ParsableArguments {
        @Argument("FILE", help: "the store file") var file: String
        @Option("--entity", "NAME", help: "the entity") var entity: String
    }

    struct Fetch: ParsableArguments {
        @OptionGroup var query: Query
        @Option("--limit", "N", help: "at most N rows", transform: .wholeNumber()) var limit = 0
        @Option(
            "--rule", "RULE", help: "what happens",
            transform: ArgumentTransform { text, name in
                guard let rule = Rule(rawValue: text) else {
                    throw CLIError.failure("bad \(name) '\(text)'")
                }
                return rule
            })
        var rule = Rule.nullify
        @Option("--sort", "KEY", help: "a sort key (repeatable)") var sort: [String]
        @Option("--note", "N", help: "a note") var note: String?
        @Flag("--json", help: "print JSON") var json: Bool
    }

    @Test func valuesArriveTypedWithTheirDefaultsWhenAbsent() throws {
        let given = try Fetch.parse([
            "s.jsonl", "--entity", "Item", "--limit=5", "--rule", "cascade", "--sort", "a",
            "--sort=b", "--json",
        ])
        #expect(given.query.file == "s.jsonl")
        #expect(given.query.entity == "Item")
        #expect(given.limit == 5)
        #expect(given.rule == .cascade)
        #expect(given.sort == ["a", "b"])
        #expect(given.note == nil)
        #expect(given.json)
        let defaults = try Fetch.parse(["s.jsonl", "--entity", "Item"])
        #expect(defaults.limit == 0)
        #expect(defaults.rule == .nullify)
        #expect(defaults.sort.isEmpty)
        #expect(!defaults.json)
    }

    @Test func usageErrorsComeBeforeValueErrors() {
        #expect(throws: CLIError.usage("--entity NAME is required")) {
            try Fetch.parse(["s.jsonl", "--rule", "explode"])
        }
        #expect(throws: CLIError.failure("bad --rule 'explode'")) {
            try Fetch.parse(["s.jsonl", "--entity", "E", "--rule", "explode"])
        }
        #expect(throws: CLIError.usage("--limit given twice")) {
            try Fetch.parse(["s.jsonl", "--entity", "E", "--limit", "1", "--limit", "2"])
        }
        #expect(throws: CLIError.usage("--json takes no value")) {
            try Fetch.parse(["s.jsonl", "--entity", "E", "--json=yes"])
        }
        #expect(throws: CLIError.usage("expected 1 argument, got 2: a b")) {
            try Fetch.parse(["a", "b", "--entity", "E"])
        }
    }

    struct Optional: ParsableArguments {
        @Argument("FILE") var file: String
        @Argument("REPORTED", transform: ArgumentTransform { text, _ in Int(text) ?? 0 })
        var reported: Int?
    }

    @Test func anOptionalPositionalMayBeLeftOut() throws {
        #expect(try Optional.parse(["f"]).reported == nil)
        #expect(try Optional.parse(["f", "7"]).reported == 7)
        #expect(throws: CLIError.usage("expected 1 to 2 arguments, got 0")) {
            try Optional.parse([])
        }
    }

    @Test func helpIsGeneratedFromTheDeclarations() async {
        let tool = CommandLineTool(
            name: "t", summary: "A test tool.",
            commands: [
                Command(["fetch"], summary: "Fetch rows.", details: "More words.") {
                    (_: Fetch, _, _) in
                }
            ])
        let out = CLIOutput.capturing()
        #expect(await tool.run(["fetch", "--help"], output: out) == 0)
        #expect(
            out.stdout == """
                usage: t fetch [options] FILE

                Fetch rows.

                arguments:
                  FILE  the store file

                options:
                  --entity NAME  the entity (required)
                  --limit N      at most N rows (default: 0)
                  --rule RULE    what happens (default: nullify)
                  --sort KEY     a sort key (repeatable)
                  --note N       a note
                  --json         print JSON

                More words.

                """)
    }

    struct Main: ParsableArguments {
        @Option("--dir", "DIR", help: "where") var directory: String
    }

    @Test func aDefaultCommandRunsWithoutACommandWord() async {
        let tool = CommandLineTool(
            name: "b", summary: "Bench.",
            commands: [
                Command([], summary: "The main run.") { (args: Main, _, out) in
                    out.out("main in \(args.directory)")
                },
                Command(["micro"], summary: "Micro cases.") { (_: NoArguments, _, out) in
                    out.out("micro")
                },
            ])
        let main = CLIOutput.capturing()
        #expect(await tool.run(["--dir", "x"], output: main) == 0)
        #expect(main.stdout == "main in x\n")
        let micro = CLIOutput.capturing()
        #expect(await tool.run(["micro"], output: micro) == 0)
        #expect(micro.stdout == "micro\n")
        let bare = CLIOutput.capturing()
        #expect(await tool.run([], output: bare) == 64)
        #expect(bare.stderr.hasPrefix("b: --dir DIR is required\n\nusage: b [options]"))
        let help = CLIOutput.capturing()
        #expect(await tool.run(["--help"], output: help) == 0)
        #expect(help.stdout.contains("--dir DIR") && help.stdout.contains("  micro  Micro cases."))
    }

    @Test func declarationsThatClashStopTheProgramWhenTheCommandIsBuilt() async {
        await #expect(processExitsWith: .failure) {
            _ = Command<NoArguments>(["x"], summary: "") { (_: TwiceDeclared, _, _) in }
        }
        await #expect(processExitsWith: .failure) {
            _ = Command<NoArguments>(["x"], summary: "") { (_: SingleDash, _, _) in }
        }
        await #expect(processExitsWith: .failure) {
            _ = Command<NoArguments>(["x"], summary: "") { (_: RequiredAfterOptional, _, _) in }
        }
        await #expect(processExitsWith: .failure) {
            _ = CommandLineTool(
                name: "t", summary: "", global: ClashingGlobal.self,
                commands: [Command(["x"], summary: "") { (_: TwiceDeclared.Half, _, _) in }])
        }
    }
}

struct TwiceDeclared: ParsableArguments {
    struct Half: ParsableArguments {
        @Option("--limit", "N", help: "") var limit: String?
    }
    @OptionGroup var half: Half
    @Flag("--limit", help: "") var limit: Bool
}

struct SingleDash: ParsableArguments {
    @Flag("-v", help: "") var verbose: Bool
}

struct RequiredAfterOptional: ParsableArguments {
    @Argument("A", transform: .string) var a: String?
    @Argument("B") var b: String
}

struct ClashingGlobal: ParsableArguments {
    @Flag("--limit", help: "") var limit: Bool
}
