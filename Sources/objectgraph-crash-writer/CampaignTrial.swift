import Foundation
import ObjectGraph
import ObjectGraphTesting

/// The programs a campaign runs: built beside `objectgraph-crash-writer`.
struct CampaignTools {
    let ledger: URL
    let objectgraph: URL
    let crashWriter: URL

    init() throws {
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        let directory = me.deletingLastPathComponent()
        ledger = directory.appendingPathComponent("ledger")
        objectgraph = directory.appendingPathComponent("objectgraph")
        crashWriter = me
        for tool in [ledger, objectgraph]
        where !FileManager.default.isExecutableFile(atPath: tool.path) {
            throw CrashViolation("\(tool.path) is not built (swift build builds every product)")
        }
    }
}

/// One kill trial: its directory, its seeded randomness, and what the scenario prepared.
struct CampaignTrial {
    let number: Int
    let directory: String
    let tools: CampaignTools
    var random: SeededRandomNumberGenerator
    /// The store file the trial works on.
    var file: String = ""
    /// What the scenario remembered while preparing (expected rows, counts, …).
    var expected: [String: Int] = [:]
    var expectedRows: [String]? = nil
    /// The file's bytes before the command (a migration must leave them or finish).
    var originalBytes: Data? = nil

    func path(_ name: String) -> String { (directory as NSString).appendingPathComponent(name) }

    mutating func next(_ bound: Int) -> Int { Int(random.next() % UInt64(max(1, bound))) }

    /// Runs `tool` to the end; throws when it does not exit 0.
    func run(_ tool: URL, _ arguments: [String]) throws -> CampaignChild.Outcome {
        let outcome = try CampaignChild.run(tool, arguments, in: directory)
        guard outcome.status == 0 else {
            throw CrashViolation(
                "\(tool.lastPathComponent) \(arguments.joined(separator: " ")) exited "
                    + "\(outcome.status.map(String.init) ?? "killed"): \(outcome.err)")
        }
        return outcome
    }
}

/// What the campaign reads back from a store file, without application code.
enum CampaignFiles {
    /// Every row of the file as text (entity, key and canonical values), sorted; `nil` when
    /// there is no file.
    static func rows(_ path: String) throws -> [String]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let url = URL(fileURLWithPath: path)
        var options = StoreOptions()
        options.isReadOnly = true
        let store = try JSONLinesStore(
            model: try JSONLinesStore.metadata(at: url).model, url: url, options: options)
        defer { store.close() }
        let table = try store.snapshot()
        var lines: [String] = []
        for entity in store.model.entities where !entity.isAbstract {
            for row in table.rows(of: entity) where row.objectID.entity === entity {
                let values = entity.attributes.filter { !$0.isTransient }.map { attribute in
                    (try? row.values[attribute.index].attributeValue.canonicalJSON(
                        as: attribute.type)) ?? "?"
                }
                lines.append(
                    "\(entity.name) \(row.objectID.primaryKey) " + values.joined(separator: " "))
            }
        }
        return lines.sorted()
    }

    /// The values of attribute `key` of every `entity` row.
    static func values(_ path: String, entity: String, key: String) throws -> [AttributeValue] {
        let url = URL(fileURLWithPath: path)
        var options = StoreOptions()
        options.isReadOnly = true
        let model = try JSONLinesStore.metadata(at: url).model
        let store = try JSONLinesStore(model: model, url: url, options: options)
        defer { store.close() }
        guard let description = model[entityName: entity],
            let attribute = description.attributesByName[key]
        else { throw CrashViolation("\(path) has no \(entity).\(key)") }
        return try store.fetch(StoreFetchRequest(entity: description)).map {
            $0.values[attribute.index].attributeValue
        }
    }

    /// The ledger's transaction notes.
    static func notes(_ path: String) throws -> [String]? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return try values(path, entity: "Transaction", key: "note").compactMap {
            if case .string(let s) = $0 { s } else { nil }
        }.sorted()
    }

    /// Throws unless `objectgraph verify` would find nothing wrong.
    static func requireHealthy(_ path: String) throws {
        let report = JSONLinesStore.verify(at: URL(fileURLWithPath: path))
        guard report.isHealthy else {
            throw CrashViolation(
                "\(path) does not verify: "
                    + report.problems.map(\.description).joined(separator: "; "))
        }
    }
}
