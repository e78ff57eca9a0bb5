import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// `DecimalText.write(_:to:)`, the store's decimal writer that builds no `String`, writes
/// exactly Foundation's `description` (the canonical text the file format holds), and
/// `AttributeValue`'s decimal equality, whose fast "different" answer matches Foundation's
/// comparison.
@Suite struct DecimalTextWriterTests {
    private func written(_ value: Decimal) -> String {
        let writer = JSONByteWriter(capacity: 16)
        DecimalText.write(value, to: writer)
        return writer.string
    }

    /// A seeded decimal: a significand of a few digits up to the full 64 bits (often with
    /// trailing zeros), an exponent from −128 to 127 (mostly small), either sign; built either
    /// from bytes or by Foundation (which may keep trailing zeros in the significand).
    private func decimal(_ random: inout SeededRandomNumberGenerator) -> Decimal {
        let r = random.next()
        var mantissa: UInt64
        switch r % 5 {
        case 0: mantissa = random.next() % 1000
        case 1: mantissa = random.next() % 1_000_000_000_000
        case 2: mantissa = random.next()  // up to 20 digits
        case 3: mantissa = (random.next() % 100_000) * [1, 10, 1000, 100_000][Int((r >> 8) % 4)]
        default: mantissa = 0
        }
        let exponent =
            (r >> 16) % 8 == 0 ? Int((r >> 20) % 256) - 128 : Int((r >> 20) % 41) - 25
        let negative = (r >> 40) & 1 == 1
        if (r >> 41) & 1 == 1,
            let built = DecimalLayout.make(
                .init(isNegative: negative, mantissa: UInt128(mantissa), exponent: exponent))
        {
            return built
        }
        return Decimal(
            sign: negative ? .minus : .plus, exponent: exponent, significand: Decimal(mantissa))
    }

    @Test func theWriterSpellsEveryDecimalAsFoundationsDescription() {
        var random = SeededRandomNumberGenerator(seed: 25)
        var fastPath = 0
        for _ in 0..<100_000 {
            let value = decimal(&random)
            if DecimalLayout.parts64(value) != nil { fastPath += 1 }
            let text = written(value)
            #expect(text == value.description, "\(value)")
            #expect(text == DecimalText.text(value), "\(value)")
        }
        // Most values take the 64-bit path (the rest are zero or wide): it is what is tested.
        #expect(fastPath > 90_000)
    }

    @Test func edgeCasesAndWideSignificandsAreFoundationsDescriptionToo() {
        let posix = Locale(identifier: "en_US_POSIX")
        for text in [
            "0", "1", "-1", "0.1", "-0.01", "12.5", "-12.50", "100", "1e20", "1e127", "-9e127",
            "1e-128", "-5e-128", "123456789e-128", "0.000000000000000000001",
            "18446744073709551615", "-18446744073709551615", "1844674407370955161.5",
            "0.18446744073709551615", "18446744073709551615e-30", "18446744073709551615e100",
            "18446744073709551616", "123456789012345678901234567890.123", "-1e-100",
            "99999999999999999999999999999999999999", "3402823669209384634633746074317682114.55",
        ] {
            let value = Decimal(string: text, locale: posix)!
            #expect(written(value) == value.description, "\(text)")
        }
        #expect(written(.nan) == Decimal.nan.description)
        // Wider than 64 bits: the writer falls back to the text.
        #expect(DecimalLayout.parts64(Decimal(string: "18446744073709551616")!) == nil)
    }

    @Test func decimalAttributeValuesAreEqualExactlyWhenFoundationSaysSo() {
        var random = SeededRandomNumberGenerator(seed: 26)
        var different = 0
        for i in 0..<100_000 {
            let a = decimal(&random)
            let b: Decimal
            switch i % 4 {
            case 0: b = a
            case 1 where a.exponent > -120:
                // The same value spelled with one more trailing zero in the significand.
                b = Decimal(sign: a.sign, exponent: a.exponent - 1, significand: a.significand * 10)
            case 1: b = a
            case 2: b = a + Decimal(sign: .plus, exponent: a.exponent, significand: 1)
            default: b = decimal(&random)
            }
            let foundation = a == b && a.description == b.description
            if !foundation { different += 1 }
            #expect((AttributeValue.decimal(a) == .decimal(b)) == foundation, "\(a) \(b)")
        }
        #expect(different > 25_000)
        let wide = Decimal(string: "123456789012345678901234567")!
        #expect(AttributeValue.decimal(wide) == .decimal(wide))
        #expect(AttributeValue.decimal(wide) != .decimal(wide + 1))
        #expect(AttributeValue.decimal(.nan) != .decimal(0))
    }
}
