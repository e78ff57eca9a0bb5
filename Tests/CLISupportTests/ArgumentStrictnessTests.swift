import CLISupport
import Foundation
import Testing

/// Regression tests for the rough edges a bad-input session found in the command-line layer:
/// loose numbers, single-dash options taken for arguments, raw control bytes echoed.
@Suite struct ArgumentStrictnessTests {
    private let options: [OptionSpec] = [
        .value("--limit", "N", "at most N"), .flag("--json", "JSON"),
    ]

    @Test func wholeNumbersAreDigitsOnly() throws {
        #expect(ParsedArguments.wholeNumber("0") == 0)
        #expect(ParsedArguments.wholeNumber("0042") == 42)
        #expect(ParsedArguments.wholeNumber("9223372036854775807") == Int.max)
        for text in ["+3", "-1", "", " 7", "7 ", "1e3", "3.0", "١٢", "9223372036854775808", "0x10"]
        {
            #expect(
                ParsedArguments.wholeNumber(text) == nil, "\(text) should not be a whole number")
        }
    }

    @Test func aLooseNumberForAnOptionIsAFailureNamingTheOptionAndText() throws {
        let args = try ParsedArguments.parse(
            ["--limit", "+3"], options: options, positionals: 0...0)
        #expect(throws: CLIError.failure("--limit takes a whole number ≥ 0, not '+3'")) {
            try args.wholeNumber("--limit")
        }
        let zero = try ParsedArguments.parse(["--limit=0"], options: options, positionals: 0...0)
        #expect(throws: CLIError.failure("--limit takes a whole number ≥ 1, not '0'")) {
            try zero.wholeNumber("--limit", minimum: 1)
        }
        #expect(try zero.wholeNumber("--limit") == 0)
        #expect(try zero.wholeNumber("--offset") == nil)
    }

    @Test func singleDashWordsAreUnknownOptionsButNegativeNumbersAreArguments() throws {
        #expect(throws: CLIError.usage("unknown option -x (options are spelled --name)")) {
            try ParsedArguments.parse(["-x"], options: options, positionals: 0...1)
        }
        #expect(throws: CLIError.usage("unknown option -limit (options are spelled --name)")) {
            try ParsedArguments.parse(["-limit", "3"], options: options, positionals: 0...2)
        }
        let negative = try ParsedArguments.parse(
            ["-5", "-.5", "-"], options: options, positionals: 0...3)
        #expect(negative.positionals == ["-5", "-.5", "-"])
        let afterDashes = try ParsedArguments.parse(
            ["--", "-x"], options: options, positionals: 0...1)
        #expect(afterDashes.positionals == ["-x"])
    }

    @Test func controlCharactersInEchoedTextAreEscaped() {
        #expect(CLIOutput.visible("plain") == "plain")
        #expect(CLIOutput.visible("a\u{1B}[31mred") == "a\\u{1B}[31mred")
        #expect(
            CLIOutput.visible("bell\u{07} del\u{7F} c1\u{9B}") == "bell\\u{7} del\\u{7F} c1\\u{9B}")
        #expect(CLIOutput.visible("two\nlines\tand tab") == "two\nlines\tand tab")
        #expect(CLIOutput.visible("café 😀") == "café 😀")
    }

    @Test func failureMessagesNeverCarryRawEscapes() async {
        let tool = CommandLineTool(
            name: "t", summary: "A test tool.", global: [],
            commands: [
                Command(
                    CommandSpec(
                        path: ["echo"], summary: "Fails with its argument", arguments: "X",
                        positionals: 1...1)
                ) {
                    args, _ in throw CLIError.failure("no such thing '\(args.positionals[0])'")
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
