import CLISupport
import Foundation
import LedgerKit
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Files named on the command line that are not what they should be: the message names the
/// real cause, and a receipt copy is always a plain file as private as the ledger.
@Suite struct LedgerInputFileTests {
    private func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    private func type(_ path: String) throws -> FileAttributeType? {
        try FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType
    }

    /// `ledger import DIR` said "NSCocoaErrorDomain error 256", a FIFO "You don't have
    /// permission".
    @Test func importingSomethingThatIsNotAFileSaysWhatItIs() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(
            atPath: sandbox.path("exports"), withIntermediateDirectories: true)
        #expect(mkfifo(sandbox.path("pipe.csv"), 0o600) == 0)
        let cases: [(String, String)] = [
            ("exports", "ledger: exports: is a directory\n"),
            ("missing.csv", "ledger: missing.csv: does not exist\n"),
            ("pipe.csv", "ledger: pipe.csv: is a FIFO (named pipe), not a regular file\n"),
        ]
        for (file, message) in cases {
            let result = await sandbox.run([
                "import", sandbox.path(file), "--date-column", "1", "--amount-column", "2",
            ])
            #expect(result.code == 1)
            #expect(
                result.stderr == message.replacingOccurrences(of: file, with: sandbox.path(file)))
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
    }

    /// `ledger import` read its export only after opening the ledger, so an export that
    /// could not be read at all still created the new ledger's lock file (and created and
    /// removed the ledger file). A command checks what it can before creating anything.
    @Test func anImportWhoseFileCannotBeReadCreatesNoLedgerAndNoLockFile() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        try FileManager.default.createDirectory(
            atPath: sandbox.path("exports"), withIntermediateDirectories: true)
        _ = try sandbox.write("bad.csv", "Date,Amount\n2026-01-01,-1.00\nnot a date,-2.00\n")
        for file in ["missing.csv", "exports", "bad.csv"] {
            let result = await sandbox.run([
                "import", sandbox.path(file), "--date-column", "1", "--amount-column", "2",
            ])
            #expect(result.code == 1, "\(file): \(result.stderr)")
            #expect(!sandbox.exists("ledger.jsonl"), "\(file)")
            #expect(!sandbox.exists("ledger.jsonl.lock"), "\(file)")
        }
    }

    /// A receipt copied from a device became a device node with the device's mode.
    @Test func aReceiptFromADeviceOrWithOtherPermissionsIsCopiedAsAPlainFileWithTheLedgersMode()
        async throws
    {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        #expect(await sandbox.run(["init"]).code == 0)
        let ledger = sandbox.path("ledger.jsonl")
        #expect(chmod(ledger, 0o640) == 0)
        let script = try sandbox.write("scan.sh", "#!/bin/sh\n")
        #expect(chmod(script, 0o755) == 0)
        for source in ["/dev/null", script] {
            let added = await sandbox.run(["add", "5", "--receipt", source])
            #expect(added.code == 0, "\(added.stderr)")
        }
        let receipts = sandbox.path("ledger.receipts")
        let copies = try FileManager.default.contentsOfDirectory(atPath: receipts)
        #expect(copies.count == 2)
        for copy in copies {
            let path = receipts + "/" + copy
            #expect(try type(path) == .typeRegular, "\(copy)")
            let bits = try mode(path)
            #expect(bits == 0o640, "\(copy): \(String(bits, radix: 8))")
        }
        let directory = await sandbox.run(["add", "5", "--receipt", receipts])
        #expect(directory.code == 1)
        #expect(directory.stderr.hasSuffix(": is a directory\n"), "\(directory.stderr)")
    }

    /// `ledger add --receipt FIFO` with no program writing to the FIFO blocked forever in
    /// `open`, holding the ledger's writer lock. Now it is refused at once and nothing is
    /// added; a pipe whose writer is there (`/dev/stdin`, `<(…)`) is still read to its end.
    @Test func aReceiptFromAFIFONobodyWritesIsRefusedAndAPipeWithAWriterIsCopied() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        #expect(await sandbox.run(["init"]).code == 0)
        #expect(mkfifo(sandbox.path("scan.jpg"), 0o600) == 0)
        let refused = await sandbox.run(["add", "5", "--receipt", sandbox.path("scan.jpg")])
        #expect(refused.code == 1)
        #expect(refused.stderr.contains("is a FIFO (named pipe) with nothing written to it"))
        #expect(
            await sandbox.run(["list", "--json"]).stdout.trimmingCharacters(
                in: .whitespacesAndNewlines) == "[]")
        let pipe = Pipe()
        pipe.fileHandleForWriting.write(Data("receipt bytes".utf8))
        try pipe.fileHandleForWriting.close()
        let source = "/dev/fd/\(pipe.fileHandleForReading.fileDescriptor)"
        let copied = await sandbox.run(["add", "5", "--receipt", source])
        #expect(copied.code == 0, "\(copied.stderr)")
        let receipts = sandbox.path("ledger.receipts")
        let copies = try FileManager.default.contentsOfDirectory(atPath: receipts)
        #expect(copies.count == 1)
        let bytes = try copies.first.map {
            try Data(contentsOf: URL(fileURLWithPath: receipts + "/" + $0))
        }
        #expect(bytes == Data("receipt bytes".utf8))
    }

    /// A UTF-16 file without a byte-order mark and a Shift-JIS file were imported as Latin-1
    /// garbage without a word.
    @Test func encodingsTheImporterCannotReadAreRefusedAndAGuessIsSaid() async throws {
        let sandbox = try CLISandbox()
        defer { sandbox.remove() }
        let fixtures = packageRoot.appendingPathComponent("Fixtures/csv")
        for name in ["shift-jis.csv", "utf16le-no-bom.csv"] {
            let result = await sandbox.run([
                "import", fixtures.appendingPathComponent(name).path, "--date-column", "1",
                "--amount-column", "2", "--description-column", "3",
            ])
            #expect(result.code == 1, "\(name)")
            #expect(
                result.stderr.contains("Shift-JIS") || result.stderr.contains("UTF-16"),
                "\(result.stderr)")
            #expect(!sandbox.exists("ledger.jsonl"), "\(name): nothing is written")
        }
        let latin1 = await sandbox.run([
            "import", fixtures.appendingPathComponent("latin1.csv").path, "--date-column", "Datum",
            "--amount-column", "Betrag", "--description-column", "Empfänger", "--date-format",
            "%d.%m.%Y",
        ])
        #expect(latin1.code == 0, "\(latin1.stderr)")
        #expect(latin1.stderr.hasPrefix("warning: "), "\(latin1.stderr)")
        #expect(latin1.stderr.contains("read as Latin-1"))
        let forced = await sandbox.run([
            "import", fixtures.appendingPathComponent("latin1.csv").path, "--date-column", "Datum",
            "--amount-column", "Betrag", "--date-format", "%d.%m.%Y", "--encoding", "latin-1",
        ])
        #expect(forced.code == 0 && forced.stderr.isEmpty, "\(forced.stderr)")
    }
}
