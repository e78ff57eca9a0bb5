import Foundation
import ObjectGraph
import Testing

@testable import LedgerKit

@Suite struct LedgerModelTests {
    static let xcodeModel = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/ExpenseTracker.xcdatamodeld")

    @Test func theModelInCodeHasTheVersionHashesOfTheProjectsXcodeModel() throws {
        // Version 1 is the Expense Tracker; version 2 adds rules and budgets.
        let code = try LedgerModel.makeVersion1()
        let xcode = try ManagedObjectModel(contentsOf: Self.xcodeModel)
        #expect(code.entityVersionHashesByName == xcode.entityVersionHashesByName)
        #expect(code.entityVersionHashesByName.keys.sorted() == ["Category", "Transaction"])
    }

    @Test func importKeysAndCategoryNamesAreUniquenessConstraints() throws {
        let model = try LedgerModel.make()
        #expect(model.entitiesByName["Category"]?.uniquenessConstraints == [["name"]])
        #expect(model.entitiesByName["Transaction"]?.uniquenessConstraints == [["importKey"]])
    }
}
