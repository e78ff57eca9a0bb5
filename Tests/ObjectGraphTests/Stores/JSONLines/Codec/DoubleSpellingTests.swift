import Foundation
import ObjectGraphTesting
import Testing

@testable import ObjectGraph

/// Doubles written through the short-decimal shortcut are spelled exactly as `description`
/// spells them (the canonical form), and every other double still is.
@Suite struct DoubleSpellingTests {
    private func written(_ v: Double) -> String {
        let w = JSONByteWriter(capacity: 64)
        w.append(shortest: v)
        return w.string
    }

    /// Each finite value of `samples`, and its negation, is written as `description` spells
    /// it and reads back bit for bit.
    private func expectSpelledAsDescription(
        _ samples: [Double], sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for v in samples where v.isFinite {
            #expect(written(v) == v.description, "\(v.bitPattern)", sourceLocation: sourceLocation)
            #expect(
                written(-v) == (-v).description, "\(v.bitPattern)", sourceLocation: sourceLocation)
            #expect(
                Double(written(v))?.bitPattern == v.bitPattern, "\(v.bitPattern)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func shortDecimalsAndIntegersMatchDescription() {
        var random = SeededRandomNumberGenerator(seed: 5)
        var samples: [Double] = [
            0.001, 0.0011, 0.01, 0.1, 0.5, 1, 9.999999, 523.45, 1_700_000_000, 1_700_000_100.25,
            999_999_999_999_999, 1e15, 123_456_789.123456, 9_007_199_254_740_991,
            9_007_199_254_740_992,
            4_503_599_627_370_497, 0.000999, 0.0009999999, 1e-4, 1e16, 0.3, 0.30000000000000004,
            2.675, 1.005, 100.1, 1234567.000001,
        ]
        for _ in 0..<100_000 {
            let k = Int(random.next() % 8)
            let m = Double(random.next() % 1_000_000_000_000_000)
            samples.append(m / [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7][k])
            samples.append(Double(random.next() % 100_000) / 100)
        }
        for v in samples {
            #expect(written(v) == v.description, "\(v)")
            #expect(written(-v) == (-v).description, "\(-v)")
        }
    }

    @Test func productsAndNeighboursOfShortDecimalsMatchDescriptionAndReadBack() {
        // A batch update's `amount * 1.2` lands on a short decimal or one ulp beside it; the
        // shortcut's single try at six places must take the first and refuse the second,
        // at every magnitude around its 10^9 bound and at every number of places.
        var random = SeededRandomNumberGenerator(seed: 25)
        var samples: [Double] = [
            628.14, 628.14.nextUp, 628.14.nextDown, 999_999_999.999999, 1e9.nextDown, 1e9,
            1e9.nextUp, 0.001, 0.001.nextUp, 0.000999999, 123.4560001, 0.1 + 0.2,
        ]
        for _ in 0..<100_000 {
            let cents = Double(random.next() % 100_000_000) / 100
            samples.append(cents * 1.2)
            let places = Int(random.next() % 7)
            let short =
                Double(random.next() % 1_000_000_000_000_000)
                / [1, 10, 100, 1e3, 1e4, 1e5, 1e6][places]
            samples += [short, short.nextUp, short.nextDown]
        }
        for v in samples where v.isFinite {
            #expect(written(v) == v.description, "\(v)")
            #expect(Double(written(v))?.bitPattern == v.bitPattern, "\(v)")
        }
    }

    @Test func anyFiniteBitPatternMatchesDescription() {
        var random = SeededRandomNumberGenerator(seed: 8)
        var samples: [Double] = [
            0, -0.0, .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            -.greatestFiniteMagnitude, 1e-5, 1e21, 1.7976931348623157e308, Double(bitPattern: 1),
            -Double(bitPattern: 0x000F_FFFF_FFFF_FFFF),
        ]
        for _ in 0..<100_000 { samples.append(Double(bitPattern: random.next())) }
        for v in samples where v.isFinite {
            #expect(written(v) == v.description, "\(v.bitPattern)")
            #expect(Double(written(v)) == v)
        }
    }

