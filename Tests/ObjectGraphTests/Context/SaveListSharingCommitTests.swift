import Foundation
import Testing

@testable import ObjectGraph

/// While a save validates and commits its objects, the list its objects-did-change announced
/// for their kind is the save's own list (one storage, the pending list's when the save is of
/// one kind), not a second list of the same references: `save()` hands the announced lists the
/// save's (`AnnouncedSets.share(_:)`). Each object records what it sees when it is validated.
@Suite struct SaveListSharingCommitTests {
    /// An object that records, when validated for its save, whether the announced list of its
    /// kind shares its storage with its context's pending list.
    final class Probe: ManagedObject {
        @Attribute var n: Int64
        /// What the last validation saw: `nil` when nothing was announced for its kind.
        var shared: Bool?

        override func validateForInsert() throws {
            record(managedObjectContext?.announcedDuringSave?.inserted?.objects)
            try super.validateForInsert()
        }

        override func validateForUpdate() throws {
            record(managedObjectContext?.announcedDuringSave?.updated?.objects)
            try super.validateForUpdate()
        }

        private func record(_ announced: [ManagedObject]?) {
            guard let announced, let pending = managedObjectContext?.pending.objects else {
                shared = nil
                return
            }
            shared = announced.withUnsafeBufferPointer { a in
                pending.withUnsafeBufferPointer { p in
                    a.baseAddress == p.baseAddress && a.count == p.count
                }
            }
        }
    }

    /// The model: one entity, `Probe`, made as ``Probe``.
    static let model = try! ManagedObjectModel(entities: [
        EntityDescription(
            name: "Probe", managedObjectClass: Probe.self,
            properties: [AttributeDescription(name: "n", type: .integer64)])
    ])

    @Test(arguments: StoreKind.all)
    func theAnnouncedListIsTheSavesOwnWhileItsObjectsAreValidated(_ kind: StoreKind) throws {
        let context = try Stack(Self.model, on: kind).context()
        try context.performAndWait {
            let probes = (0..<3).map { i in
                let probe = Probe(context: context)
                probe.n = Int64(i)
                return probe
            }
            try context.save()
            #expect(probes.map(\.shared) == [true, true, true])
            for probe in probes { probe.n += 10 }
            try context.save()
            #expect(probes.map(\.shared) == [true, true, true])
            #expect(probes.map(\.n) == [10, 11, 12])
        }
    }
}
