/// The members of a JSON object: unique keys, in the order they were added.
///
/// Parsed objects keep the document's order; objects built from a dictionary sort their
/// keys by UTF-8 bytes (the canonical order of model files and fixtures); objects built
/// from a list keep the list's order (`--json` output that reads best in a given order).
/// Two objects are equal when they hold the same keys with equal values, in any order.
package struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// A member: its key and value.
    package typealias Element = (key: String, value: JSONValue)

    private var members: [Element] = []
    private var positions: [String: Int] = [:]

    /// An empty object.
    package init() {}

    /// The members in the order given; a repeated key keeps its first place and last value.
    package init(_ members: [(String, JSONValue)]) {
        for (key, value) in members { self[key] = value }
    }

    /// The members of `dictionary`, keys sorted by their UTF-8 bytes.
    package init(_ dictionary: [String: JSONValue]) {
        self.init(
            dictionary.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map {
                ($0.key, $0.value)
            })
    }

    /// The members in the order written.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    /// The value of `key`, or `nil`; setting `nil` removes the member.
    package subscript(key: String) -> JSONValue? {
        get { positions[key].map { members[$0].value } }
        set {
            if let i = positions[key] {
                if let newValue {
                    members[i].value = newValue
                } else {
                    members.remove(at: i)
                    positions = Dictionary(
                        uniqueKeysWithValues: members.enumerated().map { ($1.key, $0) })
                }
            } else if let newValue {
                positions[key] = members.count
                members.append((key, newValue))
            }
        }
    }

    /// The keys, in order.
    package var keys: [String] { members.map(\.key) }
    /// How many members there are.
    package var count: Int { members.count }
    /// Whether there are no members.
    package var isEmpty: Bool { members.isEmpty }

    /// The members, in order.
    package func makeIterator() -> IndexingIterator<[Element]> { members.makeIterator() }

    /// The values transformed, by key.
    package func mapValues<T>(_ transform: (JSONValue) throws -> T) rethrows -> [String: T] {
        var result: [String: T] = [:]
        for (key, value) in members { result[key] = try transform(value) }
        return result
    }

    package static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.count == b.count && a.members.allSatisfy { b[$0.key] == $0.value }
    }
}
