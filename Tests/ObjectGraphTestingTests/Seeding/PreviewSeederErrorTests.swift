import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct PreviewSeederErrorTests {
    /// Runs the seeder on a fresh RAM store; returns its error and how many rows were saved.
    private func failure(
        _ model: ManagedObjectModel, _ counts: [String: Int], defaultCount: Int = 0
    )
        throws -> (ObjectGraphError?, Int)
    {
        let coordinator = try DeterministicEnvironment().makeCoordinator(model: model)
        let error = objectGraphError {
            try PreviewSeeder(model: model, seed: 1).generate(
                counts: counts, defaultCount: defaultCount, into: coordinator)
        }
        let store = try #require(coordinator.persistentStores.first as? InMemoryStore)
        return (error, store.snapshot().totalRowCount)
    }

    private func model(_ entities: [EntityDescription]) throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: entities)
    }

    @Test func countsNameConcreteEntitiesOnly() throws {
        let library = try ProjectFixtures.model("Library")
        let (unknown, _) = try failure(library, ["Bok": 2])
        #expect(
            unknown?.message == "PreviewSeeder: the model has no entity Bok (did you mean Book?)")
        let (abstract, _) = try failure(library, ["Item": 2])
        #expect(
            abstract?.message
                == "PreviewSeeder: Item is abstract and is never instantiated; give counts for its subentities (Book, Film)"
        )
        let (negative, _) = try failure(library, ["Book": -1])
        #expect(
            negative?.message == "PreviewSeeder: the count for Book is -1; counts must be 0 or more"
        )
    }

    @Test func anUnsupportedPatternNamesTheAttributeAndThePart() throws {
        let m = try model([
            EntityDescription(
                name: "Code",
                properties: [
                    AttributeDescription(
                        name: "value", type: .string, isOptional: false, pattern: #"^(?=x)\w+$"#)
                ])
        ])
        let (error, saved) = try failure(m, ["Code": 1])
        #expect(error?.reason == .unsupportedSeedPattern)
        #expect(error?.entityName == "Code" && error?.key == "value")
        #expect(
            error?.message.hasPrefix(
                #"PreviewSeeder: Code.value: pattern ^(?=x)\w+$ uses a lookahead ('(?=' at character 2)"#
            ) == true)
        #expect(saved == 0)
    }

    @Test func aRequiredRelationshipWithNoPartnersNamesTheRule() throws {
        let library = try ProjectFixtures.model("Library")
        let (error, saved) = try failure(library, ["Book": 3, "Author": 2])
        #expect(
            error?.message
                == "PreviewSeeder: cannot satisfy Item.shelf (to-one Shelf, required): Book #1 needs at least 1 "
                + "Shelf object but no Shelf objects are seeded")
        #expect(error?.key == "shelf")
        #expect(saved == 0, "nothing is saved")
    }

    @Test func partnersWithoutRoomAreReported() throws {
        let library = try ProjectFixtures.model("Library")
        let (error, _) = try failure(library, ["Film": 51, "Shelf": 1])
        #expect(
            error?.message.hasPrefix(
                "PreviewSeeder: cannot satisfy Item.shelf (to-one Shelf, required): Film #") == true
        )
        #expect(
            error?.message.hasSuffix(
                "needs at least 1 Shelf object but the 1 seeded Shelf objects have no room left "
                    + "(Shelf.items: to-many Item, maxCount 50, optional)") == true)
        let (tooFew, _) = try failure(library, ["Book": 1, "Author": 0, "Shelf": 1])
        #expect(
            tooFew?.message
                == "PreviewSeeder: cannot satisfy Book.authors (to-many Author, minCount 1, maxCount 3, required): "
                + "Book #1 needs at least 1 Author object but no Author objects are seeded")
    }

    @Test func aConstraintWithTooFewDistinctValuesNamesTheConstraint() throws {
        let m = try model([
            EntityDescription(
                name: "Flag",
                properties: [
                    AttributeDescription(name: "isOn", type: .boolean, isOptional: false)
                ], uniquenessConstraints: [["isOn"]])
        ])
        let (error, saved) = try failure(m, ["Flag": 3])
        #expect(
            error?.message
                == "PreviewSeeder: cannot satisfy uniqueness constraint Flag(isOn): Flag #3 still repeats the values "
                + "of another object after 60 attempts (the attributes' rules leave too few distinct values)"
        )
        #expect(saved == 0)
        // Two booleans allow two objects.
        let (fine, two) = try failure(m, ["Flag": 2])
        #expect(fine == nil && two == 2)
    }

    @Test func limitsNoValueFitsAreNamed() throws {
        let m = try model([
            EntityDescription(
                name: "Word",
                properties: [
                    AttributeDescription(
                        name: "text", type: .string, isOptional: false, minLength: 3,
                        pattern: "^ab$")
                ])
        ])
        let (error, _) = try failure(m, ["Word": 1])
        #expect(
            error?.message.hasPrefix(
                "PreviewSeeder: cannot generate Word.text: 200 strings generated from the pattern ^ab$ "
                    + "all missed it or the length limits (minLength 3, maxLength none)") == true)
    }

    @Test func aRequiredSelfRelationshipOfOneObjectPointsAtItself() throws {
        let m = try model([
            EntityDescription(
                name: "Node",
                properties: [
                    RelationshipDescription(name: "next", destination: "Node", isOptional: false)
                ])
        ])
        let coordinator = try DeterministicEnvironment().makeCoordinator(model: m)
        try PreviewSeeder(model: m).generate(counts: ["Node": 1], into: coordinator)
        try withContext(coordinator) { context in
            let node = try #require(try fetchAll("Node", in: context).first)
            #expect(node.value(forKey: "next") as? ManagedObject === node)
        }
    }

    @Test func aSymmetricRelationshipNeedsEnoughOtherObjects() throws {
        let m = try model([
            EntityDescription(
                name: "Person",
                properties: [
                    RelationshipDescription(
                        name: "friends", destination: "Person", inverse: "friends", isToMany: true,
                        isOptional: false, minCount: 2)
                ])
        ])
        let (error, _) = try failure(m, ["Person": 2])
        #expect(
            error?.message
                == "PreviewSeeder: cannot satisfy Person.friends (to-many Person, minCount 2, required): "
                + "Person #1 needs at least 2 Person objects but only 1 other Person object is seeded"
        )
        let (fine, saved) = try failure(m, ["Person": 3])
        #expect(fine == nil && saved == 3)
    }

    @Test func aToOneUniqueAloneGetsItsOwnDestination() throws {
        let m = try model([
            EntityDescription(
                name: "Desk",
                properties: [
                    RelationshipDescription(
                        name: "owner", destination: "Employee", isOptional: false)
                ], uniquenessConstraints: [["owner"]]),
            EntityDescription(
                name: "Employee",
                properties: [
                    AttributeDescription(name: "name", type: .string, isOptional: false)
                ]),
        ])
        let coordinator = try DeterministicEnvironment().makeCoordinator(model: m)
        try PreviewSeeder(model: m, seed: 4).generate(
            counts: ["Desk": 5, "Employee": 5], into: coordinator)
        try withContext(coordinator) { context in
            let owners = try fetchAll("Desk", in: context).compactMap {
                ($0.value(forKey: "owner") as? ManagedObject).map(ObjectIdentifier.init)
            }
            #expect(owners.count == 5 && Set(owners).count == 5)
        }
        let (error, _) = try failure(m, ["Desk": 6, "Employee": 5])
        #expect(error?.message.contains("have no room left") == true)
    }
}
