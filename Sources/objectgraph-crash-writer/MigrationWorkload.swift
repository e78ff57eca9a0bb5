import Foundation
import ObjectGraph
import ObjectGraphTesting

/// The migration the kill campaign interrupts: three versions of a contacts model and a
/// staged chain through them, one lightweight stage and one custom stage.
///
/// - v1: `Contact { fullName (required), age: int16, notes ↔ Note }`, `Note { text, contact }`.
/// - v2 (lightweight from v1): `age` widened to int64, an optional `email`, `Note.text`
///   renamed `body`.
/// - v3 (custom from v2): `firstName` and `lastName`, filled from `fullName` by the stage's
///   did-migrate handler.
enum MigrationWorkload {
    static func model(_ version: Int) throws -> ManagedObjectModel {
        var contact: [PropertyDescription] = [
            AttributeDescription(name: "fullName", type: .string, isOptional: false),
            AttributeDescription(name: "age", type: version == 1 ? .integer16 : .integer64),
            RelationshipDescription(
                name: "notes", destination: "Note", inverse: "contact", isToMany: true),
        ]
        if version >= 2 { contact.append(AttributeDescription(name: "email", type: .string)) }
        if version >= 3 {
            contact.append(AttributeDescription(name: "firstName", type: .string))
            contact.append(AttributeDescription(name: "lastName", type: .string))
        }
        let text =
            version == 1
            ? AttributeDescription(name: "text", type: .string)
            : AttributeDescription(name: "body", type: .string, renamingIdentifier: "text")
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Contact", properties: contact),
            EntityDescription(
                name: "Note",
                properties: [
                    text,
                    RelationshipDescription(
                        name: "contact", destination: "Contact", inverse: "notes"),
                ]),
        ])
    }

    /// Writes a version-1 file of `contacts` contacts with one to three notes each, in
    /// several saves (so the file has transaction lines to carry over).
    static func seed(_ path: String, contacts: Int, random: inout SeededRandomNumberGenerator)
        throws
    {
        let v1 = try model(1)
        let store = try JSONLinesStore(model: v1, url: URL(fileURLWithPath: path))
        defer { store.close() }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: v1)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            for i in 0..<contacts {
                let contact = context.insertNewObject(forEntityName: "Contact")
                contact.setValue("Given\(i) Family\(random.next() % 97)", forKey: "fullName")
                contact.setValue(Int(18 + random.next() % 80), forKey: "age")
                for n in 0..<(1 + Int(random.next() % 3)) {
                    let note = context.insertNewObject(forEntityName: "Note")
                    note.setValue("note \(n) of \(i)", forKey: "text")
                    note.setValue(contact, forKey: "contact")
                }
                if i % 500 == 499 { try context.save() }
            }
            try context.save()
        }
    }

    /// The staged chain v1 → v2 (lightweight) → v3 (custom: splits `fullName`).
    static func manager() throws -> StagedMigrationManager {
        let (v1, v2, v3) = (try model(1), try model(2), try model(3))
        func reference(_ m: ManagedObjectModel) -> ManagedObjectModelReference {
            ManagedObjectModelReference(model: m, versionChecksum: m.versionChecksum)
        }
        let split = CustomMigrationStage(migratingFrom: reference(v2), to: reference(v3))
        split.didMigrateHandler = { manager, _ in
            guard let container = manager.container else { return }
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for contact in try context.fetch(FetchRequest<ManagedObject>(entityName: "Contact"))
                {
                    let parts = (contact.value(forKey: "fullName") as? String ?? "")
                        .split(separator: " ", maxSplits: 1).map(String.init)
                    contact.setValue(parts.first, forKey: "firstName")
                    contact.setValue(parts.count > 1 ? parts[1] : nil, forKey: "lastName")
                }
                try context.save()
            }
        }
        return StagedMigrationManager([
            LightweightMigrationStage(models: [reference(v1), reference(v2)]), split,
        ])
    }

    /// Opens `path` with version 3 through the staged chain (migrating it when it is older)
    /// and closes it.
    static func migrateStaged(_ path: String) throws {
        var options = StoreOptions()
        options.stagedMigrationManager = try manager()
        let store = try JSONLinesStore(
            model: try model(3), url: URL(fileURLWithPath: path), options: options)
        store.close()
    }

    /// Opens `path` with version 2, declaring version 1 its predecessor (what
    /// `objectgraph migrate FILE --to v2.json` does), and closes it.
    static func migrateLightweight(_ path: String) throws {
        var options = StoreOptions()
        options.modelVersions = [try model(1)]
        let store = try JSONLinesStore(
            model: try model(2), url: URL(fileURLWithPath: path), options: options)
        store.close()
    }
}
