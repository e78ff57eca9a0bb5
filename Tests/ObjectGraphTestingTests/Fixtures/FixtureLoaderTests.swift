import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct FixtureLoaderTests {
    private func coordinator(_ model: ManagedObjectModel) throws -> PersistentStoreCoordinator {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return coordinator
    }

    @Test func loadsTheExpenseFixtureWithEveryValueAndRelationship() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let coordinator = try coordinator(model)
        let refs = try FixtureLoader(model: model)
            .load(
                FixtureSource(contentsOf: ProjectFixtures.fixtureURL("expenses")), into: coordinator
            )
        try withContext(coordinator) { context in
            #expect(try fetchAll("Category", in: context).count == 3)
            #expect(try fetchAll("Transaction", in: context).count == 5)
            let train = try refs.object("train", in: context)
            #expect(train.value(forKey: "amount") as? Decimal == Decimal(string: "89.00"))
            // 07:02 at +01:00 is 06:02 UTC.
            #expect(
                train.value(forKey: "date") as? Date == Date(timeIntervalSince1970: 1_709_618_520))
            #expect(
                (train.value(forKey: "category") as? ManagedObject)?.value(forKey: "name")
                    as? String == "Travel")
            let receipt = try refs.object("train-ticket", in: context)
            #expect(receipt.value(forKey: "transaction") as? ManagedObject === train)
            #expect(
                receipt.value(forKey: "imageData") as? Data == Data(base64Encoded: "iVBORw0KGgo="))
            let lunch = try refs.object("lunch", in: context)
            #expect(
                lunch.value(forKey: "date") as? Date
                    == Date(timeIntervalSince1970: 1_709_381_700.25))
            #expect(lunch.value(forKey: "isCleared") as? Bool == true)
            let rent = try refs.object("rent", in: context)
            #expect(
                rent.value(forKey: "colorHex") as? String == "#FFFFFF",
                "an absent key keeps the model's default")
            let marchRent = try refs.object("march-rent", in: context)
            #expect(
                marchRent.value(forKey: "date") as? Date
                    == Date(timeIntervalSince1970: 1_709_251_200))
            let food = try refs.object("food", in: context)
            #expect(
                (food.value(forKey: "transactions") as? Set<ManagedObject>)?.count == 2,
                "inverses are set")
        }
    }

    @Test func primaryKeysFollowTheFixtureOrderEntityByEntity() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let refs = try FixtureLoader(model: model)
            .load(
                FixtureSource(contentsOf: ProjectFixtures.fixtureURL("expenses")),
                into: try coordinator(model))
        #expect(refs["food"]?.primaryKey == 1)
        #expect(refs["rent"]?.primaryKey == 3)
        #expect(refs["groceries"]?.primaryKey == 1)
        #expect(refs["coffee"]?.primaryKey == 5)
        #expect(refs.objectIDs(of: "Transaction").map(\.primaryKey) == [1, 2, 3, 4, 5])
        #expect(refs["nothing"] == nil)
        #expect(
            objectGraphError { _ = try refs.objectID("nothing") }?.reason
                == .unknownFixtureReference)
    }

    @Test func severalDocumentsLoadAsOneSetAndShareReferences() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let categories = FixtureSource(
            data: Data(
                #"{"Category": [{"_ref": "food", "id": "6F1C2B9E-3D4A-4E5F-8A7B-1C2D3E4F5A60", "name": "Food"}]}"#
                    .utf8),
            name: "categories.json")
        let transactions = FixtureSource(
            data: Data(
                #"{"Transaction": [{"_ref": "t", "id": "6F1C2B9E-3D4A-4E5F-8A7B-1C2D3E4F5A61", "amount": 2.5, "date": "2024-01-01", "category": "food"}]}"#
                    .utf8),
            name: "transactions.json")
        let coordinator = try coordinator(model)
        let refs = try FixtureLoader(model: model).load(
            [transactions, categories], into: coordinator)
        try withContext(coordinator) { context in
            let t = try refs.object("t", in: context)
            #expect(
                t.value(forKey: "amount") as? Decimal == Decimal(string: "2.5"),
                "a decimal may be a JSON number")
            #expect((t.value(forKey: "category") as? ManagedObject)?.objectID == refs["food"])
        }
    }

    @Test func aTypedLookupOfTheWrongClassThrows() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let coordinator = try coordinator(model)
        let refs = try FixtureLoader(model: model)
            .load(
                FixtureSource(contentsOf: ProjectFixtures.fixtureURL("expenses")), into: coordinator
            )
        final class Other: ManagedObject {}
        withContext(coordinator) { context in
            #expect(
                objectGraphError { _ = try refs.object("food", as: Other.self, in: context) }?
                    .reason
                    == .unknownFixtureReference)
        }
    }
}
