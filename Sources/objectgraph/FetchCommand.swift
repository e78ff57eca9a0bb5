import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph fetch FILE --entity E [--where P] [--sort KEY[:desc]] [--limit N] [--offset N] [--json]`
/// and `objectgraph count FILE --entity E [--where P]`: query any store file the way the
/// sqlite3 shell queries a database.
enum FetchCommand {
    static let queryOptions: [OptionSpec] = [
        .value("--entity", "NAME", "the entity to fetch (subentities included)"),
        .value(
            "--where", "PREDICATE",
            "a predicate in Core Data's format language, e.g. \"amount > 10\""),
    ]

    static let command = Command(
        CommandSpec(
            path: ["fetch"],
            summary: "Print the rows of an entity that match a predicate, sorted and windowed.",
            arguments: "FILE", positionals: 1...1,
            options: queryOptions + [
                .value(
                    "--sort", "KEY[:desc]",
                    "sort by a key path (repeatable; ascending unless :desc)", repeatable: true),
                .value("--limit", "N", "at most N rows (0, the default: no limit)"),
                .value("--offset", "N", "skip the first N rows"),
                .flag("--json", "one JSON object per row, one per line"),
            ],
            details:
                "Predicates: see docs/predicate-language.md. The file's own model is used; no code needed."
        )
    ) { args, output in
        try StoreFileSupport.reportingCodes {
            let store = try StoreFileSupport.openForReading(args.positionals[0], output: output)
            defer { store.close() }
            var request = try storeRequest(args, model: store.model)
            request.sortDescriptors = try args.allValues("--sort").map(sortDescriptor)
            request.fetchLimit = try args.wholeNumber("--limit") ?? 0
            request.fetchOffset = try args.wholeNumber("--offset") ?? 0
            let rows = try store.fetch(request)
            let columns = request.entity.properties.filter(DumpCommand.storedColumn)
            if args.has("--json") {
                for row in rows {
                    output.out(try DumpCommand.json(row, columns: columns).serialized())
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

    static let countCommand = Command(
        CommandSpec(
            path: ["count"], summary: "Count the rows of an entity that match a predicate.",
            arguments: "FILE", positionals: 1...1, options: queryOptions)
    ) { args, output in
        try StoreFileSupport.reportingCodes {
            let store = try StoreFileSupport.openForReading(args.positionals[0], output: output)
            defer { store.close() }
            output.out(String(try store.count(try storeRequest(args, model: store.model))))
        }
    }

    private static func storeRequest(_ args: ParsedArguments, model: ManagedObjectModel) throws
        -> StoreFetchRequest
    {
        guard let name = args.value("--entity") else {
            throw CLIError.usage("--entity NAME is required")
        }
        guard let entity = model[entityName: name] else {
            throw CLIError.failure(
                "no entity '\(EchoedText.capped(name))' in the file's model (it has "
                    + model.entities.map(\.name).joined(separator: ", ") + ")")
        }
        var request = StoreFetchRequest(entity: entity)
        if let text = args.value("--where") {
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
