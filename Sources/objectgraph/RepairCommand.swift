import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph repair [--salvage] FILE`: keep the good prefix (or every intact line), move
/// the rest aside.
enum RepairCommand {
    struct Arguments: ParsableArguments {
        @Argument("FILE") var file: String
        @Flag(
            "--salvage",
            help: "also keep the intact lines after the damage, skipping what cannot apply")
        var salvage: Bool
        @Flag("--json", help: "print JSON instead of text") var json: Bool
    }

    static let command = ToolCommand(
        ["repair"], summary: "Keep the good part of a damaged store file and move the rest aside.",
        details: """
            Keeps every line before the first damaged (or incomplete) one and moves the rest to
            FILE.corrupt-<UTC timestamp>, so nothing is deleted. With --salvage, also replays the
            intact lines after the damage, lists each change that cannot apply (a row that never
            arrived) and each reference it clears, and rewrites the file as a snapshot that
            verifies; the whole original goes to FILE.corrupt-<UTC timestamp>. A healthy file is
            left as it is. Takes the writer lock.
            """
    ) { (args: Arguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let path = args.file
            let result = try JSONLinesStore.repair(
                at: URL(fileURLWithPath: path), salvaging: args.salvage)
            if args.json {
                output.json(
                    .object([
                        ("file", .string(path)), ("repaired", .bool(result.didRepair)),
                        (
                            "firstDamagedLine",
                            result.firstDamagedLine.map { .integer($0) } ?? .null
                        ),
                        ("reason", result.reason.map { .string($0) } ?? .null),
                        ("keptLines", .integer(result.keptLines)),
                        ("keptBytes", .integer(result.keptBytes)),
                        ("movedBytes", .integer(result.movedBytes)),
                        ("droppedSnapshotRows", .integer(result.droppedSnapshotRows)),
                        ("sidecar", result.sidecarURL.map { .string($0.path) } ?? .null),
                        ("salvaged", .bool(result.salvaged)),
                        ("damagedLines", .array(result.damagedLines.map { .integer($0) })),
                        ("skipped", .array(result.skipped.map { .string($0) })),
                        ("rows", result.rowCount.map { .integer($0) } ?? .null),
                    ]))
            } else if result.salvaged, let sidecar = result.sidecarURL {
                let damaged = result.damagedLines.map(String.init).joined(separator: ", ")
                output.out(
                    """
                    \(path): salvaged: damaged line\(result.damagedLines.count == 1 ? "" : "s") \(damaged); \
                    what it found (\(StoreFileSupport.grouped(result.skipped.count)) note\(result.skipped.count == 1 ? "" : "s")):
                    """)
                for note in result.skipped { output.out("  \(note)") }
                output.out(
                    """
                    kept \(StoreFileSupport.grouped(result.rowCount ?? 0)) rows in a snapshot \
                    (\(StoreFileSupport.bytes(result.keptBytes)))
                    the original file (\(StoreFileSupport.bytes(result.movedBytes))) is in \(sidecar.path)
                    """)
            } else if let sidecar = result.sidecarURL, let line = result.firstDamagedLine {
                output.out(
                    """
                    \(path): line \(line) was damaged: \(result.reason ?? "")
                    kept lines 1–\(result.keptLines) (\(StoreFileSupport.bytes(result.keptBytes)))\
                    \(result.droppedSnapshotRows > 0 ? "; the snapshot lost \(result.droppedSnapshotRows) rows" : "")
                    moved \(StoreFileSupport.bytes(result.movedBytes)) to \(sidecar.path)
                    """)
            } else {
                output.out("\(path): nothing to repair")
            }
        }
    }
}
