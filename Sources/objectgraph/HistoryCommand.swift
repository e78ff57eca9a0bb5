import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph history FILE [--after N] [--entity E] [--json]`: the store's persistent
/// history, one transaction per line (or per JSON line) with its changes.
enum HistoryCommand {
    struct Arguments: ParsableArguments {
        @Argument("FILE") var file: String
        @Option("--after", "N", help: "only transactions after transaction number N")
        var after: String?
        @Option("--entity", "NAME", help: "only changes of this entity (and their transactions)")
        var entity: String?
        @Flag("--json", help: "one JSON object per transaction, one per line (for jq)")
        var json: Bool
    }

    static let command = ToolCommand(
        ["history"], summary: "Print the persistent history of a store file.",
        details: """
            Each transaction shows its number, time (UTC), author, context name, program and
            process, then one line per change: insert, update (with the properties it
            changed) or delete (with the values kept in its tombstone). A file that does not
            track history fails with code 134091; --after a transaction whose history was
            deleted fails with 134301.
            """
    ) { (args: Arguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let store = try StoreFileSupport.openForReading(args.file, output: output)
            defer { store.close() }
            var after: Int64?
            if let text = args.after {
                guard let n = Int64(text), n >= 0 else {
                    throw CLIError.usage(
                        "--after takes a transaction number, not '\(EchoedText.capped(text))'")
                }
                after = n
            }
            if let name = args.entity, store.model[entityName: name] == nil {
                let known = store.model.entities.map(\.name).joined(separator: ", ")
                throw CLIError.failure(
                    "no entity '\(EchoedText.capped(name))' in the file's model (it has \(known))")
            }
            for transaction in try store.history(after: after) {
                let changes = transaction.changes.filter {
                    args.entity == nil || $0.objectID.entity.name == args.entity
                }
                if args.entity != nil && changes.isEmpty { continue }
                if args.json {
                    output.jsonLine(try json(transaction, changes))
                    continue
                }
                output.out(summary(transaction))
                for change in changes { output.out("  " + (try describe(change))) }
            }
        }
    }

    static func time(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    static func summary(_ t: StoreHistoryTransaction) -> String {
        "#\(t.number) \(time(t.timestamp)) author: \(t.author ?? "-") context: "
            + "\(t.contextName ?? "-") by: \(t.bundleID)[\(t.processID)]"
    }

    static func describe(_ change: StoreHistoryChange) throws -> String {
        let id = "\(change.objectID.entity.name) p\(change.objectID.primaryKey)"
        switch change.changeType {
        case .insert: return "insert \(id)"
        case .update:
            return "update \(id) (\((change.updatedProperties ?? []).joined(separator: ", ")))"
        case .delete:
            let values = try (change.tombstone ?? [:]).sorted { $0.key < $1.key }.map {
                "\($0.key): \(try canonical($0.value, change.objectID.entity, $0.key))"
            }
            return "delete \(id)" + (values.isEmpty ? "" : " {\(values.joined(separator: ", "))}")
        }
    }

    private static func canonical(
        _ value: AttributeValue, _ entity: EntityDescription, _ key: String
    )
        throws -> String
    {
        try value.canonicalJSON(as: entity.attributesByName[key]?.type ?? .undefined)
    }

    static func json(_ t: StoreHistoryTransaction, _ changes: [StoreHistoryChange]) throws
        -> JSONValue
    {
        func optional(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        let list = try changes.map { change -> JSONValue in
            var members: [(String, JSONValue)] = [
                ("type", .string("\(change.changeType)")),
                ("entity", .string(change.objectID.entity.name)),
                ("pk", .integer(change.objectID.primaryKey)),
            ]
            if let names = change.updatedProperties {
                members.append(("updatedProperties", .array(names.map(JSONValue.string))))
            }
            if let tombstone = change.tombstone {
                members.append(
                    (
                        "tombstone",
                        .object(
                            try tombstone.sorted { $0.key < $1.key }.map {
                                (
                                    $0.key,
                                    try JSONParser.parse(
                                        Data(
                                            try canonical($0.value, change.objectID.entity, $0.key)
                                                .utf8))
                                )
                            })
                    ))
            }
            return .object(members)
        }
        return .object([
            ("transaction", .integer(t.number)), ("timestamp", .string(time(t.timestamp))),
            ("author", optional(t.author)), ("context", optional(t.contextName)),
            ("bundleID", .string(t.bundleID)), ("processID", .string(t.processID)),
            ("changes", .array(list)),
        ])
    }
}
