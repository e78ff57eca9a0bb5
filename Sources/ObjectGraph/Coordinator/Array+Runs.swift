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
}
