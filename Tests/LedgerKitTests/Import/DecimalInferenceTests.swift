import Testing

@testable import LedgerKit

@Suite struct DecimalInferenceTests {
    @Test(arguments: [
        ("1,234.56", DecimalStyle?.some(.point)), ("1.234,56", .comma), ("15,00", .comma),
        ("12.5", .point),
        ("1,000,000", .point), ("1.000.000", .comma), (",50", .comma), (".23", .point),
        ("$.23", .point),
        ("0,500", .comma), ("1234,567", .comma), ("-104,69", .comma), ("11'373.94", .point),
        ("1,000", nil), ("1.000", nil), ("100", nil), ("", nil), ("($85.00)", .point),
    ])
    func infersTheStyleOnlyWhenACellSettlesIt(_ text: String, _ expected: DecimalStyle?) {
        let bytes = Array(text.utf8)
        #expect(bytes.withUnsafeBufferPointer(DecimalInference.evidence) == expected)
    }
}
