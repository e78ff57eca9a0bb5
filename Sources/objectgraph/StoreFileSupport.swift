import CLISupport
import Foundation
import ObjectGraph

/// An `objectgraph` command (the tool has no global options).
typealias ToolCommand = Command<NoArguments>

/// The arguments of the commands that take one store file: `FILE [--json]`.
struct StoreFileArguments: ParsableArguments {
    @Argument("FILE") var file: String
    @Flag("--json", help: "print JSON instead of text") var json: Bool
}

/// The arguments of the long commands on one store file (`compact`, `verify`):
/// `FILE [--json] [--quiet]`.
struct LongStoreFileArguments: ParsableArguments {
    @Argument("FILE") var file: String
    @Flag("--json", help: "print JSON instead of text") var json: Bool
    @Flag("--quiet", help: "no progress bar on standard error") var quiet: Bool
}

/// What the store commands share: opening a file with its own model, printing notices, and
/// formatting dates, sizes and statistics.
enum StoreFileSupport {
    /// Runs a command's work, reporting an ``ObjectGraphError`` with its code
    /// (`error 259: store …: line 4: …`) so scripts can match on it.
    static func reportingCodes(_ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as ObjectGraphError {
            throw CLIError.failure(describe(error))
        }
    }

    /// How many of an error's underlying errors are printed.
    static let listedErrors = 20

    /// `error CODE: message`; an error collecting others (a 1560) is printed as a count, then
    /// the first ``listedErrors`` of them one per line, then how many more there are.
    static func describe(_ error: ObjectGraphError) -> String {
        guard !error.underlying.isEmpty else { return error.description }
        let count = error.underlying.count
        let kind = error.reason == .multipleValidationErrors ? "validation error" : "error"
        var lines = [
            "error \(error.code): \(count) \(kind)\(count == 1 ? "" : "s")"
                + (error.file.map { " in \(EchoedText.capped($0))" } ?? "")
        ]
        lines += error.underlying.prefix(listedErrors).map { "  \($0.description)" }
        if count > listedErrors { lines.append("  and \(count - listedErrors) more") }
        return lines.joined(separator: "\n")
    }

    /// Opens `path` read-only with the model its header embeds; notices go to standard error.
    static func openForReading(_ path: String, output: CLIOutput) throws -> JSONLinesStore {
        let url = URL(fileURLWithPath: path)
        let model = try JSONLinesStore.metadata(at: url).model
        var options = StoreOptions()
        options.isReadOnly = true
        let store = try JSONLinesStore(model: model, url: url, options: options)
        for notice in store.recoveryNotices { output.err("notice: \(notice)") }
        return store
    }

    /// `2023-11-14T22:13:20Z`, with fractional seconds when there are any.
    static func date(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = TimeZone(identifier: "UTC")
        if date.timeIntervalSince1970 != date.timeIntervalSince1970.rounded() {
            formatter.formatOptions.insert(.withFractionalSeconds)
        }
        return formatter.string(from: date)
    }

    /// `12345678` → `12,345,678`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (i, c) in digits.enumerated() {
            if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(c)
        }
        return value < 0 ? "-" + out : out
    }

    /// `12,345 bytes`.
    static func bytes(_ count: Int) -> String { "\(grouped(count)) byte\(count == 1 ? "" : "s")" }

    /// The statistics as JSON members.
    static func json(_ s: JSONLinesStoreStatistics, model: ManagedObjectModel) -> [(
        String, JSONValue
    )] {
        [
            ("transactions", .integer(s.transactionCount)),
            ("lastTransaction", .integer(s.lastTransactionNumber)),
            ("snapshotRows", .integer(s.snapshotRowCount)), ("bytes", .integer(s.fileBytes)),
            ("liveBytes", .integer(s.liveBytes)), ("deadBytes", .integer(s.deadBytes)),
            (
                "rows",
                .object(model.entities.map { ($0.name, .integer(s.rowCounts[$0.name] ?? 0)) })
            ),
        ]
    }

    /// The file's size and what compacting it would take and reclaim, as `info` and
    /// `verify` print it: "418,679 bytes; compacted: 493,245 (0 to reclaim)". The compacted
    /// size can exceed the file's (a snapshot writes one line a row, each with its own
    /// checksum), and nothing is then reclaimed.
    static func sizeLine(_ s: JSONLinesStoreStatistics) -> String {
        "\(bytes(s.fileBytes)); compacted: \(grouped(s.liveBytes)) (\(grouped(s.deadBytes)) to reclaim)"
    }

    /// Prints the statistics: transactions, size, and rows per entity.
    static func print(
        _ s: JSONLinesStoreStatistics, model: ManagedObjectModel, to output: CLIOutput
    ) {
        output.out(
            "Transactions  \(grouped(s.transactionCount)) in the file (last number \(s.lastTransactionNumber))"
        )
        output.out("Size          " + sizeLine(s))
        output.out("")
        output.table(
            [["Entity", "Rows"]]
                + model.entities.map { [$0.name, grouped(s.rowCounts[$0.name] ?? 0)] },
            rightAligned: [1])
    }
}
