import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

@Suite struct PreviewSeederTests {
    /// Seeds `model` into a fresh deterministic RAM store and returns the store as a fixture document.
    private func seededDocument(
        _ model: ManagedObjectModel, seed: UInt64, counts: [String: Int] = [:],
        defaultCount: Int = 12
    ) throws -> (Data, PersistentStoreCoordinator) {
        let coordinator = try DeterministicEnvironment(seed: seed).makeCoordinator(model: model)
        try PreviewSeeder(model: model, seed: seed).generate(
            counts: counts, defaultCount: defaultCount, into: coordinator)
        return (try FixtureWriter().fixtureData(from: coordinator), coordinator)
    }

    @Test(arguments: ProjectFixtures.modelFiles)
    func seedsEveryProjectModelValidlyAndRepeatably(_ name: String) throws {
        let model = try ManagedObjectModel(
            contentsOf: ProjectFixtures.root.appendingPathComponent(name))
        let (first, coordinator) = try seededDocument(model, seed: 7)
        let (again, _) = try seededDocument(model, seed: 7)
        let (other, _) = try seededDocument(model, seed: 8)
        #expect(first == again, "the same seed gives the same bytes")
        #expect(first != other, "another seed gives other data")
        try withContext(coordinator) { context in
            for entity in model.entities {
                let request = FetchRequest<ManagedObject>(entityName: entity.name)
                request.includesSubentities = false
                let count = try context.count(for: request)
                #expect(count == (entity.isAbstract ? 0 : 12), "\(entity.name)")
            }
        }
        // What was seeded loads back as a fixture: every rule holds.
        _ = try FixtureProvider(model: model, fixtureData: first, file: "\(name)-seeded.json")
    }

    @Test func theProjectFixturesHoldEveryModelTheTestsNeed() {
        #expect(ProjectFixtures.modelFiles.contains("ExpenseTracker.xcdatamodeld"))
        #expect(ProjectFixtures.modelFiles.contains("models/Library.json"))
        #expect(ProjectFixtures.modelFiles.count >= 4)
    }

