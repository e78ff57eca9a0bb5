import Foundation
import ObjectGraph
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `objectgraph compact` and `repair` replace the file: the replacement (and repair's sidecar)
/// keeps the original's permission bits, and its owner where the process may set it.
@Suite(.enabled(if: ToolBinary.objectgraph != nil, ToolBinary.missingReason))
struct StoreFileAccessToolTests {
    let directory: URL
    let file: URL

    init() throws {
        directory = ToolBinary.scratchRoot.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        file = directory.appendingPathComponent("notes.jsonl")
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note", properties: [AttributeDescription(name: "title", type: .string)])
        ])
        let store = try JSONLinesStore(model: model, url: file)
        let note = model[entityName: "Note"]!
        for pk in Int64(1)...3 {
            try store.commit(
                StoreChangeSet(
                    inserted: [
                        StoreRow(
                            objectID: ManagedObjectID(
                                entity: note, storeIdentifier: store.identifier, primaryKey: pk),
                            version: 1, values: [.attribute(.string("n\(pk)"))])
                    ], timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
        }
        store.close()
    }

    private func access(_ path: String) -> (mode: UInt32, user: UInt32, group: UInt32) {
        var s = stat()
        #expect(stat(path, &s) == 0)
        return (UInt32(s.st_mode) & 0o7777, UInt32(s.st_uid), UInt32(s.st_gid))
    }

    /// Mode 0600 and, when this process may (root), another owner and group.
    private func restrict() -> (mode: UInt32, user: UInt32, group: UInt32) {
        #expect(chmod(file.path, 0o600) == 0)
        _ = chown(file.path, 4242, 4343)
        return access(file.path)
    }

    @Test func compactKeepsTheModeAndOwner() throws {
        let before = restrict()
        let result = try ToolBinary.run(ToolBinary.objectgraph!, ["compact", file.path])
        #expect(result.status == 0)
        #expect(access(file.path) == before && before.mode == 0o600)
    }

    @Test func repairKeepsTheModeAndOwnerOfTheFileAndTheSidecar() throws {
        var bytes = Array(try Data(contentsOf: file))
        bytes[bytes.count - 5] ^= 1  // the last line's checksum
        try Data(bytes).write(to: file)
        let before = restrict()
        let result = try ToolBinary.run(ToolBinary.objectgraph!, ["repair", "--json", file.path])
        let report = try JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any]
        #expect(result.status == 0 && report?["repaired"] as? Bool == true)
        let sidecars = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.contains(".corrupt-") }
        #expect(sidecars.count == 1)
        #expect(access(file.path) == before)
        for name in sidecars {
            #expect(access(directory.appendingPathComponent(name).path) == before)
        }
    }
}
