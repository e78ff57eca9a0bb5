import Foundation
import ObjectGraph
import Testing

@Suite struct ContainerModelLookupTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func aContainerByNameFindsTheXcodeModelInTheGivenBundle() throws {
        let bundle = try #require(Bundle(path: Self.fixtures.path))
        let container = try PersistentContainer(name: "ExpenseTracker", bundle: bundle)
        #expect(
            Set(container.managedObjectModel.entitiesByName.keys) == ["Category", "Transaction"])
    }

    @Test func aMissingModelNamesEveryPlaceSearched() {
        do {
            _ = try PersistentContainer(name: "NoSuchModel")
            Issue.record("expected an error")
        } catch {
            let message = (error as NSError).localizedDescription
            #expect(message.contains("NoSuchModel.xcdatamodeld"))
            #expect((error as NSError).code == 134060)
        }
    }
}
