import Foundation
import Testing

@testable import ObjectGraph

/// `EntityDescription.isKind(of:)`: an entity is of its own kind (answered by identity
/// before the walk up the superentities) and of each entity above it, never of one below it
/// or beside it.
@Suite("Entity kinds")
struct EntityKindTests {
    /// Animal ⟵ Dog ⟵ Puppy, and Cat beside Dog: the four entities, in that order.
    private static func entities() throws -> [EntityDescription] {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Animal", isAbstract: true,
                properties: [AttributeDescription(name: "name", type: .string)]),
            EntityDescription(name: "Dog", superentityName: "Animal"),
            EntityDescription(name: "Puppy", superentityName: "Dog"),
            EntityDescription(name: "Cat", superentityName: "Animal"),
        ])
        return try ["Animal", "Dog", "Puppy", "Cat"].map { try #require(model[entityName: $0]) }
    }

    @Test("an entity is of its own kind")
    func ownKind() throws {
        for entity in try Self.entities() { #expect(entity.isKind(of: entity)) }
    }

    @Test("an entity is of the kind of every entity above it")
    func superentityKinds() throws {
        let e = try Self.entities()
        let (animal, dog, puppy) = (e[0], e[1], e[2])
        #expect(dog.isKind(of: animal))
        #expect(puppy.isKind(of: dog))
        #expect(puppy.isKind(of: animal))
    }

    @Test("an entity is not of the kind of an entity below or beside it")
    func otherKinds() throws {
        let e = try Self.entities()
        let (animal, dog, puppy, cat) = (e[0], e[1], e[2], e[3])
        #expect(!animal.isKind(of: dog))
        #expect(!dog.isKind(of: puppy))
        #expect(!cat.isKind(of: dog))
        #expect(!puppy.isKind(of: cat))
    }
}
