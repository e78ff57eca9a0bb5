import CLISupport
import Foundation
import ObjectGraph

/// `objectgraph copy SRC DEST`: copy a store file, consistently even while a writer saves to it.
enum CopyCommand {
    struct Arguments: ParsableArguments {
        @Argument("SRC") var source: String
        @Argument("DEST") var destination: String
        @Flag("--replace", help: "replace DEST when it exists (it must not be open for writing)")
        var replace: Bool
    }

    static let command = ToolCommand(
        ["copy"], summary: "Copy a store file (consistent while an application writes to it).",
        details: """
            Reads SRC as a reader does: the copy holds every save SRC had completed when it was \
            read. DEST is written complete under its writer lock and renamed into place; an \
            existing DEST is refused unless --replace is given.
            """
    ) { (args: Arguments, _, output) in
        try StoreFileSupport.reportingCodes {
            let source = URL(fileURLWithPath: args.source)
            let destination = URL(fileURLWithPath: args.destination)
            let model = try JSONLinesStore.metadata(at: source).model
            let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
            if args.replace {
                try coordinator.replacePersistentStore(
                    at: destination, withPersistentStoreFrom: source,
                    type: JSONLinesStore.storeType)
            } else {
                var readOnly = StoreOptions()
                readOnly.isReadOnly = true
                let reader = try JSONLinesStore(model: model, url: source, options: readOnly)
                defer { reader.close() }
                try coordinator.addPersistentStore(reader)
                let copy = try coordinator.migratePersistentStore(
                    reader, to: destination, type: JSONLinesStore.storeType)
                (copy as? JSONLinesStore)?.close()
            }
            let copied = try JSONLinesStore.metadata(at: destination)
            output.out(
                "\(args.source) → \(args.destination): "
                    + "\(StoreFileSupport.grouped(copied.snapshotRowCount)) rows")
        }
    }
}
