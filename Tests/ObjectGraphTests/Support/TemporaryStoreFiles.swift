import Foundation

/// Fresh store file paths under one temporary folder per test process, removed with
/// everything in it (lock files too) when the process exits.
enum TemporaryStoreFiles {
    static let folder: URL = {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "objectgraph-tests-\(ProcessInfo.processInfo.processIdentifier)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TemporaryStoreFiles.folder) }
        return url
    }()
    private static let counter = Counter()

    /// A path no other test uses.
    static func next(_ name: String = "store") -> URL {
        counter.add()
        return folder.appendingPathComponent(
            "\(name)-\(counter.value)-\(UUID().uuidString.prefix(8)).jsonl")
    }
}
