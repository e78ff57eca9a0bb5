import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph fetch FILE --entity E [--where P] [--sort KEY[:desc]] [--limit N] [--offset N] [--json]`
/// and `objectgraph count FILE --entity E [--where P]`: query any store file the way the
/// sqlite3 shell queries a database.
enum FetchCommand {
    /// What `count` takes, and `fetch` before its window and output options.
    struct QueryArguments: ParsableArguments {
        @Argument("FILE") var file: String
        @Option("--entity", "NAME", help: "the entity to fetch (subentities included)")
        var entity: String
        @Option(
            "--where", "PREDICATE",
            help: "a predicate in Core Data's format language, e.g. \"amount > 10\"")
        var predicate: String?
    }

    struct Arguments: ParsableArguments {
        @OptionGroup var query: QueryArguments
        @Option(
            "--sort", "KEY[:desc]", help: "sort by a key path (repeatable; ascending unless :desc)",
            transform: ArgumentTransform { text, _ in try sortDescriptor(text) })
        var sort: [FetchSortDescriptor]
        @Option("--limit", "N", help: "at most N rows (0: no limit)", transform: .wholeNumber())
        var limit = 0
        @Option("--offset", "N", help: "skip the first N rows", transform: .wholeNumber())
        var offset = 0
        @Flag("--json", help: "one JSON object per row, one per line") var json: Bool
    }

    static let command = ToolCommand(
        ["fetch"],
        summary: "Print the rows of an entity that match a predicate, sorted and windowed.",
        details:
            "Predicates: the PredicateLanguage article of the documentation. The file's own model is used; no code needed."
    ) { (args: Arguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let store = try StoreFileSupport.openForReading(args.query.file, output: output)
            defer { store.close() }
            var request = try storeRequest(args.query, model: store.model)
            request.sortDescriptors = args.sort
            request.fetchLimit = args.limit
            request.fetchOffset = args.offset
            let rows = try store.fetch(request)
            let columns = request.entity.properties.filter(DumpCommand.storedColumn)
            if args.json {
                for row in rows {
                    output.jsonLine(try DumpCommand.json(row, columns: columns))
                }
                return
            }
            output.table(
                [["entity", "pk"] + columns.map(\.name)]
                    + (try rows.map { row in
                        [row.objectID.entity.name, String(row.objectID.primaryKey)]
                            + (try columns.map {
                                DumpCommand.cut(
                                    try DumpCommand.display(row.values[$0.index], of: $0))
                            })
                    }), rightAligned: [1])
            output.err("\(rows.count) row\(rows.count == 1 ? "" : "s")")
        }
    }

    static let countCommand = ToolCommand(
        ["count"], summary: "Count the rows of an entity that match a predicate."
    ) { (args: QueryArguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let store = try StoreFileSupport.openForReading(args.file, output: output)
            defer { store.close() }
            let request = try storeRequest(args, model: store.model)
            output.out(String(try store.count(request)))
        }
    }

    private static func storeRequest(_ args: QueryArguments, model: ManagedObjectModel) throws
        -> StoreFetchRequest
    {
        let name = args.entity
        guard let entity = model[entityName: name] else {
            throw CLIError.failure(
                "no entity '\(EchoedText.capped(name))' in the file's model (it has "
                    + model.entities.map(\.name).joined(separator: ", ") + ")")
        }
        var request = StoreFetchRequest(entity: entity)
        if let text = args.predicate {
            let predicate = try FetchPredicate(format: text)
            _ = try predicate.compile(for: entity)
            request.predicate = predicate
        }
        return request
    }

    private static func sortDescriptor(_ text: String) throws -> FetchSortDescriptor {
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        guard let key = parts.first, !key.isEmpty,
            parts.count == 1 || ["asc", "desc"].contains(parts[1])
        else {
            throw CLIError.usage(
                "--sort takes KEY, KEY:asc or KEY:desc, not '\(EchoedText.capped(text))'")
        }
        return FetchSortDescriptor(key: key, ascending: parts.count == 1 || parts[1] == "asc")
    }
}
