import Foundation

/// The model's attribute rules, checked at save and by `validateValue(_:forKey:)`.
enum ValidationRules {
    static func check(_ value: AttributeValue, _ a: AttributeDescription, _ object: ManagedObject)
        -> ObjectGraphError?
    {
        if value.isNull {
            // A derived attribute is computed after validation, so a non-optional one that
            // is still nil fails as any mandatory attribute does (Core Data: see
            // ManagedObjectContext.save()).
            return a.isOptional ? nil : ValidationErrors.missing(object, a.name)
        }
        switch value {
        case .integer, .double, .float, .decimal, .date:
            // Only numbers and dates have an order the limits can break.
            if let min = a.minValue, let order = value.numericOrder(to: min),
                order == .orderedAscending
            {
                return ValidationErrors.limit(object, a, value, min, tooSmall: true)
            }
            if let max = a.maxValue, let order = value.numericOrder(to: max),
                order == .orderedDescending
            {
                return ValidationErrors.limit(object, a, value, max, tooSmall: false)
            }
        default:
            break
        }
        if case .string(let s) = value {
            if a.minLength != nil || a.maxLength != nil {
                // Counting characters walks the string: only when a length rule asks.
                let length = s.count
                if let min = a.minLength, length < min {
                    return ValidationErrors.length(object, a, s, min, tooShort: true)
                }
                if let max = a.maxLength, length > max {
                    return ValidationErrors.length(object, a, s, max, tooShort: false)
                }
            }
            if let pattern = a.pattern, !cache.fullMatch(s, pattern, of: a) {
                return ValidationErrors.pattern(object, a, s)
            }
        }
        for (i, predicate) in a.testablePredicates.enumerated() where !predicate.accepts(value) {
            return ValidationErrors.predicate(
                object, a, value, a.validationPredicates[i], warning: a.validationWarnings[i])
        }
        return nil
    }

    private static let cache = RegexCache()
}

/// Compiled regular expressions by pattern, with each pattern's recent answers.
///
/// A save checks the same few values against a pattern over and over (an enum-like
/// `kind`, a colour), so each pattern remembers whether a string matched, for up to
/// ``memoLimit`` distinct strings: a repeated value costs one hash lookup instead of a
/// regular-expression match. The answer for a string never changes, so the memo is exact
/// (it holds ASCII strings only; see ``fullMatch(_:_:of:)``).
final class RegexCache: @unchecked Sendable {
    // Sendable: `patterns`, `attributes` and every entry's `answers` are guarded by `lock`;
    // NSRegularExpression is immutable and thread-safe.
    private let lock = NSLock()
    private var patterns: [String: Entry] = [:]
    /// Each attribute's entry, found by the description's identity (a pointer hash, not a
    /// text hash); the entry's pattern is compared too, so a reused address never matches.
    private var attributes: [ObjectIdentifier: Entry] = [:]
    /// How many strings each pattern remembers; later strings are matched every time.
    static let memoLimit = 1024

    /// A pattern compiled (`nil` when invalid), with its remembered answers.
    private final class Entry {
        let regex: NSRegularExpression?
        var answers: [String: Bool] = [:]
        let pattern: String
        init(_ pattern: String) {
            self.pattern = pattern
            regex = try? NSRegularExpression(pattern: pattern)
        }
    }

    /// Whether the whole of `s` matches `pattern`, the pattern of `attribute`; `false` for
    /// an invalid pattern.
    func fullMatch(_ s: String, _ pattern: String, of attribute: AttributeDescription) -> Bool {
        // Only ASCII strings are remembered: Swift compares strings by canonical
        // equivalence, and two ASCII strings are equal only when their bytes are.
        let memoizable = s.utf8.allSatisfy { $0 < 0x80 }
        lock.lock()
        defer { lock.unlock() }
        let entry: Entry
        if let known = attributes[ObjectIdentifier(attribute)], known.pattern == pattern {
            entry = known
        } else {
            entry = self.entry(pattern)
            attributes[ObjectIdentifier(attribute)] = entry
        }
        return match(s, entry, memoizable: memoizable)
    }

    /// The entry of `pattern`, made when new; call holding `lock`.
    private func entry(_ pattern: String) -> Entry {
        if let known = patterns[pattern] { return known }
        let entry = Entry(pattern)
        patterns[pattern] = entry
        return entry
    }

    /// Whether the whole of `s` matches `entry`'s pattern; call holding `lock`.
    private func match(_ s: String, _ entry: Entry, memoizable: Bool) -> Bool {
        if memoizable, let known = entry.answers[s] { return known }
        guard let regex = entry.regex else { return false }
        let range = NSRange(s.startIndex..., in: s)
        let answer = regex.firstMatch(in: s, options: [.anchored], range: range)?.range == range
        if memoizable, entry.answers.count < Self.memoLimit { entry.answers[s] = answer }
        return answer
    }
}
