import Foundation
import Testing

@testable import ObjectGraph

/// The open reads the file in chunks while the rows of a large transaction line are read
/// ahead as they arrive (`StoreFileStream`): for every store file and every chunk size the
/// load gives exactly what the whole-buffer load gives (rows, versions, counters, history,
/// tail, or the same error), and the rows read ahead are read before the later chunks arrive.
/// Thresholds are lowered so that lines of a few kilobytes are large.
@Suite struct StoreFileStreamTests {
    let model: ManagedObjectModel
    let rows: FileStoreFixtures.Rows

    /// From how many bytes on a line is large here (the load's `parallelAbove` and the
    /// stream's `largeLine`).
    let large = 2048

    init() throws {
        model = try FileStoreFixtures.model()
        rows = FileStoreFixtures.Rows(model: model, store: "S")
    }

    /// Tags and expenses `range`, two of whose tags' labels end with `],[` (so that the line
    /// holds `],["` inside a string, a row boundary's look-alike).
    func sample(_ range: ClosedRange<Int>) -> [StoreRow] {
        range.map { i in
            i % 3 == 0
                ? rows.expense(Int64(i), seed: i, category: 1)
                : rows.row(
                    "Tag", Int64(i),
                    ["label": .attribute(.string(i % 97 == 1 ? "tag \(i)],[" : "tag \(i) é"))])
        }
    }

    /// The bytes of a store file written by a file store (history tracked): a large insert,
    /// updates, deletes, a second large insert; with `compacted`, compacted after the updates
    /// (a snapshot and history lines) before the second insert.
    func storeFile(compacted: Bool) throws -> [UInt8] {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("s.jsonl")
        var options = FileStoreFixtures.options(identifier: "S")
        options.tracksHistory = true
        let store = try JSONLinesStore(model: model, url: url, options: options)
        let category = rows.row("Category", 1, ["name": .attribute(.string("c"))])
        let first = sample(1...300)
        try store.commit(
            StoreChangeSet(inserted: [category] + first, timestamp: Date(timeIntervalSince1970: 1)))
        let updated = (1...60).filter { $0 % 3 != 0 }.map { i in
            rows.row("Tag", Int64(i), version: 2, ["label": .attribute(.string("updated \(i)"))])
        }
        try store.commit(
            StoreChangeSet(updated: updated, timestamp: Date(timeIntervalSince1970: 2)))
        try store.commit(
            StoreChangeSet(
                deleted: first.suffix(20).map { ($0.objectID, $0.version) },
                timestamp: Date(timeIntervalSince1970: 3)))
        if compacted { try store.compact() }
        try store.commit(
            StoreChangeSet(inserted: sample(301...450), timestamp: Date(timeIntervalSince1970: 4)))
        store.close()
        return try Array(Data(contentsOf: url))
    }

    /// What loading `bytes` gives, in words: the error, or the counters, tail, history and
    /// every row.
    func outcome(_ bytes: [UInt8], prefetched: [PrefetchedRows<StoreRow>] = []) -> String {
        outcome(bytes, prefetched: prefetched, using: model)
    }

    /// What loading `bytes` with `model` gives, in words (see ``outcome(_:prefetched:)``).
    func outcome(
        _ bytes: [UInt8], prefetched: [PrefetchedRows<StoreRow>], using model: ManagedObjectModel?
    ) -> String {
        do {
            let loaded = try StoreFileLoader.load(
                bytes, path: "/tmp/stream.jsonl", model: model, prefetched: prefetched,
                parallelAbove: large)
            let r = loaded.replay
            let all = r.table.allRows().sorted { "\($0.objectID)" < "\($1.objectID)" }
            return "lines \(r.lineCount) length \(r.length) last \(r.lastTransaction) "
                + "transactions \(r.transactionLines) tail \(loaded.tail) "
                + "history \(r.history?.transactions ?? []) rows \(all)"
        } catch let e as ObjectGraphError {
            return "error \(e.reason) line \(e.line ?? 0) column \(e.column ?? 0): \(e.message)"
        } catch {
            return "error \(error)"
        }
    }

