import Foundation
import Testing

@testable import ObjectGraph

/// Log replay moves the inserted rows of a line read across cores straight from the parts the
/// split read left them in (`RowTable.insertNew(movingParts:)`): for a store file without
/// history, replayed in 2, 3 or 16 parts, the table (every entity's rows in fetch order, key
/// counters, the reverse index) and the outcome (tail, or the error naming the same line and
/// row) are exactly those of the replay on one thread and of the replay that keeps a
/// transaction log (whose parse joins the parts, the rows then copied); a store tracking
/// history, or a replay keeping before-images, gives in parts the history and before-images
/// it gives on one thread; a line that clashes in its last part, that is damaged in a part or
/// after its parts are read (a checksum, a member after `ins`), or that is torn leaves the
/// table as the lines before it left it.
extension StoreFileStreamTests {
    /// Tags, expenses and receipts (a subentity of the abstract Document) `range`,
    /// interleaved; a receipt's key is `1_000` past its position.
    func mixed(_ range: ClosedRange<Int>) -> [StoreRow] {
        range.map { i in
            switch i % 4 {
            case 0: rows.expense(Int64(i), seed: i, category: 1)
            case 1:
                rows.row(
                    "Receipt", Int64(1_000 + i),
                    ["path": .attribute(.string("r\(i)")), "total": .attribute(.decimal(1))])
            default: rows.row("Tag", Int64(i), ["label": .attribute(.string("tag \(i) é"))])
            }
        }
    }

    /// A store file without history: a category and `mixed(1...300)`, then
    /// `mixed(301...450)` with the keys descending (two transaction lines, each large).
    func storeFileWithoutHistory() throws -> [UInt8] {
        let (store, url, category) = try newStore("p.jsonl")
        try store.commit(
            StoreChangeSet(
                inserted: [category] + mixed(1...300), timestamp: Date(timeIntervalSince1970: 1)))
        try store.commit(
            StoreChangeSet(
                inserted: mixed(301...450).reversed(), timestamp: Date(timeIntervalSince1970: 2)))
        store.close()
        return try Array(Data(contentsOf: url))
    }

    /// A new file store without history in the file `name` of a new directory, the file's
    /// URL, and a category row (key 1) for its first commit; the caller closes the store.
    func newStore(_ name: String) throws -> (JSONLinesStore, URL, StoreRow) {
        let url = try FileStoreFixtures.temporaryDirectory().appendingPathComponent(name)
        let store = try JSONLinesStore(
            model: model, url: url, options: FileStoreFixtures.options(identifier: "S"))
        return (store, url, rows.row("Category", 1, ["name": .attribute(.string("c"))]))
    }

    /// Transaction 3 inserting `inserted`, as a line with its LF.
    func line3(inserting inserted: [StoreRow]) throws -> [UInt8] {
        let codec = RowCodec(model: model, storeIdentifier: "S", path: "/tmp/parts.jsonl")
        let w = JSONByteWriter()
        _ = try TransactionLine.write(
            StoreChangeSet(inserted: inserted, timestamp: Date(timeIntervalSince1970: 3)),
            number: 3, keys: [], codec: codec, patchWrites: PatchWrites(), to: w)
        return w.array
    }

    /// What replaying `bytes` gives, in words: the outcome (tail or error) and the replay's
    /// position, every entity's rows in fetch order, the key counters and the category's
    /// expenses, then (a store tracking history) each history entry's changes and (with
    /// `beforeImages`, kept) the before-images. With `parts`, lines of ``large`` bytes or more
    /// are read in that many parts; without, on one thread; `logging` keeps a transaction log.
    func replayed(
        _ bytes: [UInt8], parts: Int?, logging: Bool = false, beforeImages: Bool = false
    ) throws -> String {
        try bytes.withUnsafeBytes { raw in
            let path = "/tmp/parts.jsonl"
            let header = try StoreFileLoader.readHeader(raw, path: path)
            let headerLength = (raw.firstIndex(of: 0x0A) ?? raw.count) + 1
            let codec = RowCodec(
                model: model, storeIdentifier: header.storeIdentifier, path: path,
                formatVersion: header.version)
            var replay = try LogReplay(codec: codec, header: header, headerLength: headerLength)
            replay.keepsBeforeImages = beforeImages
            if logging { replay.transactionLog = [] }
            replay.parallelAbove = parts == nil ? .max : large
            replay.rowParts = parts
            var outcome: String
            do {
                let rest = UnsafeRawBufferPointer(rebasing: raw[headerLength...])
                outcome = "tail \(try replay.apply(rest))"
            } catch let e as ObjectGraphError {
                outcome = "error line \(e.line ?? 0): \(e.message)"
            }
            let table = replay.table
            let expenses = model[entityName: "Category"]!.relationshipsByName["expenses"]!
            return "\(outcome); lines \(replay.lineCount) length \(replay.length) last "
                + "\(replay.lastTransaction); rows \(model.entities.map { table.rows(of: $0) }); "
                + "next keys \(table.nextPrimaryKey); expenses "
                + "\(table.relatedObjectIDs(expenses, of: rows.id("Category", 1)))"
                + history(of: replay)
        }
    }

