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
                output.out(
                    JSONOutput.object([
                        ("file", .string(path)), ("repaired", .bool(result.didRepair)),
                        (
                            "firstDamagedLine",
                            result.firstDamagedLine.map { .int(Int64($0)) } ?? .null
                        ),
                        ("reason", result.reason.map { .string($0) } ?? .null),
                        ("keptLines", .int(Int64(result.keptLines))),
                        ("keptBytes", .int(Int64(result.keptBytes))),
                        ("movedBytes", .int(Int64(result.movedBytes))),
                        ("droppedSnapshotRows", .int(Int64(result.droppedSnapshotRows))),
                        ("sidecar", result.sidecarURL.map { .string($0.path) } ?? .null),
                    ]).serialized(pretty: true))
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
