import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph info FILE`: the header, a model summary and counts.
enum InfoCommand {
    static let command = Command(CommandSpec(
        name: "info", summary: "show a store file's header, model and counts",
        discussion: "Reads the file without locking it, so it works beside a running writer.",
        arguments: [StoreFileSupport.fileArgument], options: [StoreFileSupport.jsonOption])) { args, output in
        let path = args.positionals[0]
        let store = try StoreFileSupport.openForReading(path, output: output)
        defer { store.close() }
        let metadata = try store.metadata()
        let statistics = try store.statistics()
        let model = store.model
        if args.has("--json") {
            let entities = model.entities.map { entity -> JSONOutput in
                .object([("name", .string(entity.name)), ("rows", .int(Int64(statistics.rowCounts[entity.name] ?? 0))),
                         ("attributes", .int(Int64(entity.attributes.count))),
                         ("relationships", .int(Int64(entity.relationships.count))),
                         ("superentity", entity.superentityName.map { .string($0) } ?? .null),
                         ("isAbstract", .bool(entity.isAbstract))])
            }
            let members: [(String, JSONOutput)] = [
                ("file", .string(path)), ("format", .string("objectgraph-jsonl")),
                ("version", .int(Int64(metadata.formatVersion))), ("store", .string(metadata.storeIdentifier)),
                ("created", .string(StoreFileSupport.date(metadata.creationDate))),
                ("compacted", metadata.compactionDate.map { .string(StoreFileSupport.date($0)) } ?? .null),
            ]
            output.out(JSONOutput.object(members + StoreFileSupport.json(statistics, model: model)
                + [("entities", .array(entities))]).serialized(pretty: true))
            return .success
        }
        var entities = TextTable(["Entity", "Rows", "Attributes", "Relationships", "Inherits from"],
                                 alignments: [.left, .right, .right, .right, .left])
        for entity in model.entities {
            entities.append([entity.name + (entity.isAbstract ? " (abstract)" : ""),
                             groupedDigits(statistics.rowCounts[entity.name] ?? 0), String(entity.attributes.count),
                             String(entity.relationships.count), entity.superentityName ?? ""])
        }
        output.out("""
            File          \(path)
            Format        objectgraph-jsonl, version \(metadata.formatVersion)
            Store         \(metadata.storeIdentifier)
            Created       \(StoreFileSupport.date(metadata.creationDate))
            Compacted     \(metadata.compactionDate.map(StoreFileSupport.date) ?? "never")
            Transactions  \(groupedDigits(statistics.transactionCount)) in the file (last number \(statistics.lastTransactionNumber))
            Size          \(StoreFileSupport.bytes(statistics.fileBytes)): \(groupedDigits(statistics.liveBytes)) live, \(groupedDigits(statistics.deadBytes)) dead

            \(entities.rendered)
            """)
        return .success
    }
}