    /// `bytes` written to a file and read through a stream of `chunk`-byte reads, each handed
    /// out only once the calling thread has looked at every byte before it (so that what is
    /// read ahead of a chunk is read before the next chunk is); the bytes, the rows read ahead
    /// and each look (bytes arrived, rows read ahead so far).
    func streamed(
        _ bytes: [UInt8], chunk: Int, round: Int = 512, limit: Int = 1 << 20,
        withoutModel: Bool = false
    ) throws -> (bytes: [UInt8], prefetched: [PrefetchedRows<StoreRow>], looks: [(Int, Int)]) {
        try withStream(bytes, chunk: chunk, withoutModel: withoutModel) { stream, fd, fs in
            let lockstep = Lockstep()
            stream.round = round
            stream.roundLimit = limit
            stream.readChunk = { fd, buffer, offset in
                lockstep.waitUntilLooked(at: offset)
                return try fs.read(fd, into: buffer, at: offset)
            }
            var looks: [(Int, Int)] = []
            stream.observe = { published, rows in
                looks.append((published, rows))
                lockstep.looked(at: published)
            }
            let read = try stream.read(fd)
            return (read.bytes, read.prefetched, looks)
        }
    }

    @Test(arguments: [false, true])
    func aStreamedLoadGivesWhatTheWholeBufferLoadGivesAtEveryChunkSize(compacted: Bool) throws {
        let file = try storeFile(compacted: compacted)
        let whole = outcome(file)
        #expect(whole.hasPrefix("lines"), "\(whole.prefix(300))")
        for chunk in [1, 7, 4096, file.count + 1] {
            let read = try streamed(file, chunk: chunk)
            #expect(read.bytes == file, "chunk \(chunk): the bytes")
            #expect(outcome(read.bytes, prefetched: read.prefetched) == whole, "chunk \(chunk)")
        }
    }

