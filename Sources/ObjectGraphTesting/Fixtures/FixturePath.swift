/// Where an object sits in a fixture set: its file and its index in its entity's array.
struct FixturePath: Hashable, Sendable, CustomStringConvertible {
    let file: String?
    let entity: String
    let index: Int

    /// `Transaction[3]`.
    var description: String { "\(entity)[\(index)]" }
}