    /// 16–17-digit spellings between 1 and 10^15 (issue 25, thirteenth session: written by
    /// exact integer arithmetic, no longer through `description`).
    @Test func longDoublesAreSpelledAsDescriptionSpellsThem() {
        var random = SeededRandomNumberGenerator(seed: 1316)
        var samples: [Double] = [
            675_242_087.580_247_4, 1.000_000_000_000_000_2, 1.1, 0.1 + 0.2 + 1,
            999_999_999_999_999.9,
            1.0.nextUp, 2.0.nextDown, 2.0.nextUp, 4.0.nextDown, 1e15.nextDown,
            123_456.789_012_345_67,
            9.999_999_999_999_998,
        ]
        for _ in 0..<60_000 {
            // Any mantissa at any binary exponent between 1 and 10^15.
            let exponent = Int(random.next() % 50)
            let bits = random.next() & 0x000F_FFFF_FFFF_FFFF
            let v = Double(
                sign: .plus, exponentBitPattern: UInt(1023 + exponent), significandBitPattern: bits)
            samples.append(v)
            // Dates since 2001 with a sub-second part, as `Date()` makes them.
            let seconds = Double(Int64(random.next() % 2_000_000_000) - 1_000_000_000)
            samples.append(seconds + Double(random.next() % 10_000_000) / 10_000_000)
            samples.append(
                Date(timeIntervalSince1970: seconds + 1e9).timeIntervalSinceReferenceDate)
            // Products of short decimals, as a batch update makes them.
            samples.append(Double(random.next() % 100_000_000) / 100 * 1.2)
        }
        expectSpelledAsDescription(samples)
    }

    /// Values with a fraction between 1 and 2^52, spelled by their fraction's digits in 64-bit
    /// integers (issue 25, twenty-second session): every binary exponent of that range, dates
    /// before 2001 and far after it, amounts, and the values two spellings are equally near
    /// (left to `description`).
    @Test func fractionsBetweenOneAndTwoToThe52AreSpelledAsDescriptionSpellsThem() {
        var random = SeededRandomNumberGenerator(seed: 2222)
        let twoTo52 = 4_503_599_627_370_496.0
        var samples: [Double] = [
            Double(1).nextUp, Double(2).nextDown, Double(2).nextUp, 1.5, 1.05, 9.95, 1.1,
            0.1 + 0.2 + 1, 223.21,
            218.64, 675_242_087.580_247_4, -978_307_200.5, -978_307_199.999_999_9,
            twoTo52.nextDown, twoTo52 / 2 + 0.5, twoTo52 / 4 + 0.25, twoTo52 / 4 + 0.75,
            twoTo52 / 8 + 0.125, twoTo52 / 8 + 0.375, 1e15 + 0.5, 1e15.nextDown, 1e15.nextUp,
            999_999_999.999_999_9, 1e9.nextDown, 1e9.nextUp, 32_503_680_000.000_001,
            9.999_999_999_999_998, 123_456.789_012_345_67,
        ]
        for exponent in 0..<52 {
            let low = Double(sign: .plus, exponent: exponent, significand: 1)
            samples += [low.nextUp, (low * 2).nextDown, low + low / 3]
        }
        for _ in 0..<30_000 {
            // Any mantissa at any binary exponent from 0 to 51.
            let exponent = Int(random.next() % 52)
            let bits = random.next() & 0x000F_FFFF_FFFF_FFFF
            samples.append(
                Double(
                    sign: .plus, exponentBitPattern: UInt(1023 + exponent),
                    significandBitPattern: bits))
            // Dates from 1900 to 2300 with a sub-second part, as `Date()` makes them.
            let seconds = Double(Int64(random.next() % 12_600_000_000) - 3_200_000_000)
            samples.append(
                Date(timeIntervalSince1970: seconds + Double(random.next() % 10_000_000) / 1e7)
                    .timeIntervalSinceReferenceDate)
            // Amounts of one or two places, and their products and neighbours.
            let cents = Double(random.next() % 100_000_000) / 100
            samples += [cents, cents * 1.2, cents.nextUp, cents.nextDown]
        }
        expectSpelledAsDescription(samples)
    }

