import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// The README as a package: every Swift and JSON block names the file it is (a
/// `<!-- file: PATH -->` line just above it), so `scripts/readme-package.sh` (run by CI) can
/// build, test and run exactly what the README shows. These checks keep that possible, and
/// keep the README's fixture files identical to the ones this target loads.
@Suite struct ReadmeTests {
    /// A fenced block of the README.
    struct Block {
        let language: String
        let file: String?
        let text: String
        let line: Int
    }

    static let readmeURL = URL(fileURLWithPath: #filePath)  // Tests/FixtureResourceTests/<File>
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("README.md")

    static func blocks() throws -> [Block] {
        let lines = try String(contentsOf: readmeURL, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var blocks: [Block] = []
        var i = 0
        while i < lines.count {
            guard lines[i].hasPrefix("```"), lines[i].count > 3 else {
                i += 1
                continue
            }
            let language = String(lines[i].dropFirst(3))
            var file: String?
            if i > 0, lines[i - 1].hasPrefix("<!-- file: "), lines[i - 1].hasSuffix(" -->") {
                file = String(lines[i - 1].dropFirst("<!-- file: ".count).dropLast(" -->".count))
            }
            guard let end = lines[(i + 1)...].firstIndex(of: "```") else {
                Issue.record("README line \(i + 1): the \(language) block never ends")
                return blocks
            }
            let text = lines[(i + 1)..<end].map { $0 + "\n" }.joined()
            blocks.append(Block(language: language, file: file, text: text, line: i + 1))
            i = end + 1
        }
        return blocks
    }

    @Test func everySwiftAndJSONBlockIsAFileOfTheReadmePackage() throws {
        let blocks = try Self.blocks().filter { $0.language == "swift" || $0.language == "json" }
        for block in blocks where block.file == nil {
            let problem = "a \(block.language) block without a <!-- file: PATH --> line above it"
            Issue.record("README line \(block.line): \(problem) is compiled by nothing")
        }
        let files = blocks.compactMap(\.file)
        #expect(Set(files).count == files.count, "a file named twice: \(files)")
        for file in files {
            #expect(!file.hasPrefix("/") && !file.contains(".."), "\(file)")
            #expect(!file.contains(" "), "\(file)")
        }
        #expect(files.contains("Package.swift"))
        #expect(files.contains("Sources/Expenses/main.swift"))
    }

    @Test func theReadmesFixtureFilesAreTheOnesThisTargetLoads() throws {
        let blocks = try Self.blocks()
        for name in ["Expenses.json", "expenses.json"] {
            let block = try #require(
                blocks.first { $0.file == "Tests/ExpensesTests/Fixtures/\(name)" },
                "the README shows no Fixtures/\(name)")
            let resource = try String(
                contentsOf: FixtureProviderResource.url("Fixtures/\(name)"), encoding: .utf8)
            #expect(
                block.text == resource, "README line \(block.line) differs from Fixtures/\(name)")
        }
    }

    @Test func theReadmesModelAndFixtureLoad() throws {
        let blocks = try Self.blocks()
        let model = try #require(
            blocks.first { $0.file?.hasSuffix("Fixtures/Expenses.json") == true })
        let fixture = try #require(
            blocks.first { $0.file?.hasSuffix("Fixtures/expenses.json") == true })
        let provider = try FixtureProvider(
            model: ManagedObjectModel(jsonData: Data(model.text.utf8)),
            fixtureData: Data(fixture.text.utf8), file: "README expenses.json")
        #expect(
            provider.references.objectIDsByRef.keys.sorted() == [
                "food", "lunch", "train", "travel",
            ])
    }

    @Test func theReadmesFixtureSetUpIsTheGuideExampleThatRunsHere() throws {
        let readmeTest = try #require(
            try Self.blocks().first { $0.file == "Tests/ExpensesTests/ExpenseTests.swift" })
        let start = try #require(readmeTest.text.range(of: "enum ExpenseFixtures {"))
        let end = try #require(
            readmeTest.text.range(of: "\n}\n", range: start.upperBound..<readmeTest.text.endIndex))
        let setUp = String(readmeTest.text[start.lowerBound..<end.upperBound])
        let guideExample = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent("FixtureGuideExampleTests.swift"),
            encoding: .utf8)
        #expect(guideExample.contains(setUp))
    }
}

/// This target's resources, by their path in the target.
enum FixtureProviderResource {
    static func url(_ path: String) throws -> URL {
        try #require(Bundle.module.resourceURL).appendingPathComponent(path)
    }
}
