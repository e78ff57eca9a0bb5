import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph info FILE`: the header, a model summary and counts.
enum InfoCommand {
    static let command = ToolCommand(
        ["info"], summary: "Show a store file's header, model and counts.",
        details: "Reads the file without locking it, so it works beside a running writer."
    ) { (args: StoreFileArguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let path = args.file
            let store = try StoreFileSupport.openForReading(path, output: output)
            defer { store.close() }
            let metadata = try store.metadata()
            let statistics = try store.statistics()
            let model = store.model
            if args.json {
                let entities = model.entities.map { entity -> JSONValue in
                    .object([
                        ("name", .string(entity.name)),
                        ("rows", .integer(statistics.rowCounts[entity.name] ?? 0)),
                        ("attributes", .integer(entity.attributes.count)),
                        ("relationships", .integer(entity.relationships.count)),
                        ("superentity", entity.superentityName.map { .string($0) } ?? .null),
                        ("isAbstract", .bool(entity.isAbstract)),
                    ])
                }
                let members: [(String, JSONValue)] = [
                    ("file", .string(path)), ("format", .string("objectgraph-jsonl")),
                    ("version", .integer(metadata.formatVersion)),
                    ("store", .string(metadata.storeIdentifier)),
                    ("created", .string(StoreFileSupport.date(metadata.creationDate))),
                    (
                        "compacted",
                        metadata.compactionDate.map { .string(StoreFileSupport.date($0)) } ?? .null
                    ),
                ]
                output.json(
                    .object(
                        members + StoreFileSupport.json(statistics, model: model)
                            + [("entities", .array(entities))]
                    ))
                return
            }
            output.out("File          \(path)")
            output.out("Format        objectgraph-jsonl, version \(metadata.formatVersion)")
            output.out("Store         \(metadata.storeIdentifier)")
            output.out("Created       \(StoreFileSupport.date(metadata.creationDate))")
            output.out(
                "Compacted     \(metadata.compactionDate.map(StoreFileSupport.date) ?? "never")")
            output.out(
                "Transactions  \(StoreFileSupport.grouped(statistics.transactionCount)) in the file "
                    + "(last number \(statistics.lastTransactionNumber))")
            output.out("Size          " + StoreFileSupport.sizeLine(statistics))
            output.out("")
            output.table(
                [["Entity", "Rows", "Attributes", "Relationships", "Inherits from"]]
                    + model.entities.map { entity in
                        [
                            entity.name + (entity.isAbstract ? " (abstract)" : ""),
                            StoreFileSupport.grouped(statistics.rowCounts[entity.name] ?? 0),
                            String(entity.attributes.count),
                            String(entity.relationships.count), entity.superentityName ?? "",
                        ]
                    }, rightAligned: [1, 2, 3])
        }
    }
}
