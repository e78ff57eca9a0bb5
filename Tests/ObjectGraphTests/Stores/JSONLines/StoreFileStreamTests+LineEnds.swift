import Foundation
import Testing

@testable import ObjectGraph

/// The stream's reader thread finds the file's line ends while the file arrives, and the load
/// uses them instead of searching the bytes again: they are exactly the LFs of the bytes the
/// stream gives (at every chunk size, for a file that grew or was shorter than its status
/// said), and the load given them gives what the load that searches gives.
extension StoreFileStreamTests {
    /// The offsets of every LF in `bytes`.
    static func lineFeeds(_ bytes: [UInt8]) -> [Int] {
        bytes.indices.filter { bytes[$0] == 0x0A }
    }

    /// What loading `bytes` with the line ends `lineEnds` gives, in the words of
    /// ``outcome(_:prefetched:)``.
    func outcome(_ bytes: [UInt8], lineEnds: [Int]?) -> String {
        do {
            let loaded = try StoreFileLoader.load(
                bytes, path: "/tmp/stream.jsonl", model: model, parallelAbove: large,
                lineEnds: lineEnds)
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

    @Test(arguments: [false, true])
    func theReaderFindsEveryLineEndAtEveryChunkSize(compacted: Bool) throws {
        let file = try storeFile(compacted: compacted)
        // Whole, and torn in its last line (the bytes after the last LF are no line).
        for bytes in [file, Array(file.dropLast(40))] {
            let expected = Self.lineFeeds(bytes)
            #expect(expected.count > 3)
            for chunk in [1, 7, 1000, bytes.count + 1] {
                let read = try withStream(bytes, chunk: chunk) { stream, fd, _ in
                    try stream.read(fd)
                }
                #expect(read.lineEnds == expected, "chunk \(chunk)")
                guard read.lineEnds == expected else { continue }
                #expect(
                    outcome(read.bytes, lineEnds: read.lineEnds)
                        == outcome(bytes, lineEnds: nil), "chunk \(chunk)")
            }
        }
    }

    @Test func theLineEndsOfAFileThatGrewOrWasShortAreThoseOfTheBytesGiven() throws {
        let file = try storeFile(compacted: false)
        let extra = Array(try storeFile(compacted: true).prefix(3000))
        let grown = try withStream(file, chunk: 1000) { stream, fd, fs, url in
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
        #expect(grown.bytes == file + extra)
        #expect(grown.lineEnds == Self.lineFeeds(file + extra))
        if grown.lineEnds == Self.lineFeeds(file + extra) {
            #expect(
                outcome(grown.bytes, lineEnds: grown.lineEnds)
                    == outcome(file + extra, lineEnds: nil))
        }
        let short = try withStream(file, chunk: 1000) { stream, fd, fs in
            stream.readChunk = { fd, buffer, offset in
                let n = try fs.read(fd, into: buffer, at: offset)
                return max(0, min(n, file.count - 5000 - offset))
            }
            return try stream.read(fd)
        }
        #expect(short.bytes == file)
        #expect(short.lineEnds == Self.lineFeeds(file))
    }

    @Test func aFileReadWholeOnTheCallingThreadHasItsLineEndsSearchedByTheLoad() throws {
        let file = try storeFile(compacted: false)
        let read = try withStream(file, chunk: 512) { stream, fd, _ in
            stream.startThread = { _ in nil }
            return try stream.read(fd)
        }
        #expect(read.lineEnds == nil)
        let small = try withStream(file, chunk: 512) { stream, fd, _ in
            stream.streamAbove = file.count + 1
            return try stream.read(fd)
        }
        #expect(small.lineEnds == nil)
    }

    @Test func aDamagedFileGivesTheSameErrorWithTheLineEndsGiven() throws {
        let file = try storeFile(compacted: false)
        let lfs = Self.lineFeeds(file)
        // A byte changed in the middle of the third line, and the header's LF made a space
        // (the line ends given then do not start with the header's: the load searches).
        var damaged = file
        damaged[(lfs[1] + lfs[2]) / 2] ^= 0x01
        var headerless = file
        headerless[lfs[0]] = 0x20
        for bytes in [damaged, headerless] {
            let given = outcome(bytes, lineEnds: Self.lineFeeds(bytes))
            #expect(given.hasPrefix("error"), "\(given.prefix(200))")
            #expect(given == outcome(bytes, lineEnds: nil))
        }
    }
}
