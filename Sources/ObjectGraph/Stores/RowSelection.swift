import Foundation

/// Where a matched row lives in a ``RowTable``.
struct RowRef {
    /// The entity index of the row's table.
    let entity: Int
    /// The row's slot in that table.
    let slot: Int
}

/// One sort key's value, read once when its row matched: numbers and dates as a `Double`
/// with their kind's rank, anything else by reference to the value itself.
struct RowSortKey {
    /// 0 nil, 1 a number, 3 a date (the ranks of ``SortOrder``), or ``RowSortKey/byValue``.
    let rank: UInt8
    /// The number, or the date in seconds since the reference date.
    let number: Double
    /// With ``byValue``, the index of the value in the selection's list; with a number, the
    /// kind it was read from (0 double, 1 float, 2 integer), to rebuild it exactly.
    let valueIndex: Int32

    static let byValue: UInt8 = .max
}

/// The sort keys of one matched row.
struct RowCandidate {
    let ref: RowRef
    /// The order of the match in the scan: the tie-break that keeps sorting stable.
    let sequence: Int
    /// The first sort key.
    let first: RowSortKey
    /// Where the other sort keys start in the selection's list (with two or more descriptors).
    let rest: Int
}

/// The sorted matches of one fetch, keeping only the best `capacity` when a limit is set.
///
/// With a capacity (offset + limit) it is a bounded max-heap whose root is the worst row
/// kept: a new match enters only when it sorts strictly before the root, so among equal
/// keys the earlier match wins, as in a stable sort of every match. Without a capacity it
/// keeps every match and sorts them all. Either way the order is that of a stable sort by
/// the descriptors, comparing as ``CompiledSortDescriptor/compareValues(_:_:)`` does (numbers
/// and dates that a `Double` holds exactly are compared as doubles, which orders them the
/// same way).
struct RowSelection {
    private let sorts: [CompiledSortDescriptor]
    private let capacity: Int?
    private var heap: [RowCandidate] = []
    private var restKeys: [RowSortKey] = []
    private var values: [AttributeValue] = []
    private var sequence = 0

    /// A selection ordered by `sorts` (not empty), keeping the first `capacity` rows, or all
    /// when `capacity` is `nil`.
    init(sorts: [CompiledSortDescriptor], capacity: Int?) {
        precondition(!sorts.isEmpty, "RowSelection needs at least one sort descriptor")
        self.sorts = sorts
        self.capacity = capacity
        if let capacity { heap.reserveCapacity(min(capacity, 4096)) }
    }

    /// Whether nothing can enter (a capacity of zero).
    var isClosed: Bool { capacity == 0 }

    /// Offers the matched row at `ref`; `value` reads its value of a sort key.
    mutating func offer(_ ref: RowRef, value: (CompiledSortDescriptor) -> AttributeValue) {
        defer { sequence += 1 }
        let first = key(value(sorts[0]))
        guard let capacity else {
            heap.append(candidate(ref, first: first, value: value))
            return
        }
        guard capacity > 0 else { return }
        if heap.count < capacity {
            heap.append(candidate(ref, first: first, value: value))
            siftUp(heap.count - 1)
            return
        }
        // Full: the newcomer must sort strictly before the worst kept row (ties keep the
        // earlier match). The first key alone usually decides.
        switch compare(first, heap[0].first, sorts[0]) {
        case .orderedDescending: return
        case .orderedAscending: heap[0] = candidate(ref, first: first, value: value)
        case .orderedSame:
            let c = candidate(ref, first: first, value: value)
            guard precedes(c, heap[0]) else { return }
            heap[0] = c
        }
        siftDown(0)
    }

    /// The kept rows in sort order.
    func ordered() -> [RowRef] {
        var sorted = heap
        sorted.sort { precedes($0, $1) }
        return sorted.map(\.ref)
    }

    private mutating func candidate(
        _ ref: RowRef, first: RowSortKey,
        value: (CompiledSortDescriptor) -> AttributeValue
    ) -> RowCandidate {
        let rest = restKeys.count
        for sort in sorts.dropFirst() { restKeys.append(key(value(sort))) }
        return RowCandidate(ref: ref, sequence: sequence, first: first, rest: rest)
    }

    private mutating func key(_ value: AttributeValue) -> RowSortKey {
        switch value {
        case .null: return RowSortKey(rank: 0, number: 0, valueIndex: 0)
        case .double(let x) where !x.isNaN: return RowSortKey(rank: 1, number: x, valueIndex: 0)
        case .float(let x) where !x.isNaN:
            return RowSortKey(rank: 1, number: Double(x), valueIndex: 1)
        case .integer(let i) where i.magnitude <= 1 << 53:
            return RowSortKey(rank: 1, number: Double(i), valueIndex: 2)
        case .date(let d) where !d.timeIntervalSinceReferenceDate.isNaN:
            return RowSortKey(rank: 3, number: d.timeIntervalSinceReferenceDate, valueIndex: 0)
        default:
            values.append(value)
            return RowSortKey(
                rank: RowSortKey.byValue, number: 0, valueIndex: Int32(values.count - 1))
        }
    }

    /// The value a key stands for, of the kind it was read from.
    private func value(of key: RowSortKey) -> AttributeValue {
        switch key.rank {
        case 0: .null
        case 1:
            key.valueIndex == 2
                ? .integer(Int64(key.number))
                : key.valueIndex == 1 ? .float(Float(key.number)) : .double(key.number)
        case 3: .date(Date(timeIntervalSinceReferenceDate: key.number))
        default: values[Int(key.valueIndex)]
        }
    }

    /// How two keys of `sort` are ordered, direction applied.
    @inline(__always)
    private func compare(_ a: RowSortKey, _ b: RowSortKey, _ sort: CompiledSortDescriptor)
        -> ComparisonResult
    {
        guard a.rank != RowSortKey.byValue && b.rank != RowSortKey.byValue else {
            return sort.compareValues(value(of: a), value(of: b))
        }
        let order: ComparisonResult =
            a.rank != b.rank
            ? (a.rank < b.rank ? .orderedAscending : .orderedDescending)
            : a.number < b.number
                ? .orderedAscending : a.number > b.number ? .orderedDescending : .orderedSame
        return sort.ascending ? order : order.reversed
    }

    /// Whether `a` sorts before `b`: by the descriptors in turn, then by scan order.
    private func precedes(_ a: RowCandidate, _ b: RowCandidate) -> Bool {
        switch compare(a.first, b.first, sorts[0]) {
        case .orderedAscending: return true
        case .orderedDescending: return false
        case .orderedSame: break
        }
        for i in 1..<sorts.count {
            switch compare(restKeys[a.rest + i - 1], restKeys[b.rest + i - 1], sorts[i]) {
            case .orderedAscending: return true
            case .orderedDescending: return false
            case .orderedSame: continue
            }
        }
        return a.sequence < b.sequence
    }

    // Max-heap by `precedes`: every parent sorts after its children.

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var largest = parent
            if left < heap.count && precedes(heap[largest], heap[left]) { largest = left }
            if right < heap.count && precedes(heap[largest], heap[right]) { largest = right }
            if largest == parent { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }
}
