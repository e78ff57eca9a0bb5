import CLISupport
import Foundation
import ObjectGraph

#if canImport(Glibc)
    import Glibc
#endif

/// `objectgraph-bench memory`: bytes per row and per registered object, from the heap in use
/// (`mallinfo2()`: `uordblks` + `hblkhd`, every arena) before and after each step, on the
/// micro-benchmarks' synthetic expenses (5 attributes and a to-one, 20 categories).
///
/// - `row.ram`: a RAM store's row table holding N expenses (rows, key map, reverse index);
/// - `row.file`: a file store opened on a file of N expenses (its table and what the open
///   keeps);
/// - `object.fault` / `object.filled`: a context holding N fetched expenses, as faults (the
///   default) or with their values (`returnsObjectsAsFaults = false`), the fetched array
///   included (8 bytes an object).
struct MemoryRun {
    let count: Int
    let json: Bool
    let output: CLIOutput

    /// Runs every case and prints bytes per row or object.
    ///
    /// - Throws: ``BenchError`` when `mallinfo2` is not available (not glibc on x86-64) or a
    ///   step fails.
    func run() throws {
        guard let heap = Heap() else {
            throw BenchError("memory: mallinfo2 is not available on this platform")
        }
        let fixture = try MicroFixture(count: count)
        var results: [(String, Int)] = []
        results.append(("row.ram", try rowsInRAM(fixture, heap)))
        results.append(("row.file", try rowsInFile(fixture, heap)))
        try fixture.prepare()
        for faults in [true, false] {
            results.append(
                (faults ? "object.fault" : "object.filled", try objects(fixture, heap, faults)))
        }
        let strides = [
            ("StoreRow", MemoryLayout<StoreRow>.stride),
            ("StoreValue", MemoryLayout<StoreValue>.stride),
            ("AttributeValue", MemoryLayout<AttributeValue>.stride),
            ("ManagedObjectID", MemoryLayout<ManagedObjectID>.stride),
        ]
        if !json {
            output.out(
                "strides: " + strides.map { "\($0.0) \($0.1) bytes" }.joined(separator: ", "))
            if let block = expenseBlockSize(fixture, heap) {
                output.out("an Expense instance: a \(block)-byte heap block (malloc_usable_size)")
            }
        }
        for (name, bytes) in results {
            let perItem = Double(bytes) / Double(count)
            if json {
                output.out(
                    "{\"case\":\"\(name)\",\"n\":\(count),\"bytes\":\(bytes),"
                        + "\"bytes_per_item\":\(String(format: "%.1f", perItem))}")
            } else {
                output.out(
                    "\(name.padding(toLength: 14, withPad: " ", startingAt: 0)) "
                        + "\(String(format: "%8.1f", perItem)) bytes each (N = \(count))")
            }
        }
    }

    /// The usable size of the heap block holding one `Expense` (the object alone: its
    /// stored fields and its wrappers, rounded up by malloc), or `nil` without glibc.
    private func expenseBlockSize(_ fixture: MicroFixture, _ heap: Heap) -> Int? {
        let context = fixture.context()
        return context.performAndWait {
            let expense = Expense(context: context)
            defer { context.reset() }
            return heap.usableSize(Unmanaged.passUnretained(expense).toOpaque())
        }
    }

    private func rowsInRAM(_ fixture: MicroFixture, _ heap: Heap) throws -> Int {
        let store = InMemoryStore(model: fixture.model)
        let before = heap.inUse()
        try fixture.commitExpenses(store: store, count: count)
        let bytes = heap.inUse() - before
        blackHole(store)
        return bytes
    }

    private func rowsInFile(_ fixture: MicroFixture, _ heap: Heap) throws -> Int {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("objectgraph-bench-memory-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("memory.jsonl")
        var options = StoreOptions()
        options.synchronous = .off
        options.automaticCompaction = false
        do {
            let writer = try JSONLinesStore(model: fixture.model, url: url, options: options)
            try fixture.commitExpenses(store: writer, count: count)
            writer.close()
        }
        let before = heap.inUse()
        let store = try JSONLinesStore(model: fixture.model, url: url, options: options)
        let bytes = heap.inUse() - before
        store.close()
        return bytes
    }

    private func objects(_ fixture: MicroFixture, _ heap: Heap, _ faults: Bool) throws -> Int {
        let context = fixture.context()
        return try context.performAndWait {
            let before = heap.inUse()
            let request = FetchRequest<Expense>(entityName: "Expense")
            request.returnsObjectsAsFaults = faults
            let fetched = try context.fetch(request)
            let bytes = heap.inUse() - before
            blackHole(fetched.count)
            context.reset()
            return bytes
        }
    }
}

/// glibc's `mallinfo2()`, found at run time (Swift's Glibc module does not declare it).
struct Heap {
    private typealias Call = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
    private typealias UsableSize = @convention(c) (UnsafeMutableRawPointer) -> Int
    private let call: Call
    private let usable: UsableSize?

    init?() {
        #if arch(x86_64) && canImport(Glibc)
            let process = dlopen(nil, RTLD_NOW)
            guard let symbol = dlsym(process, "mallinfo2") else { return nil }
            // `struct mallinfo2` (ten size_t) is returned through a hidden pointer, the first
            // argument on x86-64.
            call = unsafeBitCast(symbol, to: Call.self)
            usable = dlsym(process, "malloc_usable_size").map {
                unsafeBitCast($0, to: UsableSize.self)
            }
        #else
            return nil
        #endif
    }

    /// The usable size of the heap block at `pointer` (glibc's `malloc_usable_size`).
    func usableSize(_ pointer: UnsafeMutableRawPointer) -> Int? { usable?(pointer) }

    /// Bytes allocated and in use: ordinary blocks plus mmapped ones.
    func inUse() -> Int { figures().inUse }

    /// The heap's figures from one `mallinfo2` call (every arena): bytes in use (`uordblks`
    /// plus `hblkhd`), in free blocks the heap keeps (`fordblks`: freed and not returned to
    /// the system), and in blocks glibc maps on their own (`hblkhd`, unmapped when freed).
    func figures() -> (inUse: Int, keptFree: Int, mapped: Int) {
        var fields = [Int](repeating: 0, count: 10)
        fields.withUnsafeMutableBytes { _ = call($0.baseAddress!) }
        return (fields[7] + fields[4], fields[8], fields[4])
    }
}

extension MicroFixture {
    /// Commits 20 categories and `count` expenses to `store` in one change set, which is
    /// released before this returns.
    func commitExpenses(store: any PersistentStore, count: Int) throws {
        try store.commit(try insertChangeSet(store: store, expenses: count))
    }
}
