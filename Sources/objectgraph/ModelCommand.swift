import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph model PATH [--json]`: summarise a model (Xcode `.xcdatamodeld`/`.xcdatamodel`,
/// its `contents` file, or a JSON model), or convert it to the JSON model format.
enum ModelCommand {
    struct Arguments: ParsableArguments {
        @Argument("PATH") var path: String
        @Option(
            "--version", "NAME",
            help: "the version of an .xcdatamodeld to read (default: the current one)")
        var version: String?
        @Flag("--json", help: "print the model in the JSON model format (the ModelFormat article)")
        var json: Bool
    }

    static let command = ToolCommand(
        ["model"], summary: "Summarise a data model, or convert it to the JSON model format.",
        details: "Warnings about what the reader could not honour go to standard error."
    ) { (args: Arguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let model = try ManagedObjectModel(
                contentsOf: URL(fileURLWithPath: args.path), version: args.version)
            for warning in model.loadWarnings {
                output.err("warning: \(EchoedText.cappedLines(warning))")
            }
            if args.json {
                output.out(String(decoding: model.jsonData(pretty: true), as: UTF8.self))
                return
            }
            for entity in model.entities {
                var title = entity.name
                if let parent = entity.superentity { title += " : \(parent.name)" }
                if entity.isAbstract { title += " (abstract)" }
                output.out(EchoedText.capped(title))
                var rows: [[String]] = [["  property", "kind", "type", "rules"]]
                for property in entity.ownProperties {
                    switch property {
                    case let a as AttributeDescription:
                        rows.append(["  " + a.name, "attribute", a.type.rawValue, rules(a)])
                    case let r as RelationshipDescription:
                        let shape =
                            r.isToMany ? (r.isOrdered ? "ordered to-many" : "to-many") : "to-one"
                        var notes = ["delete: \(r.deleteRule)"]
                        if let inverse = r.inverseName { notes.append("inverse \(inverse)") }
                        if !r.isOptional { notes.append("required") }
                        rows.append([
                            "  " + r.name, shape, r.destinationEntityName,
                            notes.joined(separator: ", "),
                        ])
                    default: continue
                    }
                }
                output.table(rows)
                if !entity.uniquenessConstraints.isEmpty {
                    output.out(
                        "  unique: "
                            + entity.uniquenessConstraints.map { $0.joined(separator: "+") }.joined(
                                separator: "; "))
                }
                output.out("")
            }
        }
    }

    private static func rules(_ a: AttributeDescription) -> String {
        var notes: [String] = []
        if !a.isOptional { notes.append("required") }
        if a.isTransient { notes.append("transient") }
        if let e = a.derivationExpression { notes.append("derived: \(e)") }
        func text(_ v: AttributeValue) -> String {
            v.swiftValue(for: a.type).map { "\($0)" } ?? "nil"
        }
        if !a.defaultValue.isNull { notes.append("default \(text(a.defaultValue))") }
        if let v = a.minValue { notes.append("min \(text(v))") }
        if let v = a.maxValue { notes.append("max \(text(v))") }
        if let v = a.minLength { notes.append("min length \(v)") }
        if let v = a.maxLength { notes.append("max length \(v)") }
        if let p = a.pattern { notes.append("matches \(p)") }
        return notes.joined(separator: ", ")
    }
}
