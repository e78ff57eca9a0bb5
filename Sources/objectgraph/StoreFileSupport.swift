import CLISupport
import Foundation
import ObjectGraph

/// What the store commands share: opening a file with its own model, printing notices, and
/// formatting dates and sizes.
enum StoreFileSupport {
    /// The `FILE` argument every store command takes.
    static let fileArgument = CommandSpec.Argument("FILE", "the store file (JSON lines)")
    /// The `--json` flag.
    static let jsonOption = CommandSpec.Option("--json", "print JSON instead of text")

    /// Opens `path` read-only with the model its header embeds; notices go to standard error.
    static func openForReading(_ path: String, output: TerminalOutput) throws -> JSONLinesStore {
        let url = URL(fileURLWithPath: path)
        let model = try JSONLinesStore.metadata(at: url).model
        var options = StoreOptions()
        options.isReadOnly = true
        let store = try JSONLinesStore(model: model, url: url, options: options)
        for notice in store.recoveryNotices { output.err("notice: \(notice)") }
        return store
    }

    /// `2023-11-14T22:13:20Z`, or with fractional seconds when there are any.
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if date.timeIntervalSince1970 != date.timeIntervalSince1970.rounded() {
            formatter.formatOptions.insert(.withFractionalSeconds)
        }
        return formatter.string(from: date)
    }

    /// `12,345 bytes`.
    static func bytes(_ count: Int) -> String { "\(groupedDigits(count)) byte\(count == 1 ? "" : "s")" }

    /// Rows per entity as `[name: count]` in model order, for text and JSON.
    static func rowCounts(_ statistics: JSONLinesStoreStatistics, model: ManagedObjectModel) -> [(String, Int)] {
        model.entities.map { ($0.name, statistics.rowCounts[$0.name] ?? 0) }
    }

    /// The statistics as JSON members.
    static func json(_ s: JSONLinesStoreStatistics, model: ManagedObjectModel) -> [(String, JSONOutput)] {
        [("transactions", .int(Int64(s.transactionCount))), ("lastTransaction", .int(s.lastTransactionNumber)),
         ("snapshotRows", .int(Int64(s.snapshotRowCount))), ("bytes", .int(Int64(s.fileBytes))),
         ("liveBytes", .int(Int64(s.liveBytes))), ("deadBytes", .int(Int64(s.deadBytes))),
         ("rows", .object(rowCounts(s, model: model).map { ($0.0, .int(Int64($0.1))) }))]
    }

    /// The statistics as aligned text lines.
    static func text(_ s: JSONLinesStoreStatistics, model: ManagedObjectModel) -> String {
        var table = TextTable(["Entity", "Rows"], alignments: [.left, .right])
        for (name, count) in rowCounts(s, model: model) { table.append([name, groupedDigits(count)]) }
        return """
            Transactions  \(groupedDigits(s.transactionCount)) in the file (last number \(s.lastTransactionNumber))
            Size          \(bytes(s.fileBytes)): \(groupedDigits(s.liveBytes)) live, \(groupedDigits(s.deadBytes)) dead

            \(table.rendered)
            """
    }
}
