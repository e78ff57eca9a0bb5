import Foundation
import Testing

@testable import ObjectGraph

/// The ported application code (`PortedStack.swift`, `PortedRepository.swift`,
/// `PortedModel.swift`) runs its flows on both stores with the outcomes Core Data gives.
@Suite struct PortedAppTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case inMemory, jsonLines
        var testDescription: String { rawValue }
        var url: URL {
            self == .inMemory
                ? URL(fileURLWithPath: "/dev/null") : TemporaryStoreFiles.next("ported")
        }
    }

    private func provider(_ store: Store) throws -> PortedProvider {
        let provider = PortedProvider(storeURL: store.url)
        if let error = provider.loadError { throw error }
        return provider
    }

    /// Names of the categories the store holds, read through a fresh background context.
    private func storedNames(_ provider: PortedProvider) throws -> [String] {
        let context = provider.persistentContainer.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(PortedCategory.fetchRequest()).compactMap(\.name).sorted()
        }
    }

    @Test func theSharedStackLoadsTheModelByNameAndBindsItsClasses() throws {
        let provider = PortedProvider.shared
        #expect(provider.loadError == nil)
        let model = provider.persistentContainer.managedObjectModel
        #expect(Set(model.entitiesByName.keys) == ["PortedCategory", "PortedExpense"])
        provider.viewContext.performAndWait {
            let category = PortedCategory(context: provider.viewContext)
            #expect(category.entity.name == "PortedCategory")
            provider.viewContext.rollback()
        }
        #expect(model.entitiesByName["PortedCategory"]?.managedObjectClass == PortedCategory.self)
    }

    @Test(arguments: Store.allCases)
    func aDraftSavedThroughTheRepositoryReachesTheStoreAndACancelledOneDoesNot(_ store: Store)
        throws
    {
        let provider = try provider(store)
        let repository = PortedCategoryRepository(provider: provider)
        let fetched = try provider.viewContext.performAndWait { () throws -> [String] in
            let cancelled = PortedCategoryDraft(repository: repository)
            cancelled.draftCategory.name = "Abandoned"
            let draft = PortedCategoryDraft(repository: repository)
            draft.draftCategory.name = "Groceries"
            #expect(draft.save() == nil)
            return try repository.fetchAll().compactMap(\.name)
        }
        #expect(fetched == ["Groceries"])
        #expect(try storedNames(provider) == ["Groceries"])
    }

    @Test(arguments: Store.allCases)
    func theErrorMappingFunctionSeesCoreDatasCodes(_ store: Store) throws {
        let provider = try provider(store)
        let repository = PortedCategoryRepository(provider: provider)
        let messages = provider.viewContext.performAndWait { () -> [String?] in
            let unnamed = PortedCategoryDraft(repository: repository)
            let missing = unnamed.save()
            provider.viewContext.rollback()
            let first = PortedCategoryDraft(repository: repository)
            first.draftCategory.name = "Rent"
            let saved = first.save()
            let context = provider.viewContext
            context.mergePolicy = NSErrorMergePolicy
            let clash = PortedCategory(context: context)
            clash.name = "Rent"
            let taken = PortedErrors.save(context)
            context.rollback()
            let rent = try? context.fetch(PortedCategory.fetchRequest()).first
            let expense = PortedExpense(context: context)
            expense.title = "March"
            expense.category = rent
            _ = PortedErrors.save(context)
            if let rent { context.delete(rent) }
            let denied = PortedErrors.save(context)
            context.rollback()
            return [missing, saved, taken, denied]
        }
        #expect(messages[0] == "name is required")
        #expect(messages[1] == nil)
        #expect(messages[2] == "That name is taken")
        #expect(messages[3] == "Cannot delete a category that still holds expenses")
        #expect(try storedNames(provider) == ["Rent"])
    }

    @Test(arguments: Store.allCases)
    func aBatchUpdateMergedIntoTheViewContextShowsTheNewValues(_ store: Store) throws {
        let provider = try provider(store)
        let context = provider.viewContext
        let expense = try context.performAndWait { () throws -> PortedExpense in
            let expense = PortedExpense(context: context)
            expense.title = "Lunch"
            expense.amount = 10
            try context.save()
            return expense
        }
        try PortedExpenseRepository(container: provider.persistentContainer)
            .applyTaxToAllExpenses(taxMultiplier: 1.25)
        let amount = context.performAndWait { expense.amount }
        #expect(amount == 12.5)
    }

    @Test(arguments: Store.allCases)
    func aBatchDeleteReturnsTheIDsAndTheViewContextForgetsTheObjects(_ store: Store) throws {
        let provider = try provider(store)
        let context = provider.viewContext
        let ids = try context.performAndWait { () throws -> [ManagedObjectID] in
            let expenses = (1...3).map { i in
                let expense = PortedExpense(context: context)
                expense.title = "e\(i)"
                expense.amount = Double(i)
                return expense
            }
            try context.save()
            return expenses.map(\.objectID)
        }
        let deleted = try PortedExpenseRepository(container: provider.persistentContainer)
            .deleteAllExpenses(where: try FetchPredicate(format: "amount >= 2"))
        #expect(deleted == 2)
        let (left, gone) = try context.performAndWait { () throws -> ([String], Bool) in
            let left = try context.fetch(PortedExpense.fetchRequest()).compactMap(\.title)
            let gone = (try? context.existingObject(with: ids[2])) == nil
            return (left, gone)
        }
        #expect(left == ["e1"])
        #expect(gone)
    }

    @Test(arguments: Store.allCases)
    func prepareForDeletionRemovesTheReceiptFile(_ store: Store) throws {
        let provider = try provider(store)
        let receipt = TemporaryStoreFiles.next("receipt").deletingPathExtension()
            .appendingPathExtension("jpg")
        try Data([0xFF, 0xD8]).write(to: receipt)
        let context = provider.viewContext
        try context.performAndWait {
            let expense = PortedExpense(context: context)
            expense.title = "Taxi"
            expense.receiptFilePath = receipt.path
            try context.save()
            #expect(FileManager.default.fileExists(atPath: receipt.path))
            context.delete(expense)
            try context.save()
        }
        #expect(!FileManager.default.fileExists(atPath: receipt.path))
    }
}

/// Two stacks on one file in one process, as an app with a `shared` singleton and a second
/// stack has: they share the process's writer and see each other's saves.
@Suite struct PortedTwoStacksTests {
    @Test func twoContainersOnOneFileShareTheWriterAndSeeEachOthersSaves() throws {
        let url = TemporaryStoreFiles.next("two-stacks")
        let first = PortedProvider(storeURL: url)
        let second = PortedProvider(storeURL: url)
        #expect(first.loadError == nil)
        #expect(second.loadError == nil)
        let a = first.persistentContainer.newBackgroundContext()
        try a.performAndWait {
            PortedCategory(context: a).name = "Food"
            try a.save()
        }
        let b = second.persistentContainer.newBackgroundContext()
        let seen = try b.performAndWait { () throws -> [String] in
            let names = try b.fetch(PortedCategory.fetchRequest()).compactMap(\.name)
            PortedCategory(context: b).name = "Rent"
            try b.save()
            return names
        }
        #expect(seen == ["Food"])
        let names = try a.performAndWait {
            try a.fetch(PortedCategory.fetchRequest()).compactMap(\.name).sorted()
        }
        #expect(names == ["Food", "Rent"])
        // The uniqueness constraint holds across the two stacks.
        let clash = a.performAndWait { () -> String? in
            PortedCategory(context: a).name = "Rent"
            return PortedErrors.save(a)
        }
        #expect(clash == "That name is taken")
    }
}
