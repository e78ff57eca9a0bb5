import Foundation

/// One slot of a managed object.
enum ObjectValue {
    /// An attribute's value.
    case attribute(AttributeValue)
    /// A to-one relationship's destination.
    case toOne(ManagedObject?)
    /// A to-many relationship's members; `nil` while not loaded (a relationship fault).
    case toMany(RelatedObjects?)

    var attributeValue: AttributeValue { if case .attribute(let v) = self { v } else { .null } }

    /// Whether this is an attribute's slot holding `value` (by stored identity, as
    /// ``AttributeValue/==(_:_:)``); values of different cases are told apart without it.
    @inline(__always)
    func holdsAttribute(_ value: AttributeValue) -> Bool {
        guard case .attribute(let old) = self, old.caseNumber == value.caseNumber else {
            return false
        }
        return old == value
    }
}

/// The members of a to-many relationship: ordered, with O(1) membership, insertion and
/// removal.
///
/// A removal leaves a hole in the order rather than shifting the members after it (removing
/// half of a 5,000-member to-many one by one, as nullifying deleted objects does, cost a
/// linear search and a shift per removal); the holes are squeezed out once they are half of
/// the slots, so the space stays O(count) and each operation O(1) amortised.
struct RelatedObjects {
    /// Members in order, `nil` where one was removed.
    private var ordered: [ManagedObject?] = []
    /// Each member's position in `ordered`.
    private var positions = ObjectPositions()

    init(_ objects: [ManagedObject] = []) {
        ordered.reserveCapacity(objects.count)
        positions.reserveCapacity(objects.count)
        for o in objects { insert(o) }
    }

    /// The members, in order.
    var objects: [ManagedObject] { ordered.compactMap { $0 } }
    var count: Int { positions.count }
    func contains(_ o: ManagedObject) -> Bool { positions[o] != nil }

    // What validation reads (deleted members do not count), each in one pass over the
    // members: `objects` and a filter made two arrays, and a set a third copy.
    /// How many members are not deleted.
    var liveCount: Int {
        var live = 0
        for case let o? in ordered where !o.state.isDeleted { live += 1 }
        return live
    }

    /// The members not deleted, in order.
    var liveObjects: [ManagedObject] {
        var live: [ManagedObject] = []
        live.reserveCapacity(positions.count)
        for case let o? in ordered where !o.state.isDeleted { live.append(o) }
        return live
    }

    /// The members not deleted, as the set the per-key validation hook receives.
    var liveSet: Set<ManagedObject> {
        var live = Set<ManagedObject>(minimumCapacity: positions.count)
        for case let o? in ordered where !o.state.isDeleted { live.insert(o) }
        return live
    }

    @discardableResult
    mutating func insert(_ o: ManagedObject) -> Bool {
        guard positions.insert(o, at: ordered.count) else { return false }
        ordered.append(o)
        return true
    }

    @discardableResult
    mutating func remove(_ o: ManagedObject) -> Bool {
        guard let position = positions.removeValue(for: o) else { return false }
        if position == ordered.count - 1 {
            ordered.removeLast()
            while let last = ordered.last, last == nil { ordered.removeLast() }
        } else {
            ordered[position] = nil
            if positions.count * 2 < ordered.count { squeeze() }
        }
        return true
    }

    /// Drops the holes and renumbers the members.
    private mutating func squeeze() {
        // Built as `[ManagedObject?]` directly: assigning a `[ManagedObject]` converted it
        // element by element through a dynamic cast (most of a squeeze's cost).
        var packed: [ManagedObject?] = []
        packed.reserveCapacity(positions.count)
        for case let o? in ordered {
            positions.update(o, to: packed.count)
            packed.append(o)
        }
        ordered = packed
    }
}