    /// The checked-in Fixtures/fixtures/expenses-seed-7.json pins the seeder's output across
    /// processes and releases: regenerate it deliberately when the generator changes.
    @Test func seedSevenGivesTheCheckedInBytes() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let (data, _) = try seededDocument(
            model, seed: 7, counts: ["Category": 4, "Transaction": 8, "Receipt": 2], defaultCount: 0
        )
        let golden = try Data(contentsOf: ProjectFixtures.fixtureURL("expenses-seed-7"))
        #expect(data == golden)
    }

    @Test func expenseValuesArePlausibleAndWithinTheRules() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let (_, coordinator) = try seededDocument(
            model, seed: 1, counts: ["Category": 8, "Transaction": 300, "Receipt": 40])
        let reference = DeterministicEnvironment.defaultStartDate
        try withContext(coordinator) { context in
            let categories = try fetchAll("Category", in: context)
            let names = categories.compactMap { $0.value(forKey: "name") as? String }
            #expect(Set(names).count == 8, "names are unique")
            #expect(names.allSatisfy { !$0.isEmpty && $0.count <= 50 })
            #expect(
                categories.allSatisfy {
                    ($0.value(forKey: "colorHex") as? String)?.wholeMatch(of: /#[0-9A-Fa-f]{6}/)
                        != nil
                })
            let transactions = try fetchAll("Transaction", in: context)
            for t in transactions {
                let amount = try #require(t.value(forKey: "amount") as? Decimal)
                #expect(amount >= Decimal(string: "0.01")! && amount <= 500)
                #expect((amount * 100) == (amount * 100).rounded0, "two decimals: \(amount)")
                let date = try #require(t.value(forKey: "date") as? Date)
                #expect(date <= reference && date >= reference.addingTimeInterval(-365 * 86_400))
            }
            let notes = transactions.map { $0.value(forKey: "note") as? String }
            #expect(
                notes.contains(nil) && notes.contains { $0 != nil },
                "optional values are sometimes nil")
            let receipts = try fetchAll("Receipt", in: context)
            let owners = receipts.compactMap {
                ($0.value(forKey: "transaction") as? ManagedObject).map(ObjectIdentifier.init)
            }
            #expect(
                owners.count == 40 && Set(owners).count == 40,
                "one-to-one: every receipt has its own transaction")
        }
    }

    @Test func libraryRelationshipsKeepTheirCountsAndInverses() throws {
        let model = try ProjectFixtures.model("Library")
        let (_, coordinator) = try seededDocument(
            model, seed: 3,
            counts: [
                "Book": 40, "Film": 15, "Author": 10, "Tag": 12,
                "Shelf": 2, "Member": 9, "LibraryCard": 6,
            ])
        try withContext(coordinator) { context in
            let items = try context.count(for: FetchRequest<ManagedObject>(entityName: "Item"))
            #expect(items == 55)
            for book in try fetchAll("Book", in: context) {
                let authors = try #require(book.value(forKey: "authors") as? [ManagedObject])
                #expect((1...3).contains(authors.count))
                for author in authors {
                    #expect(
                        (author.value(forKey: "books") as? Set<ManagedObject>)?.contains(book)
                            == true)
                }
                #expect(((book.value(forKey: "tags") as? Set<ManagedObject>)?.count ?? 0) <= 4)
                #expect(book.value(forKey: "shelf") is ManagedObject)
                let code = try #require(book.value(forKey: "code") as? String)
                #expect(code.wholeMatch(of: /[A-Z]{3}-\d{4}/) != nil)
            }
            for shelf in try fetchAll("Shelf", in: context) {
                #expect(((shelf.value(forKey: "items") as? [ManagedObject])?.count ?? 0) <= 50)
            }
            for member in try fetchAll("Member", in: context) {
                let friends = member.value(forKey: "friends") as? Set<ManagedObject> ?? []
                #expect(friends.count <= 5 && !friends.contains(member))
                for friend in friends {
                    #expect(
                        (friend.value(forKey: "friends") as? Set<ManagedObject>)?.contains(member)
                            == true)
                }
            }
            let cards = try fetchAll("LibraryCard", in: context)
            let holders = cards.compactMap {
                ($0.value(forKey: "member") as? ManagedObject).map(ObjectIdentifier.init)
            }
            #expect(holders.count == 6 && Set(holders).count == 6)
            for author in try fetchAll("Author", in: context) {
                let email = try #require(author.value(forKey: "email") as? String)
                #expect(
                    email.wholeMatch(of: /[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/) != nil, "\(email)"
                )
            }
        }
    }

    @Test func everyAttributeTypeIsGeneratedWithinItsLimits() throws {
        let model = try ProjectFixtures.model("AllTypes")
        let (_, coordinator) = try seededDocument(model, seed: 5, counts: ["Sample": 60])
        try withContext(coordinator) { context in
            let samples = try fetchAll("Sample", in: context)
            #expect(Set(samples.map { $0.attributeValue(forKey: "medium") }).count == 60)
            for s in samples {
                let ratio = try #require(s.value(forKey: "ratio") as? Decimal)
                #expect(ratio >= Decimal(string: "0.001")! && ratio <= Decimal(string: "0.002")!)
                if let exactly = s.value(forKey: "exactly") as? Float {
                    #expect(exactly == Float(0.1))
                }
                let instant = try #require(s.value(forKey: "instant") as? Date)
                #expect(
                    instant.timeIntervalSince1970 >= 1_704_067_200.25
                        && instant.timeIntervalSince1970 <= 1_704_067_200.5)
                if let essay = s.value(forKey: "essay") as? String { #expect(essay.count >= 200) }
                let nickname = try #require(s.value(forKey: "nickname") as? String)
                #expect((3...12).contains(nickname.count))
                let sku = try #require(s.value(forKey: "sku") as? String)
                #expect(
                    sku.wholeMatch(of: /(?:[A-F0-9]{2}\.){2}[a-z]+_[^\s,]{3}\w?/) != nil, "\(sku)")
                if let large = s.value(forKey: "large") as? Int64 {
                    #expect(large >= 9_000_000_000_000_000_000)
                }
                #expect((s.value(forKey: "homepageURL") as? URL)?.scheme == "https")
                #expect(s.value(forKey: "scratch") == nil, "transient attributes are left alone")
            }
        }
    }

    @Test func seedingTwiceIntoOneStoreAvoidsStoredUniqueValues() throws {
        let model = try ProjectFixtures.model("ExpenseTracker")
        let coordinator = try DeterministicEnvironment(seed: 2).makeCoordinator(model: model)
        let seeder = PreviewSeeder(model: model, seed: 2)
        try seeder.generate(counts: ["Category": 10], into: coordinator)
        let second = try seeder.generate(counts: ["Category": 10], into: coordinator)
        #expect(second.counts == ["Category": 10])
        #expect(second.totalCount == 10)
        try withContext(coordinator) { context in
            let names = try fetchAll("Category", in: context).compactMap {
                $0.value(forKey: "name") as? String
            }
            #expect(names.count == 20 && Set(names).count == 20)
        }
    }

    @Test func makeContainerGivesIdenticalPreviewStores() throws {
        let model = try ProjectFixtures.model("Library")
        let seeder = PreviewSeeder(model: model, seed: 11)
        let a = try seeder.makeContainer(objectsPerEntity: 6)
        let b = try seeder.makeContainer(objectsPerEntity: 6)
        let writer = FixtureWriter()
        #expect(
            try writer.fixtureData(from: a.persistentStoreCoordinator)
                == writer.fixtureData(from: b.persistentStoreCoordinator))
        #expect(
            a.persistentStoreCoordinator.persistentStores.first?.identifier
                == DeterministicEnvironment(seed: 11).storeIdentifier)
    }
}

extension Decimal {
    /// The value rounded to a whole number (for checking fraction digits).
    var rounded0: Decimal {
        var input = self
        var result = Decimal()
        NSDecimalRound(&result, &input, 0, .plain)
        return result
    }
}
