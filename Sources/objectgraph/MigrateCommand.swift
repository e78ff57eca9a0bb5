import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph migrate FILE --to MODEL [--version NAME] [--dry-run]`: migrate a store file to
/// another model version, explicitly.
enum MigrateCommand {
    struct Arguments: ParsableArguments {
        @Argument("FILE") var file: String
        @Option(
            "--to", "MODEL", help: "the model to migrate to (.xcdatamodeld, .xcdatamodel or .json)")
        var model: String?
        @Option(
            "--version", "NAME", help: "the version of a .xcdatamodeld (default its current one)")
        var version: String?
        @Flag("--dry-run", help: "print the mapping and row counts; change nothing") var dryRun:
            Bool
        @Flag("--json", help: "print JSON instead of text") var json: Bool
        @Flag("--quiet", help: "no progress bar on standard error") var quiet: Bool
    }

    static let command = ToolCommand(
        ["migrate"], summary: "Migrate a store file to another version of its model.",
        details: """
            Prints the inferred mapping: entities and properties added, removed, renamed and
            converted, with the rows each step touches. Without --dry-run it then migrates the
            file under the writer lock: one new file replaces the old one by a single rename, and
            the old one is kept as FILE.pre-migration. The store's UUID, metadata and transaction
            numbering are kept. Exit 1 (with Core Data's code) when the mapping cannot be
            inferred (134140), a required value is missing (134110) or a uniqueness constraint
            breaks (134111); the file is then unchanged. On a terminal, a progress bar on
            standard error counts the rows each step migrates, then the rows written (--quiet:
            none).
            """
    ) { (args: Arguments, _, output) in
        try StoreFileSupport.reportingCodes {
            guard let modelPath = args.model else {
                throw CLIError.usage("migrate needs --to MODEL")
            }
            let target = try ManagedObjectModel(
                contentsOf: URL(fileURLWithPath: modelPath), version: args.version)
            let url = URL(fileURLWithPath: args.file)
            let reader = try StoreFileSupport.openForReading(args.file, output: output)
            let lines: [String]
            do {
                defer { reader.close() }
                lines = try reader.describeMigration(to: target)
            }
            var migrated = false
            if !args.dryRun, !lines.allSatisfy({ $0.hasPrefix("no schema change") }) {
                var options = StoreOptions()
                let stored = try JSONLinesStore.metadata(at: url)
                options.modelVersions = [stored.model]
                options.tracksHistory = stored.tracksHistory  // a tracked file stays tracked
                // A bar on a terminal (not with --quiet): rows migrated per step, then written.
                let bar = output.progressBar("migrate", quiet: args.quiet)
                defer { bar?.finish() }
                options.migrationProgress = bar?.sendableUpdate
                let store = try JSONLinesStore(model: target, url: url, options: options)
                bar?.finish()
                defer { store.close() }
                for notice in store.recoveryNotices { output.err("notice: \(notice)") }
                migrated = true
            }
            if args.json {
                output.json(
                    .object([
                        ("file", .string(args.file)), ("migrated", .bool(migrated)),
                        ("steps", .array(lines.map { .string($0) })),
                    ]))
            } else {
                for line in lines { output.out(line) }
                output.out(
                    migrated
                        ? "\(args.file): migrated (the old file is \(args.file).pre-migration)"
                        : "\(args.file): not changed" + (args.dryRun ? " (dry run)" : ""))
            }
        }
    }
}
