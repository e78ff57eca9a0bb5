import Foundation
import Testing

@testable import ObjectGraph

/// Messages repeat at most a few hundred characters of any input (a 200 KB predicate was
/// echoed whole, twice).
@Suite struct EchoedInputTests {
    @Test func cappingKeepsShortTextAndCutsLongTextSayingHowLongItWas() {
        #expect(EchoedText.capped("short") == "short")
        let long = String(repeating: "é", count: 250_000)
        let capped = EchoedText.capped(long)
        #expect(capped == String(repeating: "é", count: EchoedText.limit) + "… (250000 characters)")
        #expect(EchoedText.list(["a", "b", "c"], count: 2) == "\"a\", \"b\", and 1 more")
        let lines = EchoedText.cappedLines("ok\n" + long)
        #expect(lines.hasPrefix("ok\n") && lines.count < EchoedText.lineLimit + 40)
    }

    @Test func aWindowKeepsTheColumnUnderTheCaret() {
        let text = String(repeating: "a", count: 1_000) + "X" + String(repeating: "b", count: 1_000)
        let (shown, column) = EchoedText.window(text, column: 1_001)
        #expect(shown.count <= EchoedText.limit + 2)
        #expect(Array(shown)[column - 1] == "X")
        #expect(shown.hasPrefix("…") && shown.hasSuffix("…"))
        let start = EchoedText.window(text, column: 1)
        #expect(start.column == 1 && Array(start.text)[0] == "a" && !start.text.hasPrefix("…"))
        let end = EchoedText.window(text, column: 2_001)
        #expect(Array(end.text)[end.column - 1] == "b" && !end.text.hasSuffix("…"))
    }

    @Test func aSyntaxErrorInA200KBPredicateShowsAWindowAndTheCaret() throws {
        let format = "name == 'a' AND " + String(repeating: "x", count: 200_000) + " =="
        let error = try #require(
            ModelFixtures.error { _ = try FetchPredicate(format: format) })
        #expect(error.message.count < 1_000, "\(error.message.count) characters")
        #expect(error.column == format.count + 1)
        #expect(error.message.contains("at column \(format.count + 1)"))
        let lines = error.message.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 3)
        if lines.count == 3 {
            // The caret stands just past the shown text's end, where the input ended.
            #expect(lines[2].count == lines[1].count + 1 && lines[2].hasSuffix("^"))
        }
    }

    @Test func aHugeUnknownKeyIsCappedInTheMessage() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Item", properties: [AttributeDescription(name: "name", type: .string)])
        ])
        let key = String(repeating: "k", count: 150_000)
        let predicate = try FetchPredicate(format: "\(key) == 1")
        let error = try #require(
            ModelFixtures.error { _ = try predicate.compile(for: model[entityName: "Item"]!) })
        #expect(error.message.count < 1_000, "\(error.message.count) characters")
        #expect(error.message.contains("(150000 characters)"))
        #expect(error.key == key)  // the error itself keeps the whole key
    }
}
