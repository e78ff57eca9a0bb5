import Foundation
import Testing

@testable import ObjectGraphTesting

@Suite struct PatternGeneratorTests {
    private func fullMatch(_ s: String, _ pattern: String) -> Bool {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(s.startIndex..., in: s)
        return regex.firstMatch(in: s, options: [.anchored], range: range)?.range == range
    }

    @Test(arguments: [
        #"^#[0-9A-Fa-f]{6}$"#, #"^[A-Z]{3}-\d{4}$"#, #"^(G|PG|PG-13|R|NC-17)$"#,
        #"^[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}$"#, #"^(?:[A-F0-9]{2}\.){2}[a-z]+_[^\s,]{3}\w?$"#,
        #"\d+(\.\d{1,2})?"#, #"[^aeiou]{3,5}"#, "a|b|c", #"(?<year>\d{4})-\d\d"#, #"\Qa.b\E+"#,
        #"[\]\-\\]x"#, #"\x41\u00e9\x{1F600}"#, ".{2}", "colou?r", "[-a]+", "a{0}b", #"\A\w*?\z"#,
        "x{2,}",
        #"[\d\s]{4}"#, #"\D\W\S"#, "[]a]", #"\t\n"#, "(ab|cd)*e+", "^$",
    ])
    func generatedStringsMatchTheirPattern(_ pattern: String) throws {
        let generator = PatternGenerator(root: try PatternParser.parse(pattern))
        var random = SeededRandomNumberGenerator(seed: 17)
        for bias in [PatternGenerator.Bias.any, .short, .long] {
            for _ in 0..<40 {
                let s = try #require(generator.generate(&random, spread: 6, bias: bias))
                #expect(fullMatch(s, pattern), "\(pattern) generated \(s.debugDescription)")
            }
        }
    }

    @Test(arguments: [
        ("a(?=b)", "(?=", 2, "a lookahead"),
        ("(?!b)a", "(?!", 1, "a negative lookahead"),
        ("(?<=a)b", "(?<=", 1, "a lookbehind"),
        ("(?<!a)b", "(?<!", 1, "a negative lookbehind"),
        ("(?>ab)", "(?>", 1, "an atomic group"),
        ("(?i)abc", "(?i", 1, "a flag setting"),
        (#"\bword"#, #"\b"#, 1, "a word boundary"),
        (#"(a)\1"#, #"\1"#, 4, "a backreference"),
        (#"\p{L}+"#, #"\p"#, 1, "a Unicode property class"),
        ("[[:alpha:]]", "[", 2, "a nested set or POSIX class inside [...]"),
        ("[a-z&&[^q]]", "&&", 5, "a set intersection"),
        ("a*+", "*+", 2, "a possessive quantifier"),
        ("a{2}{3}", "{", 5, "a quantifier applied to a quantifier"),
        (#"\yes"#, #"\y"#, 1, "an escape the generator does not know"),
        ("^*", "*", 2, "a quantifier on an anchor"),
    ])
    func unsupportedConstructsAreNamedWithTheirPosition(
        _ pattern: String, _ part: String, _ position: Int, _ what: String
    ) {
        do {
            _ = try PatternParser.parse(pattern)
            Issue.record("\(pattern) should not parse")
        } catch {
            #expect(error == UnsupportedPattern(part: part, position: position, what: what))
        }
    }

    @Test func anAnchorInTheMiddleMakesTheAttemptFail() throws {
        let generator = PatternGenerator(root: try PatternParser.parse("a^b"))
        var random = SeededRandomNumberGenerator(seed: 1)
        #expect(generator.generate(&random, spread: 6, bias: .any) == nil)
        let end = PatternGenerator(root: try PatternParser.parse("a$b"))
        #expect(end.generate(&random, spread: 6, bias: .any) == nil)
    }

    @Test func lengthBiasSteersUnboundedRepetitions() throws {
        let generator = PatternGenerator(root: try PatternParser.parse("[a-z]+"))
        var random = SeededRandomNumberGenerator(seed: 2)
        let long = (0..<20).compactMap { _ in generator.generate(&random, spread: 300, bias: .long)
        }
        #expect(long.allSatisfy { $0.count >= 200 })
        let short = (0..<20).compactMap { _ in
            generator.generate(&random, spread: 300, bias: .short)
        }
        #expect(short.allSatisfy { $0.count <= 101 })
    }
}
