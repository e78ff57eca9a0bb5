import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph compact FILE`: rewrite the file as a snapshot of its live rows.
enum CompactCommand {
    static let command = ToolCommand(
        ["compact"], summary: "Rewrite a store file as a snapshot of its live rows.",
        details: """
            Takes the writer lock, so it fails while an application has the file open for writing.
            The new file replaces the old one atomically; transaction numbers keep counting.
            On a terminal, a progress bar on standard error counts the rows written (--quiet:
            none).
            """
    ) { (args: LongStoreFileArguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let path = args.file
            let url = URL(fileURLWithPath: path)
            let metadata = try JSONLinesStore.metadata(at: url)
            var options = StoreOptions()
            options.tracksHistory = metadata.tracksHistory  // a tracked file stays tracked
            let store = try JSONLinesStore(model: metadata.model, url: url, options: options)
            if store.didCreateFile {  // removed since its header was read: never make one
                store.closeRemovingCreatedFile()
                throw CLIError.failure("\(path) no longer exists; nothing was written")
            }
            defer { store.close() }
            for notice in store.recoveryNotices { output.err("notice: \(notice)") }
            let before = try store.statistics()
            // A bar on a terminal (not with --quiet): the snapshot's rows written.
            if let bar = output.progressBar("compact", quiet: args.quiet) {
                defer { bar.finish() }
                try store.compact { bar.update($0, of: $1) }
            } else {
                try store.compact()
            }
            let after = try store.statistics()
            if args.json {
                output.json(
                    .object([
                        ("file", .string(path)), ("bytesBefore", .integer(before.fileBytes)),
                        ("bytesAfter", .integer(after.fileBytes)),
                        ("transactionsFolded", .integer(before.transactionCount)),
                        ("rows", .integer(after.snapshotRowCount)),
                    ]))
            } else {
                output.out(
                    "\(path): \(StoreFileSupport.grouped(before.fileBytes)) → \(StoreFileSupport.bytes(after.fileBytes)); "
                        + "\(StoreFileSupport.grouped(before.transactionCount)) transaction line\(before.transactionCount == 1 ? "" : "s") folded into a snapshot of "
                        + "\(StoreFileSupport.grouped(after.snapshotRowCount)) rows"
                        + (after.fileBytes > before.fileBytes
                            ? " (larger: a snapshot writes each row on a line of its own with its "
                                + "own checksum, where a transaction line holds many rows)" : ""))
            }
        }
    }
}
