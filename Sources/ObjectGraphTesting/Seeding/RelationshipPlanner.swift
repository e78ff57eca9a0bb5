import ObjectGraph

/// Decides which objects one relationship (and its inverse) connects, so that every object
/// on both sides ends up within its counts.
///
/// Vertices are object roles: side A (the objects that choose partners) and side B. For a
/// relationship that is its own inverse both sides are the same vertices. A picks first
/// (partners short of their minimum first, then at random among those with room), then
/// every vertex still short of its minimum is repaired by adding free edges, then by moving
/// edges away from partners that have more than they need.
struct RelationshipPlanner {
    private(set) var bounds: [DegreeBounds]
    private(set) var neighbors: [[Int]]
    private let objectOf: [Int]
    private let sideA: Range<Int>
    private let sideB: Range<Int>
    private var degree: [Int]
    private var linked: [Set<Int>]
    /// How many side-B vertices are below their minimum, and how many below their maximum.
    private var shortInB = 0
    private var roomInB = 0

    /// - Parameters:
    ///   - aObjects, bObjects: Object numbers of each side (the same array for a symmetric relationship).
    ///   - aBounds, bBounds: The bounds of each vertex.
    ///   - symmetric: Whether A and B are the same vertices.
    init(
        aObjects: [Int], bObjects: [Int], aBounds: [DegreeBounds], bBounds: [DegreeBounds],
        symmetric: Bool
    ) {
        sideA = 0..<aObjects.count
        sideB = symmetric ? sideA : aObjects.count..<(aObjects.count + bObjects.count)
        objectOf = symmetric ? aObjects : aObjects + bObjects
        bounds = symmetric ? aBounds : aBounds + bBounds
        degree = Array(repeating: 0, count: objectOf.count)
        neighbors = Array(repeating: [], count: objectOf.count)
        linked = Array(repeating: [], count: objectOf.count)
        for y in sideB {
            if bounds[y].lo > 0 { shortInB += 1 }
            if bounds[y].hi > 0 { roomInB += 1 }
        }
    }

    /// The partners (object numbers, in link order) of the `i`-th object of side A.
    func partners(ofA i: Int) -> [Int] { neighbors[sideA.lowerBound + i].map { objectOf[$0] } }

    /// The minimum partner count of the `index`-th vertex of side A (or B).
    func minimum(isA: Bool, index: Int) -> Int {
        bounds[(isA ? sideA.lowerBound : sideB.lowerBound) + index].lo
    }

    /// Plans the edges.
    ///
    /// - Parameter aTargets: How many partners each A vertex aims for.
    /// - Returns: `nil`, or the first vertex (side A?, index in its side) whose minimum cannot be met.
    mutating func plan(aTargets: [Int], random: inout SeededRandomNumberGenerator) -> (
        isA: Bool, index: Int
    )? {
        var order = Array(sideA)
        random.shuffle(&order)
        for a in order {
            let need = min(aTargets[a - sideA.lowerBound], bounds[a].hi) - degree[a]
            if need > 0 { choose(need, for: a, &random) }
        }
        for v in sideA where degree[v] < bounds[v].lo {
            if !repair(v, &random) { return (true, v - sideA.lowerBound) }
        }
        if sideB != sideA {
            for v in sideB where degree[v] < bounds[v].lo {
                if !repair(v, &random) { return (false, v - sideB.lowerBound) }
            }
        }
        return nil
    }

    private func canLink(_ x: Int, _ y: Int, allowSameObject: Bool) -> Bool {
        x != y && degree[y] < bounds[y].hi && degree[x] < bounds[x].hi && !linked[x].contains(y)
            && (allowSameObject || objectOf[x] != objectOf[y])
    }

    private mutating func link(_ x: Int, _ y: Int) {
        linked[x].insert(y)
        linked[y].insert(x)
        neighbors[x].append(y)
        neighbors[y].append(x)
        change(x, by: 1)
        change(y, by: 1)
    }

    private mutating func unlink(_ x: Int, _ y: Int) {
        linked[x].remove(y)
        linked[y].remove(x)
        neighbors[x].removeAll { $0 == y }
        neighbors[y].removeAll { $0 == x }
        change(x, by: -1)
        change(y, by: -1)
    }

    /// Changes a degree (and the bounds), keeping the side-B counters in step.
    private mutating func change(_ v: Int, by delta: Int, newBounds: DegreeBounds? = nil) {
        let wasShort = degree[v] < bounds[v].lo
        let hadRoom = degree[v] < bounds[v].hi
        degree[v] += delta
        if let newBounds { bounds[v] = newBounds }
        guard sideB.contains(v) else { return }
        shortInB += (degree[v] < bounds[v].lo ? 1 : 0) - (wasShort ? 1 : 0)
        roomInB += (degree[v] < bounds[v].hi ? 1 : 0) - (hadRoom ? 1 : 0)
    }

    /// Links `a` to `need` partners of side B: those short of their minimum first, then any with room.
    private mutating func choose(
        _ need: Int, for a: Int, _ random: inout SeededRandomNumberGenerator
    ) {
        guard !sideB.isEmpty else { return }
        var remaining = need
        let start = random.int(in: 0...(sideB.count - 1))
        for pass in 0..<2 where remaining > 0 && (pass == 0 ? shortInB > 0 : roomInB > 0) {
            // Random probes first, then one scan from a random start.
            for _ in 0..<(remaining * 4) where remaining > 0 {
                let y = sideB.lowerBound + random.int(in: 0...(sideB.count - 1))
                guard pass == 0 ? degree[y] < bounds[y].lo : true else { continue }
                if canLink(a, y, allowSameObject: false) {
                    link(a, y)
                    remaining -= 1
                }
            }
            for offset in 0..<sideB.count where remaining > 0 {
                let y = sideB.lowerBound + (start + offset) % sideB.count
                guard pass == 0 ? degree[y] < bounds[y].lo : true else { continue }
                if canLink(a, y, allowSameObject: false) {
                    link(a, y)
                    remaining -= 1
                }
            }
        }
    }

    /// Brings `x` up to its minimum; `false` when that is impossible.
    private mutating func repair(_ x: Int, _ random: inout SeededRandomNumberGenerator) -> Bool {
        let other = sideA == sideB ? sideA : (sideA.contains(x) ? sideB : sideA)
        var candidates = Array(other)
        random.shuffle(&candidates)
        for allowSame in [false, true] {
            for y in candidates
            where degree[x] < bounds[x].lo && canLink(x, y, allowSameObject: allowSame) {
                link(x, y)
            }
            // Move an edge (z, y) to (x, y) when z has more partners than it needs.
            for y in candidates
            where degree[x] < bounds[x].lo && !linked[x].contains(y) && x != y
                && (allowSame || objectOf[x] != objectOf[y])
            {
                guard let z = neighbors[y].first(where: { $0 != x && degree[$0] > bounds[$0].lo })
                else { continue }
                unlink(z, y)
                link(x, y)
            }
            if degree[x] >= bounds[x].lo { return true }
        }
        // An optional to-many with a minimum may stay empty, if its partners can spare it.
        if bounds[x].mayDropToZero, neighbors[x].allSatisfy({ degree[$0] > bounds[$0].lo }) {
            for y in neighbors[x] { unlink(x, y) }
            change(x, by: 0, newBounds: DegreeBounds(lo: 0, hi: 0, mayDropToZero: false))
            return true
        }
        return false
    }
}
