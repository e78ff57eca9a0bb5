extension Array {
    /// Calls `body` with each maximal run of consecutive elements whose `key` is equal, in
    /// order: how a save hands objects and rows to their stores, since they come in runs of
    /// one store (most saves touch one), a run at a time rather than element by element.
    func forEachRun<Key: Equatable>(
        by key: (Element) throws -> Key, _ body: (Key, Range<Int>) throws -> Void
    ) rethrows {
        var start = 0
        while start < count {
            let runKey = try key(self[start])
            var end = start + 1
            while end < count, try key(self[end]) == runKey { end += 1 }
            try body(runKey, start..<end)
            start = end
        }
    }

    /// The elements grouped by `key`, groups in the order their first element comes, each
    /// group's elements in order: how a save splits new objects by the store they go to.
    func grouped<Key: Hashable>(by key: (Element) -> Key) -> [(key: Key, elements: [Element])] {
        var groups: [(key: Key, elements: [Element])] = []
        var position: [Key: Int] = [:]
        for element in self {
            let k = key(element)
            if let i = position[k] {
                groups[i].elements.append(element)
            } else {
                position[k] = groups.count
                groups.append((k, [element]))
            }
        }
        return groups
    }
}
