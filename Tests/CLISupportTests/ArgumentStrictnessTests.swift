import CLISupport
import Foundation
import Testing

/// Regression tests for the rough edges a bad-input session found in the command-line layer:
/// loose numbers, single-dash options taken for arguments, raw control bytes echoed.
@Suite struct ArgumentStrictnessTests {
    struct Limits: ParsableArguments {
        @Option("--limit", "N", help: "at most N", transform: .wholeNumber()) var limit: Int?
        @Option("--count", "N", help: "at least one", transform: .wholeNumber(minimum: 1))
        var count: Int?
        @Flag("--json", help: "JSON") var json: Bool
    }

    struct Words: ParsableArguments {
        @Argument("WORD") var words: [String]
        @Flag("--json", help: "JSON") var json: Bool
    }

    @Test func wholeNumbersAreDigitsOnly() throws {
        #expect(Int(digits: "0") == 0)
        #expect(Int(digits: "0042") == 42)
        #expect(Int(digits: "9223372036854775807") == Int.max)
        for text in ["+3", "-1", "", " 7", "7 ", "1e3", "3.0", "١٢", "9223372036854775808", "0x10"]
        {
            #expect(Int(digits: text) == nil, "\(text) should not be a whole number")
        }
    }

    @Test func aLooseNumberForAnOptionIsAFailureNamingTheOptionAndText() throws {
        #expect(throws: CLIError.failure("--limit takes a whole number ≥ 0, not '+3'")) {
            try Limits.parse(["--limit", "+3"])
        }
        #expect(throws: CLIError.failure("--count takes a whole number ≥ 1, not '0'")) {
            try Limits.parse(["--count=0"])
        }
        let zero = try Limits.parse(["--limit=0"])
        #expect(zero.limit == 0)
        #expect(zero.count == nil)
    }

    @Test func singleDashWordsAreUnknownOptionsButNegativeNumbersAreArguments() throws {
        #expect(throws: CLIError.usage("unknown option -x (options are spelled --name)")) {
            try Words.parse(["-x"])
        }
        #expect(throws: CLIError.usage("unknown option -limit (options are spelled --name)")) {
            try Words.parse(["-limit", "3"])
        }
        #expect(try Words.parse(["-5", "-.5", "-"]).words == ["-5", "-.5", "-"])
        #expect(try Words.parse(["--", "-x", "--json"]).words == ["-x", "--json"])
    }

    @Test func controlCharactersInEchoedTextAreEscaped() {
        #expect(CLIOutput.visible("plain") == "plain")
        #expect(CLIOutput.visible("a\u{1B}[31mred") == "a\\u{1B}[31mred")
        #expect(
            CLIOutput.visible("bell\u{07} del\u{7F} c1\u{9B}") == "bell\\u{7} del\\u{7F} c1\\u{9B}")
        #expect(CLIOutput.visible("two\nlines\tand tab") == "two\nlines\tand tab")
        #expect(CLIOutput.visible("café 😀") == "café 😀")
    }

    struct Echo: ParsableArguments {
        @Argument("X") var x: String
    }

    @Test func failureMessagesNeverCarryRawEscapes() async {
        let tool = CommandLineTool(
            name: "t", summary: "A test tool.",
            commands: [
                Command(["echo"], summary: "Fails with its argument") {
                    (args: Echo, _, _) in throw CLIError.failure("no such thing '\(args.x)'")
                }
            ])
        let out = CLIOutput.capturing()
        #expect(await tool.run(["echo", "\u{1B}]0;pwned\u{07}"], output: out) == 1)
        #expect(out.stderr == "t: no such thing '\\u{1B}]0;pwned\\u{7}'\n")
        let unknown = CLIOutput.capturing()
        #expect(await tool.run(["\u{1B}x"], output: unknown) == 64)
        #expect(!unknown.stderr.contains("\u{1B}"))
    }
}
