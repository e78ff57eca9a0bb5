import Foundation
import Testing

@testable import ObjectGraph

/// Damaged files: corruption is reported with its line, a torn last line is dropped and
/// reported, verify lists every damaged line, repair keeps the good prefix.
@Suite struct JSONLinesDamageTests {
    let fixture: FileStoreFixtures.NoteFile
    var model: ManagedObjectModel { fixture.model }
    var directory: URL { fixture.directory }
    var url: URL { fixture.url }

    init() throws { fixture = try FileStoreFixtures.NoteFile() }

    private func note(_ pk: Int64, _ title: String, version: Int64 = 1) -> StoreRow {
        FileStoreFixtures.note(model, pk, title, version: version)
    }

    private func options(readOnly: Bool = false) -> StoreOptions {
        var options = FileStoreFixtures.options(readOnly: readOnly)
        options.storeIdentifier = "S"
        return options
    }

    /// A closed store: header, a snapshot of two rows, then three transactions.
    private func makeFile() throws -> [UInt8] {
        let store = try JSONLinesStore(model: model, url: url, options: options())
        try store.commit(
            StoreChangeSet(
                inserted: [note(1, "a"), note(2, "b")], timestamp: Date(timeIntervalSince1970: 1)))
        try store.compact()
        try store.commit(
            StoreChangeSet(inserted: [note(3, "c\nd")], timestamp: Date(timeIntervalSince1970: 2)))
        try store.commit(
            StoreChangeSet(
                updated: [note(1, "a2", version: 2)], timestamp: Date(timeIntervalSince1970: 3)))
        try store.commit(
            StoreChangeSet(
                deleted: [(note(2, "").objectID, 1)], timestamp: Date(timeIntervalSince1970: 4)))
        store.close()
        return Array(try Data(contentsOf: url))
    }

