import Foundation

/// One report group's running totals: how many transactions, money out and money in,
/// summed exactly.
struct GroupTotals {
    var transactions = 0
    var out = ExactSum()
    var `in` = ExactSum()

    /// Counts one transaction of `amount` (positive), money in when `income`.
    mutating func add(_ amount: Decimal, income: Bool) {
        transactions += 1
        if income { self.in.add(amount) } else { out.add(amount) }
    }

    /// Adds another group's totals.
    mutating func merge(_ other: GroupTotals) {
        transactions += other.transactions
        out.add(other.out.value)
        self.in.add(other.in.value)
    }
}

/// Report groups by name, numbered in order of first appearance, with their totals: rows
/// are counted by group number, so the name is hashed once per group, not once per row.
struct GroupIndex {
    private(set) var names: [String] = []
    var totals: [GroupTotals] = []
    private var numbers: [String: Int] = [:]

    /// The number of the group named `name`, adding it when new.
    mutating func index(of name: String) -> Int {
        if let known = numbers[name] { return known }
        numbers[name] = names.count
        names.append(name)
        totals.append(GroupTotals())
        return names.count - 1
    }
}
