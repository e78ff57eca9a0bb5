import Foundation
import Testing

@testable import LedgerKit

@Suite struct AmountParserTests {
    private func parse(_ text: String, _ style: DecimalStyle) throws(ImportProblem) -> Amount {
        let bytes = Array(text.utf8)
        return try bytes.withUnsafeBufferPointer { p throws(ImportProblem) in
            try AmountParser(style: style, inferredAt: nil).parse(p)
        }
    }

    /// The signed amount in plain notation, e.g. `-85`.
    private func signed(_ text: String, _ style: DecimalStyle) throws -> String {
        let amount = try parse(text, style)
        return (amount.negative ? "-" : "") + amount.magnitudeText
    }

    @Test(arguments: [
        ("12.50", "12.5"), ("-12.50", "-12.5"), ("+120.00", "120"), ("($85.00)", "-85"),
        ("(12.50)", "-12.5"),
        ("- $21.59", "-21.59"), ("$-21.59", "-21.59"), ("$.23", "0.23"), ("$3520.00", "3520"),
        ("1,234.56", "1234.56"), ("1'234.56", "1234.56"), ("1’234.56", "1234.56"),
        ("1 234.56", "1234.56"),
        ("1\u{A0}234.56", "1234.56"), ("1\u{202F}234.56", "1234.56"),
        ("1\u{2009}234.56", "1234.56"),
        ("-1,000,000.01", "-1000000.01"), ("USD 10.00", "10"), ("10.00 USD", "10"),
        ("CHF -7.10", "-7.1"),
        ("(CHF 7.10)", "-7.1"), ("€5", "5"), ("£1,000.50", "1000.5"), ("US$ 3", "3"),
        ("12.50-", "-12.5"),
        ("−4.00", "-4"), ("  7  ", "7"), ("0.001", "0.001"), ("007.10", "7.1"), ("1,000", "1000"),
    ])
    func readsPointStyleAmountsExactly(_ text: String, _ expected: String) throws {
        #expect(try signed(text, .point) == expected)
    }

    @Test(arguments: [
        ("+120,00", "120"), ("-104,69", "-104.69"), ("1.234,56", "1234.56"),
        ("1 234,56", "1234.56"),
        ("1'234,56", "1234.56"), ("EUR -5,00", "-5"), ("-7,5 EUR", "-7.5"), ("€ -9,99", "-9.99"),
        (",50", "0.5"), ("1.000", "1000"), ("-1.000.000,01", "-1000000.01"),
    ])
    func readsCommaStyleAmountsExactly(_ text: String, _ expected: String) throws {
        #expect(try signed(text, .comma) == expected)
    }

    @Test func buildsTheDecimalWithoutFloatingPoint() throws {
        let amount = try parse("1234567890123456.78", .point)
        #expect(amount.magnitude == Decimal(string: "1234567890123456.78")!)
        #expect(amount.magnitude.description == "1234567890123456.78")
        #expect(
            try parse("0.1", .point).magnitude + (try parse("0.2", .point).magnitude) == Decimal(
                string: "0.3")!)
    }

    @Test(arguments: [
        ("", ImportProblem.amountEmpty), ("   ", .amountEmpty), ("$", .amountNoDigits),
        ("abc", .amountNoDigits),
        ("twelve", .amountUnexpected("twelve")), ("12x", .amountUnexpected("x")),
        ("--5", .amountTwoSigns),
        ("-5-", .amountTwoSigns), ("(-5)", .amountTwoSigns), ("(5", .amountUnbalancedParenthesis),
        ("5)", .amountUnbalancedParenthesis), ("1.2.3", .amountAfterFraction(".")),
        ("1,23.45", .amountDecimalMismatch(style: .point, inferredAt: nil)),
        ("15,00", .amountDecimalMismatch(style: .point, inferredAt: nil)),
        ("1234,567.00", .amountDecimalMismatch(style: .point, inferredAt: nil)),
        ("1'23.45", .amountGroupSize(separator: "'")), ("5.", .amountUnexpected(".")),
        ("1234567890123456789", .amountTooManyDigits), ("((5))", .amountUnexpected("(")),
    ])
    func rejectsMalformedAmountsWithTheirReason(_ text: String, _ problem: ImportProblem) {
        #expect(throws: problem) { try parse(text, .point) }
    }

    @Test func aDecimalPointInACommaFileIsAMismatch() {
        #expect(throws: ImportProblem.amountDecimalMismatch(style: .comma, inferredAt: nil)) {
            try parse("12.50", .comma)
        }
    }

    @Test func theMismatchMessageNamesTheLineTheStyleWasInferredFrom() {
        #expect(
            ImportProblem.amountDecimalMismatch(style: .point, inferredAt: 3).reason
                == "\",\" groups thousands in this file (decimal point, inferred from line 3); "
                + "pass --decimal-comma if it is a decimal comma")
    }

    @Test(arguments: [
        ("0", true), ("0.00", true), ("0.009", true), ("0.01", false), ("0.010", false),
        ("5", false),
        ("0.000000000000000001", true),
    ])
    func knowsWhichAmountsAreBelowTheMinimum(_ text: String, _ below: Bool) throws {
        #expect(try parse(text, .point).isBelowMinimum == below)
    }
}
