import Foundation

extension JSONLinesStore: RowTableHost {
    /// `true`: the store serves earlier generations from its in-memory tables.
    public var supportsQueryGenerations: Bool { true }

    /// Pins the file's current generation, after catching up with what other writers (or,
    /// for a reader, the writer) appended. See ``PersistentStore/currentQueryGeneration()``.
    ///
    /// The store keeps no copy of its rows for a generation: it goes on applying saves, its own
    /// and those it follows, to its one table, and first hands each live generation the rows
    /// they change, as they were. A pinned generation therefore costs one row per row changed
    /// since it was pinned (however often that row changed), and nothing while nothing changes;
    /// it is freed when no context or token holds it (<doc:StoreFileFormat>, "Query
    /// generations").
    ///
    /// - Throws: `.storeOperationFailed` (134070) when the store is closed or the file cannot
    ///   be read; `.storeCorrupt` (259) when a line it catches up with is damaged.
    public func currentQueryGeneration() throws -> any PersistentStoreGeneration {
        try locked {
            try refreshIfNeeded()
            return generations.pin(host: self, storeIdentifier: identifier)
        }
    }

    /// How many pinned generations are alive.
    var liveGenerationCount: Int { locked { generations.liveCount } }

    func withLiveTable<T>(_ body: (RowTable) throws -> T) throws -> T {
        try locked {
            guard file != nil else { throw StoreFileErrors.closed(path) }
            return try body(table)
        }
    }
}
