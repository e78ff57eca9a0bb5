import Foundation
import Testing

@testable import ObjectGraph

/// The conformance corpus: every operator, option, literal, argument form, quantifier,
/// aggregate, subquery, function and parse error, against the fixture graph.
@Suite struct PredicateConformanceTests {
    @Test func corpusHasAtLeastThreeHundredMatchCases() {
        #expect(PredicateCorpus.all.count + PredicateCorpus.parseErrors.count >= 300)
        #expect(Set(PredicateCorpus.all.map { "\($0.entity) \($0.format)" }).count > 250)
    }

    @Test(arguments: PredicateCorpus.all)
    func predicateMatchesExpectedRecords(_ c: PredicateCase) throws {
        let graph = PredicateTestGraph()
        let predicate = try FetchPredicate(format: c.format, argumentArray: c.arguments(graph))
        #expect(try graph.matches(predicate, entity: c.entity) == c.expected, "\(c.format)")
    }

    @Test(arguments: PredicateCorpus.parseErrors)
    func malformedStringThrowsParseErrorAtColumn(_ c: PredicateErrorCase) {
        do {
            let p = try FetchPredicate(format: c.format, argumentArray: c.arguments())
            Issue.record("parsed \(c.format.debugDescription) as \(p)")
        } catch let error as ObjectGraphError {
            #expect(error.reason == c.reason, "\(error.message)")
            #expect(error.column == c.column, "\(error.message)")
            let shown = String(c.format.map { $0.isNewline || $0 == "\t" ? " " : $0 })
            #expect(shown.isEmpty || error.message.contains(shown))
            let lines = error.message.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.count == 3)
            if lines.count == 3 {
                #expect(lines[2] == "  " + String(repeating: " ", count: c.column - 1) + "^")
            }
        } catch {
            Issue.record("unexpected error type \(error)")
        }
    }
}
