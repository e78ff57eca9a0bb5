import Foundation
import Testing

@testable import ObjectGraph

/// The streamed open where it meets a failing read, an `ins` array that ends early, and lines
/// that are not transaction lines.
extension StoreFileStreamTests {
    @Test func aReadErrorAfterRowsWereReadAheadIsThrownOnceTheReaderIsDone() throws {
        let file = try storeFile(compacted: false)
        var looks: [(Int, Int)] = []
        try withStream(file, chunk: 512) { stream, fd, fs in
            let lockstep = Lockstep()
            stream.round = 512
            stream.roundLimit = 1024
            // Chunks are handed out as the calling thread looks; the read at 8,192 fails.
            stream.readChunk = { fd, buffer, offset in
                lockstep.waitUntilLooked(at: offset)
                guard offset < 8192 else {
                    throw FileSystemError(operation: "read", path: "(injected)", code: EIO)
                }
                return try fs.read(fd, into: buffer, at: offset)
            }
            stream.observe = { published, rows in
                looks.append((published, rows))
                lockstep.looked(at: published)
            }
            #expect {
                try stream.read(fd)
            } throws: { error in
                (error as? FileSystemError)?.code == EIO
            }
        }
        #expect(looks.contains { $0.1 > 0 }, "rows were read ahead before the read failed")
        #expect(looks.last?.0 == 8192, "the error is thrown once the reader has finished")
    }

    @Test func aReadErrorInAStreamedOpenFailsItAsTheWholeReadDoesAndLeavesNothingOpen() throws {
        // Through the real open, with its own thresholds (1 MB chunks, a line read ahead from
        // 1 MB on): a file of more than 2 MB whose reads past 2 MB fail, so that two chunks
        // of its large insert line arrive first.
        let (store, url, category) = try newStore("big.jsonl")
        try store.commit(
            StoreChangeSet(
                inserted: [category] + sample(1...32000), timestamp: Date(timeIntervalSince1970: 1)
            ))
        store.close()
        let size = try Data(contentsOf: url).count
        #expect(size > 2 << 20 + 200_000, "\(size) bytes")
        let streamed = openFailure(url, readsFailingPast: 2 << 20)
        // A file read whole (below the stream's threshold), whose first read fails.
        let small = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("big.jsonl")
        try Data(try storeFile(compacted: false)).write(to: small)
        let whole = openFailure(small, readsFailingPast: 0)
        #expect(streamed.reason == .storeOpenFailed)
        #expect(streamed.message.contains("reading the file failed: read (injected)"))
        #expect(streamed.message.contains("(errno \(EIO))"))
        #expect(
            streamed.message.replacingOccurrences(of: url.path, with: "FILE")
                == whole.message.replacingOccurrences(of: small.path, with: "FILE"))
        #expect(streamed.filesOpen == 0 && whole.filesOpen == 0, "every file closed")
        #expect(streamed.released, "the reader thread was joined: its captures are released")
        // The lock is released and the file untouched: it opens.
        let again = try JSONLinesStore(
            model: model, url: url, options: FileStoreFixtures.options(identifier: "S"))
        #expect(try again.statistics().rowCounts.values.reduce(0, +) == 32001)
        again.close()
    }

    /// How opening the store at `url` fails on a file system whose reads past `offset` fail
    /// with `EIO`: the error's reason and message, how many files it left open, and whether
    /// the file system was released once the open returned.
    private func openFailure(_ url: URL, readsFailingPast offset: Int)
        -> (reason: ObjectGraphError.Reason?, message: String, filesOpen: Int, released: Bool)
    {
        weak var released: FaultInjectingFileSystem?
        var reason: ObjectGraphError.Reason?
        var message = "opened"
        var filesOpen = -1
        do {
            let fs = FaultInjectingFileSystem()
            released = fs
            fs.failReads(reachingPast: offset, EIO)
            do {
                let store = try JSONLinesStore(
                    model: model, url: url, options: FileStoreFixtures.options(identifier: "S"),
                    fileSystem: fs)
                store.close()
            } catch let e as ObjectGraphError {
                reason = e.reason
                message = e.message
            } catch {
                message = "\(error)"
            }
            filesOpen = fs.filesOpen
        }
        return (reason, message, filesOpen, released == nil)
    }

    @Test(arguments: [512, 4096, 1 << 16])
    func anInsArrayEndingInTheFirstRoundLendsNoRowsToTheNextLine(chunk: Int) throws {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent("s.jsonl")
        let store = try JSONLinesStore(
            model: model, url: url, options: FileStoreFixtures.options(identifier: "S"))
        let first = [rows.row("Category", 1, ["name": .attribute(.string("c"))])] + sample(1...150)
        try store.commit(StoreChangeSet(inserted: first, timestamp: Date(timeIntervalSince1970: 1)))
        // A large line whose `ins` array of two rows ends well inside the first round.
        let updated = (1...150).filter { $0 % 3 != 0 }.map { i in
            rows.row("Tag", Int64(i), version: 2, ["label": .attribute(.string("updated \(i)"))])
        }
        let short = sample(151...152)
        try store.commit(
            StoreChangeSet(
                inserted: short, updated: updated, timestamp: Date(timeIntervalSince1970: 2)))
        let second = sample(301...450)
        try store.commit(
            StoreChangeSet(inserted: second, timestamp: Date(timeIntervalSince1970: 3)))
        store.close()
        let file = try Array(Data(contentsOf: url))
        let starts = [0] + file.indices.filter { file[$0] == 0x0A }.map { $0 + 1 }.dropLast()
        #expect(starts.count == 4)
        #expect(starts[3] - starts[2] > large && starts[2] - starts[1] > large)
        let inserted = [starts[1]: first, starts[2]: short, starts[3]: second].mapValues {
            $0.map { "\($0.objectID)" }
        }
        // Each line's rows read ahead are the first rows of that line's own `ins` array.
        let inspected = try streamed(file, chunk: chunk, round: 512, limit: 1024)
        #expect(Set(inspected.prefetched.map(\.lineStart)).count == inspected.prefetched.count)
        if chunk <= 4096 {
            // (Larger chunks bring the whole file at once: nothing is read ahead.)
            #expect(inspected.prefetched.contains { $0.lineStart == starts[3] }, "the next line")
        }
        for p in inspected.prefetched {
            let ids = Self.movedOut(p)
            let own = inserted[p.lineStart] ?? []
            #expect(!ids.isEmpty && Array(own.prefix(ids.count)) == ids, "line at \(p.lineStart)")
        }
        // And the load takes them and gives what the whole-buffer load gives.
        let read = try streamed(file, chunk: chunk, round: 512, limit: 1024)
        #expect(outcome(read.bytes, prefetched: read.prefetched) == outcome(file))
    }

    /// The object IDs of the rows read ahead in `p`, in order (moved out of it).
    private static func movedOut(_ p: PrefetchedRows<StoreRow>) -> [String] {
        let count = p.rows.storage.count
        let buffer = UnsafeMutablePointer<StoreRow>.allocate(capacity: max(1, count))
        defer {
            buffer.deinitialize(count: count)
            buffer.deallocate()
        }
        _ = p.rows.storage.moveAll(to: buffer)
        return (0..<count).map { "\(buffer[$0].objectID)" }
    }

    @Test func largeHistoryAndRetentionLinesAreNotReadAhead() throws {
        let file = try storeFile(compacted: false)
        let header = try #require(file.firstIndex(of: 0x0A))
        let end = try #require(file[(header + 1)...].firstIndex(of: 0x0A))
        let body = Array(file[(header + 1)..<(end - LineFrame.suffixLength)])
        var files: [(String, [UInt8])] = []
        // The large insert line made a history and a retention line by its first member,
        // its `ins` array of whole rows kept: nothing tells them from one but that member.
        for member in ["\"h\":1,", "\"retain\":1,"] {
            let w = JSONByteWriter()
            w.append(Array("{\(member)".utf8) + body.dropFirst())
            LineFrame.finish(w, bodyStart: 0)
            files.append((member, Array(file[...header]) + w.array + file[(end + 1)...]))
        }
        // And the real history lines of a compacted store (its first is large).
        let compacted = try storeFile(compacted: true)
        files.append(("compacted", compacted))
        for (name, bytes) in files {
            let starts = [0] + bytes.indices.filter { bytes[$0] == 0x0A }.map { $0 + 1 }
            let others = Set(
                starts.filter { start in
                    bytes[start...].starts(with: "{\"h\":".utf8)
                        || bytes[start...].starts(with: "{\"retain\":".utf8)
                })
            let large = others.contains { start in
                (bytes[start...].firstIndex(of: 0x0A) ?? start) - start > self.large
            }
            #expect(large, "\(name): a large history or retention line")
            for chunk in [512, 4096] {
                let read = try streamed(bytes, chunk: chunk, round: 512, limit: 1024)
                #expect(
                    read.prefetched.allSatisfy { !others.contains($0.lineStart) },
                    "\(name) \(chunk): nothing read ahead for them")
                #expect(
                    outcome(read.bytes, prefetched: read.prefetched) == outcome(bytes),
                    "\(name) \(chunk)")
            }
        }
    }
}