    /// `replay`'s history entries (each change's type and object), and its before-images
    /// sorted by object, in words; empty when it keeps neither.
    func history(of replay: LogReplay) -> String {
        let entries = (replay.history?.transactions ?? []).map { entry in
            "\(entry.number): \(entry.changes.map { "\($0.changeType) \($0.objectID)" })"
        }
        let images = replay.beforeImages.map { "\($0.key) \($0.value.map(\.version) ?? 0)" }
        return "; history \(entries); before-images \(images.sorted())"
    }

    /// `bytes` replayed in 2, 3 and 16 parts, and each also keeping a transaction log, must
    /// give what the replay on one thread gives (each with `beforeImages`); returns that.
    func replayedInParts(_ bytes: [UInt8], beforeImages: Bool = false) throws -> String {
        let one = try replayed(bytes, parts: nil, beforeImages: beforeImages)
        for parts in [2, 3, 16] {
            let moved = try replayed(bytes, parts: parts, beforeImages: beforeImages) == one
            #expect(moved, "\(parts) parts: \(one.prefix(200))")
            let logged =
                try replayed(bytes, parts: parts, logging: true, beforeImages: beforeImages)
                == one
            #expect(logged, "\(parts) parts, logged: \(one.prefix(200))")
        }
        return one
    }

    /// A store tracking history, compacted or not (large insert lines, updates, deletes), and
    /// replays keeping before-images (of that store, and of one without history): in parts as
    /// on one thread, with every history entry's inserted objects and every inserted row's
    /// before-image (none: `nil`, shown as 0).
    @Test(arguments: [false, true])
    func aReplayKeepingHistoryOrBeforeImagesGivesInPartsWhatItGivesOnOneThread(
        compacted: Bool
    ) throws {
        // Each file with a row its second large insert line inserts.
        var files = [(try storeFile(compacted: compacted), rows.id("Tag", 449), true)]
        if !compacted { files.append((try storeFileWithoutHistory(), rows.id("Tag", 450), false)) }
        for (file, id, tracksHistory) in files {
            for beforeImages in [false, true] {
                let one = try replayedInParts(file, beforeImages: beforeImages)
                let applied = one.hasPrefix("tail none; ")
                #expect(applied, "\(one.prefix(200))")
                let inserted = one.contains("insert \(id)")
                #expect(inserted == tracksHistory, "history of the large insert")
                let imaged = one.contains("\(id) 0")
                #expect(imaged == beforeImages, "before-image of a row inserted by a large line")
            }
        }
    }

