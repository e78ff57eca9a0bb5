import Foundation

/// Generates strings that match a parsed pattern, steering their length.
struct PatternGenerator {
    /// How repetitions pick their counts.
    enum Bias {
        case any, short, long
    }

    let root: PatternNode

    /// A string the pattern matches, or `nil` when an anchor landed where it cannot hold
    /// (e.g. `a^b`); the caller retries.
    ///
    /// - Parameters:
    ///   - spread: How many repetitions beyond the minimum an unbounded quantifier may add.
    ///   - bias: Whether counts lean short, long, or neither.
    func generate(_ random: inout SeededRandomNumberGenerator, spread: Int, bias: Bias) -> String? {
        var state = State()
        guard emit(root, &state, &random, spread: spread, bias: bias) else { return nil }
        return state.output
    }

    private struct State {
        var output = ""
        var ended = false
    }

    private func emit(
        _ node: PatternNode, _ state: inout State, _ random: inout SeededRandomNumberGenerator,
        spread: Int, bias: Bias
    ) -> Bool {
        switch node {
        case .literal(let scalar):
            return append(scalar, &state)
        case .set(let set):
            let preferred = set.intersection(.printable)
            let pool = preferred.isEmpty ? set : preferred
            guard let scalar = pool.scalar(at: random.int(in: 0...(pool.count - 1))) else {
                return false
            }
            return append(scalar, &state)
        case .sequence(let parts):
            for part in parts where !emit(part, &state, &random, spread: spread, bias: bias) {
                return false
            }
            return true
        case .alternation(let branches):
            return emit(random.pick(branches), &state, &random, spread: spread, bias: bias)
        case .repetition(let inner, let low, let high):
            let top = high ?? (low + spread)
            let count: Int
            switch bias {
            case .any: count = random.int(in: low...top)
            case .short: count = random.int(in: low...(low + (top - low) / 3))
            case .long: count = random.int(in: (top - (top - low) / 3)...top)
            }
            for _ in 0..<count where !emit(inner, &state, &random, spread: spread, bias: bias) {
                return false
            }
            return true
        case .start:
            return state.output.isEmpty
        case .end:
            state.ended = true
            return true
        }
    }

    private func append(_ scalar: Unicode.Scalar, _ state: inout State) -> Bool {
        if state.ended { return false }
        state.output.unicodeScalars.append(scalar)
        return true
    }
}
