import Foundation
import Testing

@testable import ObjectGraph

/// The project's own Xcode model of the ledger's Expense Tracker (Fixtures/ExpenseTracker.xcdatamodeld).
@Suite struct ExpenseTrackerModelTests {
    static let bundle = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ExpenseTracker.xcdatamodeld")

    /// The same model built in code, in the order a person would declare it.
    static func codeModel() throws -> ManagedObjectModel {
        try ManagedObjectModel(
            entities: [
                EntityDescription(
                    name: "Category", managedObjectClassName: "Category",
                    properties: [
                        AttributeDescription(name: "id", type: .uuid, isOptional: false),
                        AttributeDescription(
                            name: "name", type: .string, isOptional: false, minLength: 1,
                            maxLength: 50),
                        AttributeDescription(
                            name: "colorHex", type: .string, isOptional: false,
                            defaultValue: "#FFFFFF", pattern: "^#[0-9A-Fa-f]{6}$"),
                        RelationshipDescription(
                            name: "transactions", destination: "Transaction",
                            inverse: "category", isToMany: true, deleteRule: .nullify),
                    ], uniquenessConstraints: [["name"]]),
                EntityDescription(
                    name: "Transaction", managedObjectClassName: "Transaction",
                    properties: [
                        AttributeDescription(name: "id", type: .uuid, isOptional: false),
                        AttributeDescription(
                            name: "amount", type: .decimal, isOptional: false, minValue: 0.01),
                        AttributeDescription(
                            name: "kind", type: .string, isOptional: false,
                            pattern: "^(expense|income)$"),
                        AttributeDescription(name: "date", type: .date, isOptional: false),
                        AttributeDescription(name: "note", type: .string),
                        AttributeDescription(name: "payee", type: .string),
                        AttributeDescription(
                            name: "isCleared", type: .boolean, defaultValue: false),
                        AttributeDescription(name: "receiptPath", type: .string),
                        AttributeDescription(name: "importKey", type: .string),
                        RelationshipDescription(
                            name: "category", destination: "Category",
                            inverse: "transactions", deleteRule: .nullify),
                    ], uniquenessConstraints: [["importKey"]]),
            ], versionIdentifiers: ["1"])
    }

    @Test func xcodeModelLoadsCleanly() throws {
        let model = try ManagedObjectModel(contentsOf: Self.bundle)
        #expect(model.loadWarnings == [])
        #expect(model.entities.map(\.name) == ["Category", "Transaction"])
        let amount = try #require(model[entityName: "Transaction"]?.attributesByName["amount"])
        #expect(amount.minValue == .decimal(Decimal(string: "0.01")!) && !amount.isOptional)
        let colorHex = try #require(model[entityName: "Category"]?.attributesByName["colorHex"])
        #expect(colorHex.defaultValue == "#FFFFFF" && colorHex.pattern == "^#[0-9A-Fa-f]{6}$")
        #expect(model[entityName: "Transaction"]?.uniquenessConstraints == [["importKey"]])
    }

    @Test func xcodeModelEqualsTheModelBuiltInCode() throws {
        let xcode = try ManagedObjectModel(contentsOf: Self.bundle)
        let code = try Self.codeModel()
        #expect(xcode.entityVersionHashesByName == code.entityVersionHashesByName)
        #expect(xcode.versionHash == code.versionHash)
        #expect(ModelComparison.differences(xcode, code) == [])
    }

    @Test func versionFolderAndContentsFileReadTheSame() throws {
        let folder = Self.bundle.appendingPathComponent("ExpenseTracker.xcdatamodel")
        let viaBundle = try ManagedObjectModel(contentsOf: Self.bundle)
        let viaFolder = try ManagedObjectModel(contentsOf: folder)
        let viaFile = try ManagedObjectModel(contentsOf: folder.appendingPathComponent("contents"))
        #expect(
            viaFolder.jsonData() == viaBundle.jsonData()
                && viaFile.jsonData() == viaBundle.jsonData())
        #expect(
            try XcodeModelLocator.currentVersion(in: Self.bundle) == "ExpenseTracker.xcdatamodel")
    }
}
