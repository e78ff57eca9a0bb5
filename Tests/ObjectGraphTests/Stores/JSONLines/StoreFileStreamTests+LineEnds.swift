import Foundation
import Testing

@testable import ObjectGraph

/// The stream's reader thread finds the file's line ends while the file arrives, and the load
/// uses them instead of searching the bytes again: they are exactly the LFs of the bytes the
/// stream gives (at every chunk size here; for a file that grew or was shorter than its
/// status said in the suite's tests of those), and the load given them gives what the load
/// that searches gives.
extension StoreFileStreamTests {
    /// The offsets of every LF in `bytes`.
    static func lineFeeds(_ bytes: [UInt8]) -> [Int] {
        bytes.indices.filter { bytes[$0] == 0x0A }
    }

    /// What loading `bytes` with the line ends `lineEnds` gives, in the words of
    /// ``outcome(_:prefetched:)``.
    func outcome(_ bytes: [UInt8], lineEnds: [Int]?) -> String {
        outcome(bytes, prefetched: [], using: model, lineEnds: lineEnds)
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

    @Test func aSmallFileReadWholeHasItsLineEndsSearchedByTheLoad() throws {
        let file = try storeFile(compacted: false)
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
        // (the header then runs into the next line: the same error, whatever the line ends).
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

    /// Line ends that are not the bytes' LFs are never trusted: a list without the header's
    /// LF first, one with an offset past the bytes, one naming a byte that is no LF, and one
    /// out of order each load as the search does (the review of `w2o`: in a release build a
    /// wrong list would have made lines reach outside the buffer).
    @Test func lineEndsThatAreNotTheBytesLFsAreSearchedAgain() throws {
        let file = try storeFile(compacted: false)
        let lfs = Self.lineFeeds(file)
        #expect(lfs.count >= 4)
        let searched = outcome(file, lineEnds: nil)
        #expect(!searched.hasPrefix("error"), "\(searched.prefix(200))")
        let wrong: [[Int]] = [
            Array(lfs.dropFirst()),
            lfs + [file.count + 10],
            [lfs[0], lfs[1] + 1] + lfs.dropFirst(2),
            [lfs[0], lfs[2], lfs[1]] + lfs.dropFirst(3),
        ]
        for ends in wrong { #expect(outcome(file, lineEnds: ends) == searched) }
    }
}
