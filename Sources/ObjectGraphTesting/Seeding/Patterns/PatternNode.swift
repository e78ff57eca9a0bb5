/// A parsed regular expression, in the subset the generator supports.
indirect enum PatternNode: Equatable {
    /// One scalar.
    case literal(Unicode.Scalar)
    /// One scalar from a set (a class, an escape such as `\d`, or `.`).
    case set(ScalarSet)
    /// Parts one after another.
    case sequence([PatternNode])
    /// One of several branches.
    case alternation([PatternNode])
    /// The node repeated `min` to `max` times (`nil`: no upper bound).
    case repetition(PatternNode, min: Int, max: Int?)
    /// `^` or `\A`: only at the start of the string.
    case start
    /// `$`, `\z` or `\Z`: only at the end of the string.
    case end
}

/// A construct of a pattern the generator does not support, and where it is.
struct UnsupportedPattern: Error, Equatable {
    /// The construct as written, e.g. `(?=`.
    let part: String
    /// 1-based position (in characters) in the pattern.
    let position: Int
    /// What it is, e.g. "a lookahead".
    let what: String
}
