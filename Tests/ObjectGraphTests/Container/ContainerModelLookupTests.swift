import Foundation
import ObjectGraph
import Testing

@Suite struct ContainerModelLookupTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func aContainerByNameFindsTheXcodeModelInTheGivenBundle() throws {
        let bundle = try #require(Bundle(path: Self.fixtures.path))
        let container = PersistentContainer(name: "ExpenseTracker", bundle: bundle)
        #expect(
            Set(container.managedObjectModel.entitiesByName.keys) == ["Category", "Transaction"])
    }

    /// Core Data's `NSPersistentContainer(name:)` does not throw; the missing model surfaces
    /// when the stores load.
    @Test func aMissingModelIsReportedByLoadingNamingEveryPlaceSearched() throws {
        let container = PersistentContainer(name: "NoSuchModel")
        #expect(container.managedObjectModel.entities.isEmpty)
        container.persistentStoreDescriptions = [PersistentStoreDescription()]
        let reported = UncheckedSendable(ErrorBox())
        container.loadPersistentStores { _, error in reported.value.errors.append(error) }
        let error = try #require(reported.value.errors.first as? ObjectGraphError)
        #expect(reported.value.errors.count == 1)
        #expect(error.reason == .modelNotFound)
        #expect(error.message.contains("NoSuchModel.xcdatamodeld"))
        #expect(error.message.contains(FileManager.default.currentDirectoryPath))
        #expect(container.persistentStoreCoordinator.persistentStores.isEmpty)
        #expect {
            try container.loadPersistentStores()
        } throws: { ($0 as? ObjectGraphError)?.reason == .modelNotFound }
    }

    final class ErrorBox { var errors: [(any Error)?] = [] }
}