    /// A value two spellings are equally near (2^50 + 0.25 and + 0.75, either sign) is left
    /// to `description` with the writer's earlier bytes kept: the fast path's partial digits
    /// are taken back to where the value began, not to the buffer's start (the w1e review).
    @Test func aTieLeftToDescriptionKeepsTheBytesWrittenBeforeIt() {
        let twoTo50 = 1_125_899_906_842_624.0
        for v in [twoTo50 + 0.25, twoTo50 + 0.75, -(twoTo50 + 0.25), -(twoTo50 + 0.75)] {
            let w = JSONByteWriter(capacity: 64)
            w.append(ascii: "[1,")
            w.append(shortest: v)
            w.append(ascii: "]")
            #expect(w.string == "[1,\(v.description)]", "\(v.bitPattern)")
        }
    }

    /// Values nearest to a midpoint between two 16-digit decimals (a 17-digit decimal ending
    /// in 5, at every number of integer digits from 1 to 16), and their neighbours: the cases
    /// where the shortest spellings' last digit is closest to a toss-up, spelled as
    /// `description` spells them and read back bit for bit (the w1e review).
    @Test func valuesNearAMidpointAreSpelledAsDescriptionSpellsThem() {
        var random = SeededRandomNumberGenerator(seed: 5050)
        var samples: [Double] = []
        for integerDigits in 1...16 {
            for _ in 0..<250 {
                // 16 random digits (the first not 0), then a 5.
                var digits = String(1 + random.next() % 9)
                for _ in 1..<16 { digits += String(random.next() % 10) }
                digits += "5"
                let text =
                    digits.prefix(integerDigits) + "." + digits.dropFirst(integerDigits)
                guard let v = Double(text) else { continue }
                samples += [v, v.nextUp, v.nextDown]
            }
        }
        #expect(samples.count == 16 * 250 * 3)
        expectSpelledAsDescription(samples)
    }

    /// Fractions of every length from 1 to 16 places at every number of integer digits that
    /// leaves them 17 significant digits at most, with zeros among and at the end of their
    /// digits (an even length ending in a pair "x0", an odd one, runs of zeros), their
    /// neighbours, and the values two spellings are equally near at binary places 1–4 near
    /// 2^40–2^52: spelled two places a step as `description` spells them, and read back bit
    /// for bit (issue 25, twenty-third session).
    @Test func fractionsOfEveryLengthAreSpelledAsDescriptionSpellsThem() {
        var random = SeededRandomNumberGenerator(seed: 2323)
        var samples: [Double] = []
        for places in 1...16 {
            for integerDigits in 1...(17 - places) {
                for _ in 0..<60 {
                    var text = String(1 + random.next() % 9)
                    for _ in 1..<integerDigits { text += String(random.next() % 10) }
                    text += "."
                    // Half the digits 0, so zeros fall inside, at the end, and in pairs.
                    for _ in 0..<places {
                        text += random.next() % 2 == 0 ? "0" : String(random.next() % 10)
                    }
                    guard let v = Double(text) else { continue }
                    samples += [v, v.nextUp, v.nextDown]
                }
            }
        }
        for exponent in 40..<53 {
            let low = Double(sign: .plus, exponent: exponent, significand: 1)
            for binaryPlaces in 1...4 where exponent + binaryPlaces <= 52 {
                let step = 1 / Double(1 << binaryPlaces)
                for steps in 1..<(1 << binaryPlaces) {
                    let whole = low + Double(random.next() % 1_000)
                    samples.append(whole + Double(steps) * step)
                }
            }
        }
        expectSpelledAsDescription(samples)
    }
}
