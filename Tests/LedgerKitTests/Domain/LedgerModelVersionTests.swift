import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

/// The ledger model's version 2 (categorisation rules and budgets) opening files of version 1.
/// `Fixtures/ledger/ledger-v1.jsonl` was written by this project with version 1 (see
/// ``writeVersion1Fixture()``; regenerate with `LEDGER_WRITE_FIXTURES=1 swift test --filter
/// LedgerModelVersionTests`).
@Suite struct LedgerModelVersionTests {
    static let fixture = CSVFixtures.packageRoot.appendingPathComponent(
        "Fixtures/ledger/ledger-v1.jsonl")

    /// Writes the version-1 fixture (only when asked): two categories, three transactions.
    @Test func writeVersion1Fixture() throws {
        guard ProcessInfo.processInfo.environment["LEDGER_WRITE_FIXTURES"] == "1" else { return }
        try? FileManager.default.removeItem(at: Self.fixture)
        let model = try LedgerModel.makeVersion1()
        var options = StoreOptions()
        options.storeIdentifier = "0E6C1D2A-0000-4000-8000-00000000001A"
        options.clock = { Date(timeIntervalSinceReferenceDate: 800_000_000) }
        let store = try JSONLinesStore(model: model, url: Self.fixture, options: options)
        defer { store.close() }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let context = ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
        try context.performAndWait {
            var categories: [ManagedObject] = []
            for (i, name) in ["Groceries", "Rent"].enumerated() {
                let c = context.insertNewObject(forEntityName: "Category")
                c.setValue(
                    UUID(uuidString: "00000000-0000-4000-8000-00000000000\(i)")!, forKey: "id")
                c.setValue(name, forKey: "name")
                categories.append(c)
            }
            for (i, (payee, amount)) in [
                ("Corner Shop", "12.50"), ("Landlord", "900"), ("Market", "30.25"),
            ].enumerated() {
                let t = context.insertNewObject(forEntityName: "Transaction")
                t.setValue(
                    UUID(uuidString: "00000000-0000-4000-8000-0000000001\(i)0")!, forKey: "id")
                t.setValue(Decimal(string: amount)!, forKey: "amount")
                t.setValue(
                    Date(timeIntervalSinceReferenceDate: 790_000_000 + Double(i) * 86_400),
                    forKey: "date")
                t.setValue(payee, forKey: "payee")
                t.setValue(categories[i == 1 ? 1 : 0], forKey: "category")
            }
            try context.save()
        }
    }

    private func copyOfFixture(_ sandbox: LedgerSandbox) throws -> URL {
        let url = sandbox.url("ledger.jsonl")
        try FileManager.default.copyItem(at: Self.fixture, to: url)
        return url
    }

    @Test func version2AddsRulesAndBudgetsAndDeclaresVersion1AsEarlier() throws {
        let v2 = try LedgerModel.make()
        let v1 = try LedgerModel.makeVersion1()
        #expect(
            v2.entitiesByName["CategorizationRule"]?.propertiesByName.keys.sorted() == [
                "category", "field", "isRegex", "order", "pattern",
            ])
        #expect(
            v2.entitiesByName["Budget"]?.propertiesByName.keys.sorted() == [
                "category", "monthlyAmount",
            ])
        #expect(try LedgerModel.earlierVersions().map(\.versionChecksum) == [v1.versionChecksum])
        #expect(
            try JSONLinesStore.metadata(at: Self.fixture).model.versionChecksum
                == v1.versionChecksum)
    }

    @Test func aReaderReadsAVersion1FileWithoutChangingIt() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let url = try copyOfFixture(sandbox)
        let before = try Data(contentsOf: url)
        let ledger = try Ledger(sandbox.configuration(url), access: .read)
        #expect(try ledger.categories().map(\.name) == ["Groceries", "Rent"])
        ledger.close()
        #expect(try Data(contentsOf: url) == before)
        #expect(!FileManager.default.fileExists(atPath: url.path + ".pre-migration"))
    }

    @Test func theFirstWriterMigratesAVersion1FileAndSaysSo() throws {
        let sandbox = try LedgerSandbox()
        defer { sandbox.remove() }
        let url = try copyOfFixture(sandbox)
        let before = try Data(contentsOf: url)
        let ledger = try Ledger(sandbox.configuration(url), access: .write)
        #expect(
            ledger.storeNotices.contains {
                $0.contains("migrated from version ledger 1 to version ledger 2")
            })
        #expect(try ledger.categories().map(\.transactions) == [2, 1])
        // The new entities work: a rule and a budget for Groceries.
        try ledger.context.performAndWait {
            let groceries = try ledger.context.fetch(FetchRequest<Category>(entityName: "Category"))
                .first { $0.name == "Groceries" }!
            let rule = CategorizationRule(context: ledger.context)
            rule.pattern = "shop"
            rule.field = "payee"
            rule.category = groceries
            let budget = Budget(context: ledger.context)
            budget.monthlyAmount = Decimal(string: "250")!
            budget.category = groceries
            try ledger.context.save()
        }
        ledger.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: url.path + ".pre-migration")) == before)
        let metadata = try JSONLinesStore.metadata(at: url)
        #expect(metadata.model.versionIdentifiers == ["ledger 2"])
        #expect(metadata.storeIdentifier == "0E6C1D2A-0000-4000-8000-00000000001A")
        #expect(try Ledger.verify(sandbox.configuration(url)).problems.isEmpty)
        let again = try Ledger(sandbox.configuration(url), access: .read)
        defer { again.close() }
        try again.context.performAndWait {
            let budgets = try again.context.fetch(FetchRequest<Budget>(entityName: "Budget"))
            #expect(budgets.map(\.monthlyAmount) == [Decimal(string: "250")!])
            #expect(budgets.first?.category?.rules.map(\.pattern) == ["shop"])
        }
    }
}
