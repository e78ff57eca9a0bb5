import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph repair FILE`: keep the good prefix, move the rest aside.
enum RepairCommand {
    static let command = ToolCommand(
        ["repair"], summary: "Keep the good part of a damaged store file and move the rest aside.",
        details: """
            Keeps every line before the first damaged (or incomplete) one and moves the rest to
            FILE.corrupt-<UTC timestamp>, so nothing is deleted. A healthy file is left as it is.
            Takes the writer lock.
            """
    ) { (args: StoreFileArguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let path = args.file
            let result = try JSONLinesStore.repair(at: URL(fileURLWithPath: path))
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
                    ]))
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