    private func lineNumber(at offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].filter { $0 == 0x0A }.count + 1
    }

    @Test func everySingleByteCorruptionIsReportedWithItsLine() throws {
        let good = try makeFile()
        let lastLF = good.count - 1
        var checked = 0
        for offset in good.indices {
            let line = lineNumber(at: offset, in: good)
            var replacements = (0..<8).map { good[offset] ^ (1 << $0) } + [0x0A, 0x00]
            replacements.removeAll { $0 == good[offset] }
            for replacement in Set(replacements) {
                var bad = good
                bad[offset] = replacement
                do {
                    _ = try StoreFileLoader.load(bad, path: url.path, model: model)
                    // Only a NUL over the last LF is indistinguishable from a torn write; it is
                    // dropped and reported as a torn line.
                    #expect(
                        offset == lastLF && replacement == 0,
                        "undetected: byte \(offset) → \(replacement)")
                    let loaded = try StoreFileLoader.load(bad, path: url.path, model: model)
                    #expect(
                        loaded.tail == .torn(line: line, bytes: bad.count - loaded.replay.length))
                } catch let e as ObjectGraphError {
                    #expect(e.line == line, "byte \(offset) → \(replacement): \(e.message)")
                    // Damage, the header's included, is damage (259) naming its line, never a
                    // "foreign file" (134000).
                    #expect(
                        e.reason == .storeCorrupt,
                        "byte \(offset) → \(replacement): \(e.message)")
                }
                checked += 1
            }
        }
        #expect(checked > 8 * good.count)
    }

    @Test func verifyAndOpeningUseOneCheckerAndSayTheSameThing() throws {
        // Issue 14: a flipped byte in the header's format value was "not a JSON-lines store
        // file" (no line, no hint of damage) where the spec says 259 with line 1.
        let good = try makeFile()
        for offset in good.indices {
            for replacement in Set([good[offset] ^ 0x01, 0x0A]) where replacement != good[offset] {
                var bad = good
                bad[offset] = replacement
                try Data(bad).write(to: url)
                let report = JSONLinesStore.verify(at: url)
                do {
                    let store = try JSONLinesStore(
                        model: model, url: url, options: options(readOnly: true))
                    store.close()
                    #expect(report.problems.isEmpty, "byte \(offset) → \(replacement)")
                } catch let e as ObjectGraphError {
                    let first = report.problems.first
                    let said = first?.description ?? "nothing"
                    #expect(
                        first?.line == e.line && first?.message == StoreFileErrors.reason(e),
                        "byte \(offset) → \(replacement): \(e.message); verify: \(said)")
                }
            }
        }
    }

    @Test func aFlippedByteInTheHeadersFormatIsDamageOfLine1OfferingSalvage() throws {
        var bytes = try makeFile()
        let at = Array("{\"format\":\"objectgraph-".utf8).count  // the "j" of jsonl
        bytes[at] ^= 0x01
        try Data(bytes).write(to: url)
        #expect { try JSONLinesStore(model: model, url: url, options: options()) } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .storeCorrupt && e.line == 1
                && e.message.contains("checksum mismatch")
                && e.message.contains("repair --salvage")
        }
        #expect(JSONLinesStore.verify(at: url).problems.map(\.line) == [1])
    }

    @Test func aCorruptLineFailsTheOpenNamingFileLineAndReasonAndChangesNothing() throws {
        var bytes = try makeFile()
        let thirdLF = bytes.indices.filter { bytes[$0] == 0x0A }[3]
        bytes[thirdLF - 19] ^= 0x01  // the last byte of line 4's body
        try Data(bytes).write(to: url)
        #expect { try JSONLinesStore(model: model, url: url, options: options()) } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .storeCorrupt && e.line == 4 && e.message.contains(url.path)
                && e.message.contains("checksum mismatch")
        }
        #expect(Array(try Data(contentsOf: url)) == bytes)
        let report = JSONLinesStore.verify(at: url)
        #expect(report.problems.map(\.line) == [4])
        #expect(!report.isHealthy)
    }

    /// A transaction line appended to `file` (numbered `number`) inserting `rows`.
    private func appending(_ rows: [StoreRow], number: Int64, to file: [UInt8]) throws -> [UInt8] {
        let w = JSONByteWriter()
        let codec = RowCodec(model: model, storeIdentifier: "S", path: url.path)
        _ = try TransactionLine.write(
            StoreChangeSet(inserted: rows, timestamp: Date(timeIntervalSince1970: 9)),
            number: number, keys: [], codec: codec, patchWrites: PatchWrites(), to: w)
        return file + w.array
    }

    /// The replay moves a line's inserted rows into the table: a line inserting a row that
    /// exists (from an earlier line, or twice in the line) is still damage of that line,
    /// naming the first such row, with every line before it kept (verify agrees); a line
    /// inserting new rows still opens with them all.
    @Test func aLineInsertingAnExistingRowIsDamageNamingItsLineAndTheRow() throws {
        let good = try makeFile()  // 6 lines; transactions up to 4; notes 1 and 3 live
        let fine = try appending([note(10, "x"), note(11, "y")], number: 5, to: good)
        let loaded = try StoreFileLoader.load(fine, path: url.path, model: model)
        #expect(loaded.replay.table.totalRowCount == 4)
        #expect(loaded.replay.table.row(for: note(11, "").objectID) == note(11, "y"))
        let cases: [([StoreRow], String)] = [
            ([note(10, "x"), note(3, "again"), note(12, "z")], "\(note(3, "").objectID)"),
            ([note(10, "x"), note(12, "z"), note(10, "twice")], "\(note(10, "").objectID)"),
        ]
        for (rows, named) in cases {
            let bad = try appending(rows, number: 5, to: good)
            #expect {
                try StoreFileLoader.load(bad, path: url.path, model: model)
            } throws: {
                guard let e = $0 as? ObjectGraphError else { return false }
                return e.reason == .storeCorrupt && e.line == 7
                    && e.message.contains("transaction 5 inserts \(named), which exists")
            }
            try Data(bad).write(to: url)
            #expect(JSONLinesStore.verify(at: url).problems.map(\.line) == [7])
        }
    }

    /// A snapshot whose rows repeat one is damage of the repeated row's line (named with its
    /// line number and the repeated object).
    @Test func aSnapshotRowTwiceIsDamageOfItsSecondLine() throws {
        let good = try makeFile()
        var lines = good.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        // Line 3 (the snapshot's second row) becomes a copy of line 2 (its first).
        lines[2] = lines[1]
        let bad = Array(lines.joined(separator: [0x0A]))
        #expect {
            try StoreFileLoader.load(bad, path: url.path, model: model)
        } throws: {
            guard let e = $0 as? ObjectGraphError else { return false }
            return e.reason == .storeCorrupt && e.line == 3
                && e.message.contains("\(note(1, "").objectID) appears twice in the snapshot")
        }
    }

    @Test func aTornLastLineIsDroppedReportedAndTruncatedBeforeTheNextAppend() throws {
        let good = try makeFile()
        let torn =
            Array("{\"t\":5,\"at\":5.0,\"ins\":[[\"Note\",9,1,\"x".utf8)
            + [UInt8](repeating: 0, count: 100)
        try Data(good + torn).write(to: url)
        let reader = try JSONLinesStore(model: model, url: url, options: options(readOnly: true))
        #expect(reader.recoveryNotices.count == 1 && reader.recoveryNotices[0].contains("line 7"))
        #expect(
            try Data(contentsOf: url).count == good.count + torn.count, "a reader never truncates")
        let writer = try JSONLinesStore(model: model, url: url, options: options())
        #expect(writer.recoveryNotices.count == 1 && writer.recoveryNotices[0].contains("line 7"))
        #expect(Array(try Data(contentsOf: url)) == good)
        try writer.commit(
            StoreChangeSet(inserted: [note(9, "x")], timestamp: Date(timeIntervalSince1970: 5)))
        writer.close()
        let reopened = try JSONLinesStore(model: model, url: url, options: options())
        #expect(reopened.recoveryNotices.isEmpty)
        #expect(try reopened.count(StoreFetchRequest(entity: model[entityName: "Note"]!)) == 3)
        #expect(JSONLinesStore.verify(at: url).isHealthy)
    }

    @Test func aDamagedSnapshotIsDamageNotATornWrite() throws {
        let good = try makeFile()
        let secondLF = good.indices.filter { good[$0] == 0x0A }[1]
        try Data(good[...secondLF] + Array("{\"row\":[\"No".utf8)).write(to: url)
        #expect { try JSONLinesStore(model: model, url: url, options: options()) } throws: {
            ($0 as? ObjectGraphError)?.line == 3
                && ($0 as? ObjectGraphError)?.reason == .storeCorrupt
        }
    }

    @Test func verifyListsEveryDamagedLineAndDanglingReference() throws {
        var bytes = try makeFile()
        let lfs = bytes.indices.filter { bytes[$0] == 0x0A }
        bytes[lfs[2] - 3] ^= 0x02  // line 3
        bytes[lfs[4] - 3] ^= 0x02  // line 5
        try Data(bytes).write(to: url)
        let report = JSONLinesStore.verify(at: url)
        #expect(report.problems.map(\.line) == [3, 5])
        #expect(report.metadata?.storeIdentifier == "S")
        #expect(report.statistics == nil)

        try Data(try makeFileWithDanglingReference()).write(to: url)
        let dangling = JSONLinesStore.verify(at: url)
        #expect(dangling.problems.count == 1 && dangling.problems[0].line == nil)
        #expect(
            dangling.problems.first?.message.contains("Item p1.owner points to Owner p7") == true)

        try Data(try makeFileWithOneSidedManyToMany()).write(to: url)
        let oneSided = JSONLinesStore.verify(at: url)
        #expect(
            oneSided.problems.map(\.message) == [
                "Tag p1.notes points to Tag p2, but Tag p2.notes does not point back"
            ])
    }

    private func makeFileWithOneSidedManyToMany() throws -> [UInt8] {
        let tags = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Tag",
                properties: [
                    RelationshipDescription(
                        name: "notes", destination: "Tag", inverse: "notes", isToMany: true)
                ])
        ])
        let path = directory.appendingPathComponent("tags.jsonl")
        let store = try JSONLinesStore(model: tags, url: path, options: options())
        let tag = { (pk: Int64) in
            ManagedObjectID(entity: tags[entityName: "Tag"]!, storeIdentifier: "S", primaryKey: pk)
        }
        try store.commit(
            StoreChangeSet(
                inserted: [
                    StoreRow(objectID: tag(1), version: 1, values: [.toMany([tag(2)])]),
                    StoreRow(objectID: tag(2), version: 1, values: [.toMany([])]),
                ], timestamp: Date(timeIntervalSince1970: 1)))
        store.close()
        return Array(try Data(contentsOf: path))
    }

    private func makeFileWithDanglingReference() throws -> [UInt8] {
        let linked = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Owner",
                properties: [
                    RelationshipDescription(
                        name: "items", destination: "Item", inverse: "owner", isToMany: true)
                ]),
            EntityDescription(
                name: "Item",
                properties: [
                    RelationshipDescription(name: "owner", destination: "Owner", inverse: "items")
                ]),
        ])
        let path = directory.appendingPathComponent("linked.jsonl")
        let store = try JSONLinesStore(model: linked, url: path, options: options())
        let item = ManagedObjectID(
            entity: linked[entityName: "Item"]!, storeIdentifier: "S", primaryKey: 1)
        let owner = ManagedObjectID(
            entity: linked[entityName: "Owner"]!, storeIdentifier: "S", primaryKey: 7)
        // A store refuses to write a reference to a missing row; deleting the target without
        // touching the source (as a batch delete does, with no delete rules) leaves one.
        try store.commit(
            StoreChangeSet(
                inserted: [
                    StoreRow(objectID: owner, version: 1, values: [.notStored]),
                    StoreRow(objectID: item, version: 1, values: [.toOne(owner)]),
                ],
                timestamp: Date(timeIntervalSince1970: 1)))
        try store.commit(
            StoreChangeSet(deleted: [(owner, 1)], timestamp: Date(timeIntervalSince1970: 2)))
        store.close()
        return Array(try Data(contentsOf: path))
    }

    @Test func repairKeepsTheGoodPrefixAndMovesTheRestAside() throws {
        let good = try makeFile()
        let lfs = good.indices.filter { good[$0] == 0x0A }
        var bad = good
        bad[lfs[4] - 10] = 0x7E  // line 5
        try Data(bad).write(to: url)
        let reason = try #require(JSONLinesStore.verify(at: url).problems.first?.message)
        #expect(
            try JSONLinesStore.repair(at: url, options: options())
                == JSONLinesStoreRepair(
                    firstDamagedLine: 5, reason: reason,
                    keptLines: 4, keptBytes: lfs[3] + 1, movedBytes: bad.count - lfs[3] - 1,
                    droppedSnapshotRows: 0,
                    sidecarURL: URL(fileURLWithPath: url.path + ".corrupt-20231114T221321Z")))
        // Note: the clock of `options()` reads 1,700,000,001 s on its first call (2023-11-14T22:13:21Z).
        #expect(Array(try Data(contentsOf: url)) == Array(good[...lfs[3]]))
        let sidecar = try Data(
            contentsOf: URL(fileURLWithPath: url.path + ".corrupt-20231114T221321Z"))
        #expect(Array(sidecar) == Array(bad[(lfs[3] + 1)...]))
        #expect(JSONLinesStore.verify(at: url).isHealthy)
        let store = try JSONLinesStore(model: model, url: url, options: options())
        #expect(
            try store.fetch(StoreFetchRequest(entity: model[entityName: "Note"]!)).map(\.version)
                == [1, 1, 1])
        store.close()
        let again = try JSONLinesStore.repair(at: url, options: options())
        #expect(!again.didRepair && again.firstDamagedLine == nil)
    }

    @Test func repairInsideTheSnapshotLowersTheRowCount() throws {
        let good = try makeFile()
        let lfs = good.indices.filter { good[$0] == 0x0A }
        var bad = good
        bad[lfs[2] - 30] ^= 0x04  // line 3: the second snapshot row
        try Data(bad).write(to: url)
        let result = try JSONLinesStore.repair(at: url, options: options())
        #expect(
            result.firstDamagedLine == 3 && result.droppedSnapshotRows == 1 && result.keptLines == 2
        )
        let store = try JSONLinesStore(model: model, url: url, options: options())
        #expect(try store.metadata().snapshotRowCount == 1)
        #expect(try store.count(StoreFetchRequest(entity: model[entityName: "Note"]!)) == 1)
        #expect(FileManager.default.fileExists(atPath: result.sidecarURL!.path))
    }

    @Test func foreignFilesAndNewerVersionsAreRefusedWithoutChange() throws {
        for text in ["date,amount\n2024-01-01,3\n", "{\"format\":\"other\"}\n", ""] {
            try Data(text.utf8).write(to: url)
            #expect { try JSONLinesStore(model: model, url: url, options: options()) } throws: {
                ($0 as? ObjectGraphError)?.reason == .notAStoreFile
            }
            #expect(try Data(contentsOf: url) == Data(text.utf8))
        }
        try FileManager.default.removeItem(at: url)
        // A sound header (checksum and all) of a version newer than this program's.
        let file = try makeFile()
        let firstLF = file.firstIndex(of: 0x0A)!
        let body = String(decoding: file[..<(firstLF - LineFrame.suffixLength)], as: UTF8.self)
            .replacingOccurrences(
                of: "\"version\":\(StoreFileVersion.current),",
                with: "\"version\":\(StoreFileVersion.current + 1),")
        let newer = JSONByteWriter()
        newer.append(Array(body.utf8))
        LineFrame.finish(newer, bodyStart: 0)
        let bytes = newer.array + file[(firstLF + 1)...]
        try Data(bytes).write(to: url)
        for readOnly in [false, true] {
            #expect {
                try JSONLinesStore(model: model, url: url, options: options(readOnly: readOnly))
            } throws: {
                guard let e = $0 as? ObjectGraphError else { return false }
                return e.reason == .notAStoreFile && e.line == 1
                    && e.message.contains("format version \(StoreFileVersion.current + 1)")
                    && e.message.contains("newer version of ObjectGraph")
            }
        }
        #expect(Array(try Data(contentsOf: url)) == bytes, "the file is unchanged")
    }
}
