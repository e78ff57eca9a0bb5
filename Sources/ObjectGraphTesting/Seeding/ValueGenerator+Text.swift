import Foundation
import ObjectGraph

/// Strings: plausible text for the key, fitted to the lengths, or generated from the pattern.
extension ValueGenerator {
    func string(
        _ a: AttributeDescription, entity: EntityDescription, index: Int, attempt: Int,
        _ random: inout SeededRandomNumberGenerator
    ) throws -> String {
        let kind = TextKind.guess(key: a.name, entity: entity.name)
        let candidate = fit(
            plausible(kind, entity: entity, index: index, attempt: attempt, &random), a, &random)
        guard let node = try patterns.node(for: a, of: entity.name) else { return candidate }
        if AttributeRules.accepts(.string(candidate), a) { return candidate }
        return try fromPattern(node, a, entity: entity.name, &random)
    }

    /// A string the pattern matches in full, within the length limits.
    private func fromPattern(
        _ node: PatternNode, _ a: AttributeDescription, entity: String,
        _ random: inout SeededRandomNumberGenerator
    ) throws -> String {
        let generator = PatternGenerator(root: node)
        var spread = Swift.max(6, a.minLength ?? 0)
        var bias = PatternGenerator.Bias.any
        for _ in 0..<200 {
            guard let s = generator.generate(&random, spread: spread, bias: bias) else { continue }
            if let min = a.minLength, s.count < min {
                bias = .long
                spread = Swift.min(spread * 2, 10_000)
                continue
            }
            if let max = a.maxLength, s.count > max {
                bias = .short
                spread = Swift.max(1, spread / 2)
                continue
            }
            if AttributeRules.fullMatch(s, a.pattern ?? "") { return s }
        }
        throw SeedErrors.unsatisfiableAttribute(
            entity: entity, attribute: a,
            reason:
                "200 strings generated from the pattern \(a.pattern ?? "") all missed it or the length limits"
                + " (minLength \(a.minLength.map(String.init) ?? "none"), maxLength \(a.maxLength.map(String.init) ?? "none"));"
                + " check for anchors in the middle or limits the pattern cannot meet")
    }

    /// `s` padded with words or cut to fit the length limits.
    private func fit(
        _ s: String, _ a: AttributeDescription, _ random: inout SeededRandomNumberGenerator
    ) -> String {
        var s = s
        if let min = a.minLength {
            while s.count < min { s += " " + random.pick(PlausibleWords.words) }
        }
        if let max = a.maxLength, s.count > max {
            s = String(s.prefix(max))
            while s.last == " " { s.removeLast() }
            while s.count < (a.minLength ?? 0) {
                s.append(Character(Unicode.Scalar(UInt8(97 + random.int(in: 0...25)))))
            }
        }
        return s
    }

    /// Plausible text of `kind`; later attempts add a number so values differ.
    private func plausible(
        _ kind: TextKind, entity: EntityDescription, index: Int, attempt: Int,
        _ random: inout SeededRandomNumberGenerator
    ) -> String {
        let number = attempt > 0 ? String(random.int(in: 2...9_999)) : ""
        let spaced = number.isEmpty ? "" : " " + number
        func pick(_ list: [String]) -> String { random.pick(list) }
        switch kind {
        case .email:
            let local = "\(pick(PlausibleWords.firstNames)).\(pick(PlausibleWords.lastNames))"
                .lowercased()
            return "\(local)\(number)@\(pick(PlausibleWords.domains))"
        case .url:
            return
                "https://\(pick(PlausibleWords.domains))/\(entity.name.lowercased())/\(index + 1)\(number.isEmpty ? "" : "-" + number)"
        case .firstName: return pick(PlausibleWords.firstNames) + spaced
        case .lastName: return pick(PlausibleWords.lastNames) + spaced
        case .fullName:
            return "\(pick(PlausibleWords.firstNames)) \(pick(PlausibleWords.lastNames))" + spaced
        case .username:
            return (pick(PlausibleWords.firstNames) + pick(PlausibleWords.lastNames).prefix(1))
                .lowercased()
                + String(random.int(in: 1...99)) + number
        case .phone: return "+1 555 01\(random.int(in: 10...99))"
        case .city: return pick(PlausibleWords.cities) + spaced
        case .country: return pick(PlausibleWords.countries) + spaced
        case .street:
            return
                "\(random.int(in: 1...250)) \(pick(PlausibleWords.nouns)) \(pick(PlausibleWords.streetKinds))"
        case .company:
            return "\(pick(PlausibleWords.nouns)) \(pick(PlausibleWords.companySuffixes))" + spaced
        case .colorHex:
            return "#"
                + (0..<6).map { _ in String(random.int(in: 0...15), radix: 16, uppercase: true) }
                .joined()
        case .currency: return pick(PlausibleWords.currencies)
        case .sentence:
            let words = (0..<random.int(in: 4...10)).map { _ in pick(PlausibleWords.words) }
            return words.joined(separator: " ").prefix(1).uppercased()
                + words.joined(separator: " ").dropFirst() + "."
        case .title:
            return random.chance(0.5)
                ? "The \(pick(PlausibleWords.adjectives)) \(pick(PlausibleWords.nouns))" + spaced
                : "\(pick(PlausibleWords.nouns)) of \(pick(PlausibleWords.cities))" + spaced
        case .tag:
            return pick(PlausibleWords.nouns).lowercased() + (number.isEmpty ? "" : "-" + number)
        case .code:
            let letters = (0..<3).map { _ in
                String(UnicodeScalar(UInt8(65 + random.int(in: 0...25))))
            }.joined()
            return "\(letters)-\(random.int(in: 1000...9999))"
        case .category: return pick(PlausibleWords.categories) + spaced
        case .placeName:
            return
                (random.chance(0.5)
                ? pick(PlausibleWords.nouns)
                : "\(pick(PlausibleWords.adjectives)) \(pick(PlausibleWords.nouns))") + spaced
        case .words:
            let words = (0..<random.int(in: 1...3)).map { _ in pick(PlausibleWords.words) }.joined(
                separator: " ")
            return words.prefix(1).uppercased() + words.dropFirst() + spaced
        }
    }

    /// A plausible URL for a `uri` attribute.
    func url(
        entity: EntityDescription, key: String, index: Int, attempt: Int,
        _ random: inout SeededRandomNumberGenerator
    ) -> URL? {
        let domain = random.pick(PlausibleWords.domains)
        let suffix = attempt > 0 ? "-\(random.int(in: 2...9_999))" : ""
        let path =
            ["avatar", "image", "photo", "picture", "thumbnail", "logo"].contains(
                where: key.contains)
            ? "images/\(entity.name.lowercased())-\(index + 1)\(suffix).png"
            : "\(entity.name.lowercased())/\(index + 1)\(suffix)"
        return URL(string: "https://\(domain)/\(path)")
    }
}