    @Test func rowsAreReadAheadBeforeTheLaterChunksArriveAndTheLoadTakesThem() throws {
        let file = try storeFile(compacted: false)
        let whole = outcome(file)
        let read = try streamed(file, chunk: 512, limit: 1024)
        // Both large insert lines were read ahead, in part, while the file arrived.
        #expect(read.prefetched.count == 2)
        #expect(read.prefetched.allSatisfy { $0.rows.storage.count > 20 })
        // Rows were read ahead with at least two chunks of the first line still to come.
        let firstLineEnd = try #require(
            file.firstIndex(of: 0x0A).flatMap { header in
                file[(header + 1)...].firstIndex(of: 0x0A)
            })
        #expect(read.looks.contains { $0.1 > 0 && $0.0 + 2 * 512 <= firstLineEnd })
        #expect(outcome(read.bytes, prefetched: read.prefetched) == whole)
        // The load moved every row read ahead into its result.
        #expect(read.prefetched.allSatisfy { $0.rows.storage.count == 0 })
    }

    @Test func aDamagedOrForeignFileGivesTheSameErrorStreamed() throws {
        let file = try storeFile(compacted: false)
        let header = try #require(file.firstIndex(of: 0x0A))
        let firstLineEnd = try #require(file[(header + 1)...].firstIndex(of: 0x0A))
        var damaged: [(String, [UInt8])] = []
        // Torn: cut inside the first large line, and inside the last line.
        damaged.append(("torn first", Array(file[..<(header + 1 + (firstLineEnd - header) / 2)])))
        damaged.append(("torn last", Array(file.dropLast(700))))
        // A changed byte inside the rows of the first large line: its checksum mismatches.
        var flipped = file
        let digit = try #require(file[(header + 3000)...].firstIndex { $0 >= 0x31 && $0 <= 0x38 })
        flipped[digit] += 1
        damaged.append(("bad checksum", flipped))
        // The same change with the checksum made right: the parse's own error (or rows).
        damaged.append(("reframed", reframed(flipped, line: (header + 1)..<firstLineEnd)))
        // A file of another format, and one whose header is damaged.
        damaged.append(("foreign", Array(repeating: UInt8(ascii: "x"), count: 9000) + [0x0A]))
        var badHeader = file
        badHeader[3] = UInt8(ascii: "?")
        badHeader[20] = UInt8(ascii: "?")
        damaged.append(("bad header", badHeader))
        for (name, bytes) in damaged {
            let whole = outcome(bytes)
            for chunk in [7, 4096] {
                let read = try streamed(bytes, chunk: chunk)
                #expect(
                    outcome(read.bytes, prefetched: read.prefetched) == whole, "\(name) \(chunk)")
            }
        }
    }

    /// `file` with the checksum of the line at `line` (without its LF) made right again.
    func reframed(_ file: [UInt8], line: Range<Int>) -> [UInt8] {
        let w = JSONByteWriter()
        w.append(Array(file[line.lowerBound..<(line.upperBound - LineFrame.suffixLength)]))
        LineFrame.finish(w, bodyStart: 0)
        return Array(file[..<line.lowerBound]) + w.array.dropLast() + file[line.upperBound...]
    }

    @Test func aReadErrorMidFileIsThrownAndTheReaderIsDone() throws {
        let file = try storeFile(compacted: false)
        try withStream(file, chunk: 1024) { stream, fd, fs in
            expectReadFailing(from: 8192, &stream, fd, fs)
        }
    }

    /// Makes every read of `stream` at or past `offset` fail with `EIO`, and expects its
    /// `read(fd)` to throw that error.
    func expectReadFailing(
        from offset: Int, _ stream: inout StoreFileStream, _ fd: Int32, _ fs: PosixFileSystem
    ) {
        stream.readChunk = { fd, buffer, at in
            guard at < offset else {
                throw FileSystemError(operation: "read", path: "fd \(fd)", code: EIO)
            }
            return try fs.read(fd, into: buffer, at: at)
        }
        #expect {
            try stream.read(fd)
        } throws: { error in
            (error as? FileSystemError)?.code == EIO
        }
    }

    @Test func aFileShorterThanItsStatusSaidIsReadToItsEnd() throws {
        let file = try storeFile(compacted: false)
        let read = try withStream(file, chunk: 1000) { stream, fd, fs in
            // The file ends 5,000 bytes early for the stream's reads.
            stream.readChunk = { fd, buffer, offset in
                let n = try fs.read(fd, into: buffer, at: offset)
                return max(0, min(n, file.count - 5000 - offset))
            }
            return try stream.read(fd)
        }
        #expect(read.bytes == file, "the rest is read as readToEnd reads a file that grew")
        #expect(outcome(read.bytes, prefetched: read.prefetched) == outcome(file))
    }

    /// What `body` gives with a stream over `bytes` written to a file (reads of `chunk` bytes,
    /// every file streamed, lines of ``large`` bytes read ahead), the file's descriptor and
    /// its file system.
    func withStream<T>(
        _ bytes: [UInt8], chunk: Int, withoutModel: Bool = false,
        _ body: (inout StoreFileStream, Int32, PosixFileSystem) throws -> T
    ) throws -> T {
        try withStream(bytes, chunk: chunk, withoutModel: withoutModel) { stream, fd, fs, _ in
            try body(&stream, fd, fs)
        }
    }

    /// As ``withStream(_:chunk:withoutModel:_:)``, also giving `body` the file's URL; with
    /// `withoutModel` the stream is given no model (as tools open a file).
    private func withStream<T>(
        _ bytes: [UInt8], chunk: Int, withoutModel: Bool = false,
        _ body: (inout StoreFileStream, Int32, PosixFileSystem, URL) throws -> T
    ) throws -> T {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("c.jsonl")
        try Data(bytes).write(to: url)
        let fs = PosixFileSystem()
        let fd = try fs.open(url.path, .readOnly)
        defer { fs.close(fd) }
        var stream = StoreFileStream(
            fileSystem: fs, path: url.path, model: withoutModel ? nil : model)
        stream.chunkSize = chunk
        stream.streamAbove = 0
        stream.largeLine = large
        return try body(&stream, fd, fs, url)
    }

    @Test func rowsReadAheadWithAnotherModelInstanceAreNotUsedAndTheRowsHoldTheLoadsEntities()
        throws
    {
        let file = try storeFile(compacted: false)
        // Read ahead with the application's model, loaded without one (a new model instance
        // decoded from the header, as tools and a migration at open load).
        let read = try streamed(file, chunk: 512, limit: 1024)
        #expect(read.prefetched.contains { $0.rows.storage.count > 0 }, "rows were read ahead")
        let loaded = try StoreFileLoader.load(
            read.bytes, path: "/tmp/stream.jsonl", model: nil, prefetched: read.prefetched,
            parallelAbove: large)
        #expect(loaded.model !== model)
        let all = loaded.replay.table.allRows()
        #expect(all.count > 400)
        #expect(
            all.allSatisfy { row in
                row.objectID.entity === loaded.model.entitiesByName[row.objectID.entity.name]
            }, "every row holds the loaded model's own entity")
        #expect(read.prefetched.allSatisfy { $0.rows.storage.count == 0 }, "released")
        #expect(
            outcome(read.bytes, prefetched: [], using: nil)
                == outcome(file, prefetched: [], using: nil))
        // Streamed without a model: the load will not read with the stream's model, so
        // nothing is read ahead, and the load gives what the whole-buffer load gives.
        let unmodelled = try streamed(file, chunk: 512, limit: 1024, withoutModel: true)
        #expect(unmodelled.prefetched.isEmpty)
        #expect(unmodelled.looks.allSatisfy { $0.1 == 0 })
        #expect(
            outcome(unmodelled.bytes, prefetched: unmodelled.prefetched, using: nil)
                == outcome(file, prefetched: [], using: nil))
    }

    @Test func aReaderThreadThatCannotStartFallsBackToOneWholeRead() throws {
        let file = try storeFile(compacted: false)
        let read = try withStream(file, chunk: 512) { stream, fd, _ in
            stream.startThread = { _ in nil }
            return try stream.read(fd)
        }
        #expect(read.bytes == file)
        #expect(read.prefetched.isEmpty)
        #expect(outcome(read.bytes, prefetched: read.prefetched) == outcome(file))
    }

    @Test func whatTheReaderCapturedIsReleasedWhenTheReadReturns() throws {
        let file = try storeFile(compacted: false)
        weak var captured: Token?
        try withStream(file, chunk: 512) { stream, fd, fs in
            let token = Token()
            captured = token
            stream.readChunk = { fd, buffer, offset in
                _ = token
                return try fs.read(fd, into: buffer, at: offset)
            }
            let read = try stream.read(fd)
            stream.readChunk = nil
            #expect(read.bytes == file)
        }
        #expect(captured == nil)
    }

    @Test func aFileThatGrowsWhileItIsReadIsReadToItsNewEnd() throws {
        let file = try storeFile(compacted: false)
        let grown = try storeFile(compacted: true)
        let extra = Array(grown.prefix(3000))
        let read = try withStream(file, chunk: 1000) { stream, fd, fs, url in
            // Before the last chunk is read, bytes are appended to the file.
            stream.readChunk = { fd, buffer, offset in
                if offset + buffer.count >= file.count, offset < file.count {
                    let handle = try FileHandle(forWritingTo: url)
                    try handle.seekToEnd()
                    try handle.write(contentsOf: Data(extra))
                    try handle.close()
                }
                return try fs.read(fd, into: buffer, at: offset)
            }
            return try stream.read(fd)
        }
        #expect(read.bytes == file + extra)
        #expect(outcome(read.bytes, prefetched: read.prefetched) == outcome(file + extra))
    }
}

/// An object whose lifetime a test follows.
private final class Token: Sendable {}

/// Hands out a chunk only once the calling thread has looked at every byte before it.
final class Lockstep: @unchecked Sendable {
    // Sendable: `looked` is read and written only while holding `condition`.
    /// Guards `looked`.
    private let condition = NSCondition()
    /// How many bytes the calling thread has looked at.
    private var looked = 0

    /// Records that the calling thread has looked at the first `count` bytes.
    func looked(at count: Int) {
        condition.lock()
        looked = max(looked, count)
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the calling thread has looked at the first `offset` bytes.
    func waitUntilLooked(at offset: Int) {
        condition.lock()
        while looked < offset { condition.wait() }
        condition.unlock()
    }
}
