import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph dump FILE [--entity E] [--json]`: every row, entity by entity.
enum DumpCommand {
    struct Arguments: ParsableArguments {
        @Argument("FILE") var file: String
        @Option("--entity", "NAME", help: "only rows of this entity (not its subentities)")
        var entity: String?
        @Flag("--json", help: "one JSON object per row, one per line (for jq)") var json: Bool
    }

    static let command = ToolCommand(
        ["dump"], summary: "Print the rows of a store file, entity by entity.",
        details: """
            Text output shows each entity's rows as a table of canonical values (long values are
            cut at 40 characters); --json gives full values.
            """
    ) { (args: Arguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let store = try StoreFileSupport.openForReading(args.file, output: output)
            defer { store.close() }
            var entities = store.model.entities.filter { !$0.isAbstract }
            if let name = args.entity {
                guard let entity = store.model[entityName: name] else {
                    let known = store.model.entities.map(\.name).joined(separator: ", ")
                    throw CLIError.failure(
                        "no entity '\(EchoedText.capped(name))' in the file's model (it has \(known))"
                    )
                }
                entities = [entity]
            }
            let table = try store.snapshot()
            for entity in entities {
                let rows = table.rows(of: entity)
                let columns = entity.properties.filter { storedColumn($0) }
                if args.json {
                    for row in rows { output.jsonLine(try json(row, columns: columns)) }
                    continue
                }
                output.out(
                    "\(entity.name) (\(StoreFileSupport.grouped(rows.count)) row\(rows.count == 1 ? "" : "s"))"
                )
                if !rows.isEmpty {
                    output.table(
                        [["pk", "version"] + columns.map(\.name)]
                            + (try rows.map { row in
                                [String(row.objectID.primaryKey), String(row.version)]
                                    + (try columns.map {
                                        cut(try display(row.values[$0.index], of: $0))
                                    })
                            }), rightAligned: [0, 1])
                }
                output.out("")
            }
        }
    }

    static func storedColumn(_ property: PropertyDescription) -> Bool {
        if let r = property as? RelationshipDescription { return r.isStoredInRow }
        return !property.isTransient
    }

    private static func reference(_ id: ManagedObjectID) -> String {
        "\(id.entity.name) p\(id.primaryKey)"
    }

    static func display(_ value: StoreValue, of property: PropertyDescription) throws
        -> String
    {
        switch value {
        case .attribute(let v):
            guard let attribute = property as? AttributeDescription else { return "" }
            return try v.canonicalJSON(as: attribute.type)
        case .toOne(let id): return id.map(reference) ?? "null"
        case .toMany(let ids): return "[" + ids.map(reference).joined(separator: ", ") + "]"
        case .notStored: return ""
        }
    }

    static func cut(_ text: String) -> String {
        text.count > 40 ? text.prefix(39) + "…" : text
    }

    static func json(_ row: StoreRow, columns: [PropertyDescription]) throws -> JSONValue {
        func ref(_ id: ManagedObjectID) -> JSONValue {
            .object([("entity", .string(id.entity.name)), ("pk", .integer(id.primaryKey))])
        }
        let values = try columns.map { property -> (String, JSONValue) in
            switch row.values[property.index] {
            case .attribute(let v):
                return (
                    property.name,
                    try JSONParser.parse(
                        Data(v.canonicalJSON(as: (property as! AttributeDescription).type).utf8))
                )
            case .toOne(let id): return (property.name, id.map(ref) ?? .null)
            case .toMany(let ids): return (property.name, .array(ids.map(ref)))
            case .notStored: return (property.name, .null)
            }
        }
        return .object([
            ("entity", .string(row.objectID.entity.name)),
            ("pk", .integer(row.objectID.primaryKey)),
            ("version", .integer(row.version)), ("values", .object(values)),
        ])
    }
}
