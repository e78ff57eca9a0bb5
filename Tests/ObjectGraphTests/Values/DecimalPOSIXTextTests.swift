import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `Decimal(posixText:)`: the engine's one way to read a decimal from text, with `.` as the
/// separator whatever the process's locale, and without making a `Locale` (which loads ICU's
/// locale and number-format data, ≈ 3–4 MB of resident memory a process).
@Suite struct DecimalPOSIXTextTests {
    /// Inputs of every shape the engine reads: literals, exponents, signs, the limits of
    /// `Decimal`, and text with a prefix that is a number (read as `Decimal(string:locale:)`
    /// reads it).
    static let corpus = [
        "0", "1", "-1.5", "523.17", "0.000001", "100000", "-0.1", "7e-20", "-1234.56",
        "18446744073709551615", "12345678901234567890123456789012345678",
        "340282366920938463463374607431768211455", "99999999999999999999999999999999999999e50",
        "1e-120", "4294967296.65536", "1.5e3", "1E3", "2.5e+2", ".25", "1.", "+3", "-0", "007",
        "1,5", " 2.5", "2.5x", "", "x", "-", ".", "e5", "1e", "NaN", "1.2.3", "0.1e-5",
    ]

    @Test func everyReadGivesWhatTheEnUSPOSIXLocaleGives() {
        let posix = Locale(identifier: "en_US_POSIX")
        var random = SeededRandomNumberGenerator(seed: 25)
        var texts = Self.corpus
        for _ in 0..<2_000 {
            let r = random.next()
            texts.append(
                "\(r % 2 == 0 ? "-" : "")\(r % 10_000_000).\(r % 1000)e\(Int(r % 41) - 20)")
        }
        for text in texts {
            let ours = Decimal(posixText: text)
            let reference = Decimal(string: text, locale: posix)
            #expect(
                ours == reference,
                "\(text): \(String(describing: ours)) against \(String(describing: reference))")
            #expect(ours?.isNaN == reference?.isNaN, "\(text)")
        }
    }

    /// The engine's sources make no `Locale` but for the repair report's date formatter: a
    /// `Locale` on a path every process takes (the decimal layout check that compiling a
    /// predicate runs, the store's decimal reads) put ICU's locale data into every process's
    /// resident memory (W7 in docs/performance.md). A new use needs a reason written here.
    @Test func theEngineMakesNoLocaleOutsideTheRepairReportsDateFormatter() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/ObjectGraph")
        let allowed: Set<String> = ["JSONLinesStore+Repair.swift"]
        guard let files = FileManager.default.enumerator(atPath: sources.path) else {
            Issue.record("no sources at \(sources.path)")
            return
        }
        var checked = 0
        var found: [String] = []
        for case let path as String in files where path.hasSuffix(".swift") {
            checked += 1
            let text = try String(
                contentsOfFile: sources.appendingPathComponent(path).path, encoding: .utf8)
            let code = text.split(separator: "\n").filter {
                !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//")
            }
            if code.contains(where: { $0.contains("Locale(") || $0.contains("Locale.current") }),
                !allowed.contains(URL(fileURLWithPath: path).lastPathComponent)
            {
                found.append(path)
            }
        }
        #expect(checked > 100, "only \(checked) sources found under \(sources.path)")
        #expect(found.isEmpty, "sources that make a Locale: \(found)")
    }
}
