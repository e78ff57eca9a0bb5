import Foundation
import ObjectGraph

/// Generates plausible values that pass an attribute's rules: type, optionality, default,
/// limits, lengths and pattern.
struct ValueGenerator {
    /// "Now" for dates: generated dates fall within a year around it unless limits say otherwise.
    let referenceDate: Date
    let patterns: CompiledPatterns

    /// A value for `attribute` of the `index`-th object of `entity`.
    ///
    /// - Parameters:
    ///   - attempt: 0 for the first value; higher when a uniqueness constraint asks for
    ///     another one, which widens the choice (number suffixes, full limit ranges).
    ///   - nilChance: The probability of `nil` for an optional attribute.
    /// - Throws: ``ObjectGraphError`` 134060 naming the attribute and the rule it cannot meet.
    func value(
        for attribute: AttributeDescription, of entity: EntityDescription, index: Int, attempt: Int,
        nilChance: Double, random: inout SeededRandomNumberGenerator
    ) throws -> AttributeValue {
        if attribute.isOptional && random.chance(nilChance) { return .null }
        if attempt == 0, !attribute.defaultValue.isNull, random.chance(0.3),
            AttributeRules.accepts(attribute.defaultValue, attribute)
        {
            return attribute.defaultValue
        }
        let key = attribute.name.lowercased()
        let value: AttributeValue?
        switch attribute.type {
        case .integer16, .integer32, .integer64:
            value = integer(attribute, key: key, index: index, attempt: attempt, &random)
        case .decimal:
            value = decimal(attribute, key: key, attempt: attempt, &random).map { .decimal($0) }
        case .double:
            value = floating(attribute, key: key, attempt: attempt, &random).map { .double($0) }
        case .float:
            value = float(attribute, key: key, attempt: attempt, &random).map { .float($0) }
        case .string:
            value = .string(
                try string(attribute, entity: entity, index: index, attempt: attempt, &random))
        case .boolean:
            value = .boolean(random.chance(0.5))
        case .date:
            value = date(attribute, key: key, &random).map { .date($0) }
        case .binaryData:
            value = .data(
                Data(
                    (0..<random.int(in: 16...64)).map { _ in
                        UInt8(truncatingIfNeeded: random.next())
                    }))
        case .uuid:
            value = .uuid(random.uuid())
        case .uri:
            value = url(entity: entity, key: key, index: index, attempt: attempt, &random).map {
                .uri($0)
            }
        case .transformable:
            value =
                attribute.defaultValue.isNull
                ? (attribute.isOptional ? .null : .transformable(Data("{}".utf8)))
                : attribute.defaultValue
        case .undefined, .objectID:
            value = .null
        }
        guard let value, AttributeRules.accepts(value, attribute) else {
            throw SeedErrors.unsatisfiableAttribute(
                entity: entity.name, attribute: attribute,
                reason: "no \(attribute.type.rawValue) value fits its limits")
        }
        return value
    }

    // MARK: Numbers

    private func integer(
        _ a: AttributeDescription, key: String, index: Int, attempt: Int,
        _ random: inout SeededRandomNumberGenerator
    ) -> AttributeValue? {
        guard let typeRange = a.type.integerRange else { return nil }
        var lo = typeRange.lowerBound
        var hi = typeRange.upperBound
        if case .integer(let m)? = a.minValue { lo = max(lo, m) }
        if case .integer(let m)? = a.maxValue { hi = min(hi, m) }
        guard lo <= hi else { return nil }
        if attempt == 0,
            ["position", "order", "index", "sort", "sequence"].contains(where: key.contains)
        {
            let sequential = Int64(index) + max(lo, 1)
            if sequential <= hi { return .integer(sequential) }
        }
        let plausible: ClosedRange<Int64> =
            switch key {
            case _ where key.contains("year"): 1970...Int64(referenceYear)
            case _ where key.contains("pages"): 24...900
            case _ where key == "age" || key.hasPrefix("age"): 18...90
            case _
            where ["count", "quantity", "qty", "copies", "stock", "number"].contains(
                where: key.contains):
                1...50
            case _
            where ["rating", "stars", "priority", "level", "rank"].contains(where: key.contains):
                1...5
            case _ where ["minutes", "duration"].contains(where: key.contains): 5...240
            case _ where key.contains("percent"): 0...100
            default: 0...1000
            }
        let range = attempt > 3 ? lo...hi : Self.clamp(plausible, lo...hi)
        return .integer(random.int64(in: range))
    }

    /// `preferred` limited to `bounds`, or a window at the edge of `bounds` nearest to it.
    static func clamp(_ preferred: ClosedRange<Int64>, _ bounds: ClosedRange<Int64>) -> ClosedRange<
        Int64
    > {
        if preferred.overlaps(bounds) {
            return max(
                preferred.lowerBound, bounds.lowerBound)...min(
                    preferred.upperBound, bounds.upperBound)
        }
        let width = preferred.upperBound - preferred.lowerBound
        if preferred.upperBound < bounds.lowerBound {
            return bounds
                .lowerBound...(bounds.upperBound - bounds.lowerBound > width
                ? bounds.lowerBound + width : bounds.upperBound)
        }
        return
            (bounds.upperBound - bounds.lowerBound > width
            ? bounds.upperBound - width : bounds.lowerBound)...bounds.upperBound
    }

    /// The UTC year of ``referenceDate``.
    var referenceYear: Int {
        let days = Int64((referenceDate.timeIntervalSince1970 / 86_400).rounded(.down))
        return CivilCalendar.civil(days: Int(days)).year
    }

    /// A preferred range and scale (fraction digits) for decimal and floating attributes.
    func plausibleReal(_ key: String) -> (lo: Double, hi: Double, scale: Int) {
        func has(_ parts: String...) -> Bool { parts.contains(where: key.contains) }
        if has("lat") { return (-90, 90, 4) }
        if has("lon", "lng") { return (-180, 180, 4) }
        if has("rate", "ratio", "fraction") { return (0, 1, 3) }
        if has("percent", "score") { return (0, 100, 1) }
        if has("temperature", "temp") { return (-10, 35, 1) }
        if has("weight", "height", "width", "depth", "distance", "length", "size") {
            return (0.5, 100, 1)
        }
        if has(
            "amount", "price", "cost", "total", "balance", "salary", "fee", "payment", "sum",
            "budget",
            "tax", "tip", "value")
        {
            return (1, 500, 2)
        }
        return (0, 1000, 2)
    }
}
