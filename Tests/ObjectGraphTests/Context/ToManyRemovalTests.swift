import Foundation
import ObjectGraph
import Testing

/// Removing members from a large to-many one at a time (nullifying deleted objects does
/// this) is O(1) each and keeps the order of the members that stay (issue 25: a linear search
/// and a shift per removal made deleting half of 100,000 objects quadratic per category).
@Suite struct ToManyRemovalTests {
    /// Playlist ⟷ Song: an ordered to-many, and a to-one back; songs have a `number`.
    static func playlistAndSong() -> [EntityDescription] {
        [
            EntityDescription(
                name: "Playlist",
                properties: [
                    AttributeDescription(name: "name", type: .string),
                    RelationshipDescription(
                        name: "songs", destination: "Song", inverse: "playlist", isToMany: true,
                        isOrdered: true, deleteRule: .nullify),
                ]),
            EntityDescription(
                name: "Song",
                properties: [
                    AttributeDescription(name: "number", type: .integer64),
                    RelationshipDescription(
                        name: "playlist", destination: "Playlist", inverse: "songs",
                        deleteRule: .nullify),
                ]),
        ]
    }

    private func context() throws -> ManagedObjectContext {
        let model = try ManagedObjectModel(entities: Self.playlistAndSong())
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(InMemoryStore(model: model))
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    private func numbers(_ playlist: ManagedObject) -> [Int64] {
        (playlist.value(forKey: "songs") as? [ManagedObject] ?? []).map {
            $0.value(forKey: "number") as? Int64 ?? -1
        }
    }

    @Test func deletingEveryOtherMemberKeepsTheOthersInOrderThroughSaveAndRefetch() throws {
        let context = try context()
        try context.performAndWait {
            let playlist = ManagedObject(
                entity: context.persistentStoreCoordinator!.managedObjectModel.entitiesByName[
                    "Playlist"]!, insertInto: context)
            let songEntity = context.persistentStoreCoordinator!.managedObjectModel
                .entitiesByName["Song"]!
            let songs = (0..<200).map { i in
                let song = ManagedObject(entity: songEntity, insertInto: context)
                song.setValue(Int64(i), forKey: "number")
                song.setValue(playlist, forKey: "playlist")
                return song
            }
            try context.save()
            // Remove from the front, the back and the middle: the holes left behind are
            // squeezed out once they are half of the positions.
            for (i, song) in songs.enumerated() where i % 2 == 0 || i >= 190 {
                context.delete(song)
            }
            context.processPendingChanges()
            let kept = (0..<190).filter { $0 % 2 == 1 }.map(Int64.init)
            #expect(numbers(playlist) == kept)
            // A member taken out and put back goes to the end, once.
            songs[1].setValue(nil, forKey: "playlist")
            songs[1].setValue(playlist, forKey: "playlist")
            #expect(numbers(playlist) == Array(kept.dropFirst()) + [1])
            try context.save()
            context.reset()
            let fetched = try context.fetch(FetchRequest<ManagedObject>(entityName: "Playlist"))
            #expect(numbers(try #require(fetched.first)) == Array(kept.dropFirst()) + [1])
        }
    }
}