    @Test func aReplayMovingTheSplitReadsPartsBuildsTheTableTheOneThreadReplayBuilds() throws {
        let file = try storeFileWithoutHistory()
        let one = try replayedInParts(file)
        let applied = one.hasPrefix("tail none; lines 3 ")
        #expect(applied, "\(one.prefix(200))")
        // Rows read ahead while the file arrives (the first part, handed over) change nothing.
        let read = try streamed(file, chunk: 512, limit: 1024)
        #expect(read.prefetched.contains { $0.rows.storage.count > 0 }, "rows were read ahead")
        let loaded = try StoreFileLoader.load(
            read.bytes, path: "/tmp/stream.jsonl", model: model, prefetched: read.prefetched,
            parallelAbove: large)
        let whole = try StoreFileLoader.load(
            file, path: "/tmp/stream.jsonl", model: model, parallelAbove: .max)
        #expect(
            model.entities.map { loaded.replay.table.rows(of: $0) }
                == model.entities.map { whole.replay.table.rows(of: $0) })
        #expect(loaded.replay.table.nextPrimaryKey == whole.replay.table.nextPrimaryKey)
        #expect(read.prefetched.allSatisfy { $0.rows.storage.count == 0 }, "released")
    }

    /// A row clashing in the last part (a row of line 2, or one earlier in the line) fails
    /// line 4 naming that row, and the table is the one the lines before it built.
    @Test func aClashInTheLastPartFailsTheLineAndLeavesTheTable() throws {
        let file = try storeFileWithoutHistory()
        let before = try replayed(file, parts: nil)
        let rowsOfBefore = try #require(before.firstRange(of: "; rows "))
        for clashing in [rows.row("Tag", 302), mixed(451...600)[5]] {
            let bytes = try file + line3(inserting: mixed(451...600) + [clashing])
            let one = try replayedInParts(bytes)
            let named =
                one.hasPrefix("error line 4: ")
                && one.contains("line 4: transaction 3 inserts \(clashing.objectID), which exists")
            #expect(named, "\(one.prefix(300))")
            let unchanged = one.hasSuffix(before[rowsOfBefore.lowerBound...])
            #expect(unchanged, "\(clashing.objectID)")
        }
    }

    /// A line with a bad value in its first, a middle or its last part (its checksum made
    /// right), damaged after its parts are read (a failed checksum, a bad or unknown member
    /// after `ins`), or torn, is not applied: the error or tail is the one-thread replay's
    /// and the table the one the lines before it built.
    @Test func aDamagedPartOrATornLineIsNotApplied() throws {
        let file = try storeFileWithoutHistory()
        let before = try replayed(file, parts: nil)
        let rowsOfBefore = try #require(before.firstRange(of: "; rows "))
        let sound = try line3(inserting: mixed(451...600))
        for pk in [454, 530, 598] {
            let head = Array("[\"Tag\",\(pk),1,".utf8)
            let found = try #require(sound.firstRange(of: head))
            var bad = Array(sound.dropLast())
            bad[found.upperBound - 2] = UInt8(ascii: "x")
            let w = JSONByteWriter()
            w.append(Array(bad[..<(bad.count - LineFrame.suffixLength)]))
            LineFrame.finish(w, bodyStart: 0)
            let one = try replayedInParts(file + w.array)
            let failed = one.hasPrefix("error line 4: ")
            #expect(failed, "\(one.prefix(300))")
            let unchanged = one.hasSuffix(before[rowsOfBefore.lowerBound...])
            #expect(unchanged, "Tag \(pk)")
        }
        // Damage found after the parts are read: a checksum that fails on well-formed JSON
        // (a letter of a label in a middle part changed), a member after `ins` that is bad or
        // unknown (the checksum made right); the line's parts are dropped.
        var mismatched = sound
        let label = try #require(sound.firstRange(of: Array("\"tag 526 ".utf8)))
        mismatched[label.lowerBound + 1] = UInt8(ascii: "x")
        let body = Array(sound[..<(sound.count - 1 - LineFrame.suffixLength)])
        var damaged = [mismatched]
        for member in [",\"keys\":{\"Tag\":0}", ",\"later\":1"] {
            let w = JSONByteWriter()
            w.append(body + Array(member.utf8))
            LineFrame.finish(w, bodyStart: 0)
            damaged.append(w.array)
        }
        for line in damaged {
            let one = try replayedInParts(file + line)
            let failed = one.hasPrefix("error line 4: ")
            #expect(failed, "\(one.prefix(300))")
            let unchanged = one.hasSuffix(before[rowsOfBefore.lowerBound...])
            #expect(unchanged, "\(one.prefix(300))")
        }
        let torn = try replayedInParts(file + sound.dropLast())
        let isTorn = torn.hasPrefix("tail torn(line: 4, ")
        #expect(isTorn, "\(torn.prefix(300))")
        let unchanged = torn.hasSuffix(before[rowsOfBefore.lowerBound...])
        #expect(unchanged)
    }
}
