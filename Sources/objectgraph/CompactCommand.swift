import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph compact FILE`: rewrite the file as a snapshot of its live rows.
enum CompactCommand {
    static let command = Command(CommandSpec(
        name: "compact", summary: "rewrite a store file as a snapshot of its live rows",
        discussion: """
            Takes the writer lock, so it fails while an application has the file open for writing.
            The new file replaces the old one atomically; transaction numbers keep counting.
            """,
        arguments: [StoreFileSupport.fileArgument], options: [StoreFileSupport.jsonOption])) { args, output in
        let path = args.positionals[0]
        let url = URL(fileURLWithPath: path)
        let model = try JSONLinesStore.metadata(at: url).model
        let store = try JSONLinesStore(model: model, url: url)
        defer { store.close() }
        for notice in store.recoveryNotices { output.err("notice: \(notice)") }
        let before = try store.statistics()
        try store.compact()
        let after = try store.statistics()
        if args.has("--json") {
            output.out(JSONOutput.object([
                ("file", .string(path)), ("bytesBefore", .int(Int64(before.fileBytes))),
                ("bytesAfter", .int(Int64(after.fileBytes))),
                ("transactionsFolded", .int(Int64(before.transactionCount))),
                ("rows", .int(Int64(after.snapshotRowCount))),
            ]).serialized(pretty: true))
        } else {
            output.out("\(path): \(groupedDigits(before.fileBytes)) → \(StoreFileSupport.bytes(after.fileBytes)); "
                       + "\(groupedDigits(before.transactionCount)) transaction lines folded into a snapshot of "
                       + "\(groupedDigits(after.snapshotRowCount)) rows")
        }
        return .success
    }
}
