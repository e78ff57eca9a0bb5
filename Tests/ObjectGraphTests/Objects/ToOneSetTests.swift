import Foundation
import Testing

@testable import ObjectGraph

/// Setting a to-one on a saved object: a set to what it holds (the same destination, or nil
/// on nil) changes nothing; a new destination is unlinked from its old inverse and linked to
/// its new one, the old destination kept as the committed value; a one-to-one's destination
/// taken from another source leaves that source with none.
@Suite struct ToOneSetTests {
    /// `Person.team` (inverse `Team.members`, to-many) and `Person.desk` (inverse
    /// `Desk.owner`, one-to-one).
    private static func model() throws -> ManagedObjectModel {
        let person: [PropertyDescription] = [
            AttributeDescription(name: "name", type: .string),
            RelationshipDescription(name: "team", destination: "Team", inverse: "members"),
            RelationshipDescription(name: "desk", destination: "Desk", inverse: "owner"),
        ]
        let members = RelationshipDescription(
            name: "members", destination: "Person", inverse: "team", isToMany: true)
        let owner = RelationshipDescription(name: "owner", destination: "Person", inverse: "desk")
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Person", properties: person),
            EntityDescription(name: "Team", properties: [members]),
            EntityDescription(name: "Desk", properties: [owner]),
        ])
    }

    private static func members(_ team: ManagedObject) -> Set<ObjectIdentifier> {
        let members = team.value(forKey: "members") as? Set<ManagedObject> ?? []
        return Set(members.map(ObjectIdentifier.init))
    }

    @Test(arguments: StoreKind.all)
    func settingAToOneToWhatItHoldsChangesNothing(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let person = context.insertNewObject(forEntityName: "Person")
            let team = context.insertNewObject(forEntityName: "Team")
            person.setValue(team, forKey: "team")
            try context.save()
            person.setValue(team, forKey: "team")
            person.setValue(nil, forKey: "desk")
            #expect(!person.hasChanges && !team.hasChanges)
            #expect(person.changedValues().isEmpty)
            #expect(!context.hasChanges)
            #expect(person.value(forKey: "team") as? ManagedObject === team)
            #expect(person.value(forKey: "desk") == nil)
            #expect(Self.members(team) == [ObjectIdentifier(person)])
        }
    }

    @Test(arguments: StoreKind.all)
    func aNewToOneDestinationMovesTheInversesAndKeepsTheOldAsCommitted(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let (alice, bob) = (
                context.insertNewObject(forEntityName: "Person"),
                context.insertNewObject(forEntityName: "Person")
            )
            let (red, blue) = (
                context.insertNewObject(forEntityName: "Team"),
                context.insertNewObject(forEntityName: "Team")
            )
            let desk = context.insertNewObject(forEntityName: "Desk")
            alice.setValue(red, forKey: "team")
            alice.setValue(desk, forKey: "desk")
            try context.save()
            alice.setValue(blue, forKey: "team")
            #expect(Self.members(red).isEmpty)
            #expect(Self.members(blue) == [ObjectIdentifier(alice)])
            #expect(alice.changedValues()["team"] as? ManagedObject === blue)
            #expect(alice.committedValues(forKeys: ["team"])["team"] as? ManagedObject === red)
            // The desk taken by bob leaves alice without one.
            bob.setValue(desk, forKey: "desk")
            #expect(alice.value(forKey: "desk") == nil)
            #expect(desk.value(forKey: "owner") as? ManagedObject === bob)
            #expect(bob.value(forKey: "desk") as? ManagedObject === desk)
            try context.save()
            #expect(try stack.store.row(for: alice.objectID)?["desk"] == .toOne(nil))
            #expect(try stack.store.row(for: bob.objectID)?["desk"] == .toOne(desk.objectID))
            #expect(try stack.store.row(for: alice.objectID)?["team"] == .toOne(blue.objectID))
        }
    }
}
