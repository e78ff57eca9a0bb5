import Foundation
import ObjectGraph
import Testing

/// `mutableSetValue(forKey:)` and `mutableOrderedSetValue(forKey:)`: key-value coding's
/// mutable proxies, which ported Core Data code (and Core Data's generated `addToX(_:)`
/// accessors) use to change a to-many; changes write through and keep the inverse in step.
@Suite struct MutableRelationshipViewTests {
    /// Book ⟷ Tag (many to many, unordered); Playlist ⟷ Song (ordered to-many, to-one back).
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: StoreConfigurationTests.bookAndTag() + ToManyRemovalTests.playlistAndSong())
    }

    private static func context() throws -> ManagedObjectContext {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: try model())
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    private static func make(
        _ entity: String, _ key: String, _ value: Any, _ context: ManagedObjectContext
    )
        -> ManagedObject
    {
        let object = context.insertNewObject(forEntityName: entity)
        object.setValue(value, forKey: key)
        return object
    }

    private static func numbers(_ songs: [ManagedObject]) -> [Int64] {
        songs.map { $0.value(forKey: "number") as? Int64 ?? -1 }
    }

    @Test func aMutableSetAddsAndRemovesMembersAndTheirInverses() throws {
        let context = try Self.context()
        try context.performAndWait {
            let book = Self.make("Book", "title", "Dune", context)
            let (sf, classic, old) = (
                Self.make("Tag", "name", "sf", context),
                Self.make("Tag", "name", "classic", context),
                Self.make("Tag", "name", "old", context)
            )
            let tags = book.mutableSetValue(forKey: "tags")
            tags.add(sf)
            tags.add(sf)
            tags.addObjects(from: [classic, old])
            #expect(tags.count == 3)
            #expect(tags.contains(classic) && !tags.contains("classic"))
            #expect((classic.value(forKey: "books") as? Set<ManagedObject>) == [book])
            tags.remove(old)
            // Removing what is not a member changes nothing, whatever it is (review finding:
            // an object of another entity went through the inverse and trapped).
            let song = Self.make("Song", "number", Int64(9), context)
            tags.remove(song)
            tags.remove("sf")
            tags.remove(old)
            #expect(tags.set == [sf, classic])
            #expect((old.value(forKey: "books") as? Set<ManagedObject>) == [])
            // The view is live: a change made another way shows through it.
            sf.mutableSetValue(forKey: "books").remove(book)
            #expect(Set(tags) == [classic])
            try context.save()
            #expect((book.value(forKey: "tags") as? Set<ManagedObject>) == [classic])
            tags.removeAllObjects()
            #expect(tags.count == 0)
            #expect((classic.value(forKey: "books") as? Set<ManagedObject>) == [])
            #expect(book.changedValues().keys.contains("tags"))
        }
    }

    @Test func aMutableOrderedSetKeepsOrderThroughASave() throws {
        let context = try Self.context()
        let id = try context.performAndWait {
            let playlist = Self.make("Playlist", "name", "Road", context)
            let songs = playlist.mutableOrderedSetValue(forKey: "songs")
            let (a, b, c, d) = (
                Self.make("Song", "number", Int64(1), context),
                Self.make("Song", "number", Int64(2), context),
                Self.make("Song", "number", Int64(3), context),
                Self.make("Song", "number", Int64(4), context)
            )
            songs.add(a)
            songs.add(c)
            songs.insert(b, at: 1)
            songs.insert(a, at: 2)
            songs.addObjects(from: [d])
            #expect(Self.numbers(songs.array) == [1, 2, 3, 4])
            #expect(songs.index(of: c) == 2 && songs.index(of: "C") == NSNotFound)
            #expect(songs.object(at: 3) === d && songs[0] === a)
            #expect(b.value(forKey: "playlist") as? ManagedObject === playlist)
            songs.removeObject(at: 0)
            songs.remove(d)
            #expect(Self.numbers(Array(songs)) == [2, 3])
            #expect(a.value(forKey: "playlist") == nil)
            songs.insert(d, at: 0)
            try context.save()
            return playlist.objectID
        }
        let reader = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: context.persistentStoreCoordinator!)
        let numbers = try reader.performAndWait {
            let playlist = try reader.existingObject(with: id)
            return Self.numbers(playlist.mutableOrderedSetValue(forKey: "songs").array)
        }
        #expect(numbers == [4, 2, 3])
    }
}
