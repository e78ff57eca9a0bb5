import CLISupport
import Foundation
import ObjectGraph

/// Which store a macro run measures.
enum StoreMode: String, CaseIterable {
    /// The RAM store: `PersistentStoreDescription()` (`/dev/null`).
    case memory
    /// The JSON-lines file store at `DIR/bench.jsonl`, automatic compaction off.
    case jsonl
}

/// W0–W7 on one store, in one process: the workloads docs/performance.md describes,
/// through the API a user writes (a container, background contexts, typed managed objects,
/// `save()`), printing one JSON line per workload.
final class MacroRun {
    static let peer = "objectgraph"

    let dataset: Dataset
    let mode: StoreMode
    let directory: URL
    let dropCaches: Bool
    let model: ManagedObjectModel
    let reporter: Reporter
    /// The open stack; replaced when W2 reopens the file store.
    var container: PersistentContainer?

    init(
        dataset: Dataset, mode: StoreMode, directory: URL, dropCaches: Bool, output: CLIOutput
    ) throws {
        self.dataset = dataset
        self.mode = mode
        self.directory = directory
        self.dropCaches = dropCaches
        self.model = try BenchModel.make()
        self.reporter = Reporter(
            peer: Self.peer, mode: mode.rawValue, n: dataset.rows.count, output: output)
    }

    /// The store file of jsonl mode and the files beside it.
    var storeURL: URL { directory.appendingPathComponent("bench.jsonl") }
    var storeFiles: [String] { [storeURL.path, storeURL.path + ".lock", storeURL.path + ".tmp"] }

    /// Runs every workload and prints its line; throws only on a failure that makes
    /// the remaining numbers meaningless (a save that fails, a wrong count).
    func run() throws {
        reporter.emit(
            "W0_baseline", seconds: nil,
            [
                ("note", .string("RSS after reading the dataset file into Swift values")),
                ("swift_build", .string(Self.buildConfiguration)),
            ])
        try removeStoreFiles()
        defer { try? removeStoreFiles() }
        container = try openContainer()
        try w1Insert()
        try w2OpenCount()
        try w2bLoadAll()
        try w3Fetch()
        try w4UpdateAll()
        try w4bUpdateObjects()
        try w5DeleteHalf()
        try w6Compact()
        container = nil
        reporter.emit(
            "W7_peak_rss", seconds: nil,
            [
                ("process_peak_rss_mb", .double(reporter.maxPeakMegabytes)),
                ("final_rss_mb", .double(Measurement.rssMegabytes())),
            ])
    }

    /// A description of the store this run measures.
    var storeDescription: PersistentStoreDescription {
        switch mode {
        case .memory:
            return PersistentStoreDescription()
        case .jsonl:
            let description = PersistentStoreDescription(url: storeURL)
            description.storeOptions.automaticCompaction = false
            return description
        }
    }

    /// A container with the run's store loaded.
    func openContainer() throws -> PersistentContainer {
        let container = PersistentContainer(name: "bench", managedObjectModel: model)
        container.persistentStoreDescriptions = [storeDescription]
        try container.loadPersistentStores()
        return container
    }

    /// The open container.
    var stack: PersistentContainer {
        guard let container else { preconditionFailure("objectgraph-bench: no open container") }
        return container
    }

    private func removeStoreFiles() throws {
        guard mode == .jsonl else { return }
        for path in storeFiles where FileManager.default.fileExists(atPath: path) {
            try FileManager.default.removeItem(atPath: path)
        }
    }

    static var buildConfiguration: String {
        #if DEBUG
            "debug"
        #else
            "release"
        #endif
    }
}
