import Foundation

/// The values one uniqueness constraint takes in a save, numbered in order of first use,
/// with a ``ConstraintClash`` made only for a value that a second object or a stored row
/// shares: a save of 100,000 distinct values allocates no group at all.
struct ClashGroups {
    /// A constraint's values: one (the common case, hashed without an array) or several.
    enum Key: Hashable {
        case single(StoreValue)
        case compound([StoreValue])

        var values: [StoreValue] {
            switch self {
            case .single(let value): [value]
            case .compound(let values): values
            }
        }
    }

    let owner: EntityDescription
    let constraint: [String]
    private var numbers: [Key: Int] = [:]
    /// The key and first object of each number.
    private var firstKeys: [Key] = []
    private var firstObjects: [ManagedObject] = []
    /// The clash group of each number that has one, as an index into `groups`.
    private var groupOf: [Int: Int] = [:]
    private var groups: [(number: Int, clash: ConstraintClash)] = []

    init(owner: EntityDescription, constraint: [String], expected: Int) {
        self.owner = owner
        self.constraint = constraint
        numbers.reserveCapacity(expected)
    }

    /// Records that `object` (of the save) uses `key`.
    mutating func add(_ key: Key, _ object: ManagedObject) {
        let next = firstKeys.count
        let number = Self.entry(&numbers[key, default: next])
        if number == next {
            firstKeys.append(key)
            firstObjects.append(object)
        } else {
            groups[group(number)].clash.objects.append(object)
        }
    }

    /// Records that a stored row uses `key`, when an object of the save does too.
    mutating func add(_ key: Key, _ row: StoreRow) {
        guard let number = numbers[key] else { return }
        groups[group(number)].clash.rows.append(row)
    }

    /// The clashes, in order of their values' first use.
    var clashes: [ConstraintClash] {
        groups.sorted { $0.number < $1.number }.map(\.clash)
    }

    /// The index in `groups` of number `number`'s group, made with its first object.
    private mutating func group(_ number: Int) -> Int {
        if let known = groupOf[number] { return known }
        groups.append(
            (
                number,
                ConstraintClash(
                    owner: owner, constraint: constraint, values: firstKeys[number].values,
                    objects: [firstObjects[number]], rows: [])
            ))
        groupOf[number] = groups.count - 1
        return groups.count - 1
    }

    /// The value of a dictionary entry just found or made (`dictionary[key, default: n]`).
    private static func entry(_ value: inout Int) -> Int { value }
}
