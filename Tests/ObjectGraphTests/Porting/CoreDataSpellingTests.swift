import Foundation
import Testing

@testable import ObjectGraph

/// Core Data's spellings, kept beside ObjectGraph's so ported code compiles with renames only.
@Suite struct CoreDataSpellingTests {
    @Test func concurrencyTypesHaveCoreDatasNames() {
        #expect(ConcurrencyType.mainQueueConcurrencyType == .mainQueue)
        #expect(ConcurrencyType.privateQueueConcurrencyType == .privateQueue)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        #expect(context.concurrencyType == .privateQueue)
    }

    @Test func batchDeleteResultTypesHaveCoreDatasNames() {
        #expect(BatchResultType.resultTypeObjectIDs == .objectIDs)
        #expect(BatchResultType.resultTypeCount == .count)
        #expect(BatchResultType.resultTypeStatusOnly == .statusOnly)
    }

    @Test func mergePolicyConstantsHaveCoreDatasNames() {
        #expect(NSMergeByPropertyObjectTrumpMergePolicy == .mergeByPropertyObjectTrump)
        #expect(NSMergeByPropertyStoreTrumpMergePolicy == .mergeByPropertyStoreTrump)
        #expect(NSOverwriteMergePolicy == .overwrite)
        #expect(NSRollbackMergePolicy == .rollback)
        #expect(NSErrorMergePolicy == .error)
    }

    @Test func expressionInitializersBuildWhatTheFormatLanguageBuilds() throws {
        #expect(
            FetchExpression(
                forFunction: "multiply:by:", arguments: [FetchExpression(forKeyPath: "amount"), 2])
                == (try FetchExpression(format: "amount * 2")))
        #expect(
            FetchExpression(forFunction: "sum:", arguments: [FetchExpression(forKeyPath: "amount")])
                == .function(.sum, [.keyPath("amount")]))
        #expect(
            FetchExpression(forKeyPath: \Transaction.category?.name)
                == FetchExpression(forKeyPath: "category.name"))
        #expect(FetchExpression(forConstantValue: "x") == (try FetchExpression(format: "'x'")))
        #expect(FetchExpression(forVariable: "limit") == (try FetchExpression(format: "$limit")))
        #expect(
            FetchExpression(forAggregate: [1, 2]) == (try FetchExpression(format: "{1, 2}")))
    }

    /// Core Data: `NSExpression(forFunction: "multiply:by:", arguments:)` in
    /// `propertiesToUpdate` is evaluated per row (NSBatchUpdateRequest documentation).
    @Test func aFunctionExpressionDrivesABatchUpdate() throws {
        let context = try FetchSeed.context()
        let amounts = try context.performAndWait { () throws -> [Decimal] in
            let update = BatchUpdateRequest(entityName: "Transaction")
            update.propertiesToUpdate = [
                "amount": FetchExpression(
                    forFunction: "multiply:by:",
                    arguments: [FetchExpression(forKeyPath: "amount"), 2])
            ]
            _ = try context.execute(update)
            context.reset()
            return try context.fetch(Transaction.fetchRequest()).map(\.amount).sorted()
        }
        #expect(amounts == [10, 14, 40, 80, 1800])
    }

    @Test func sortDescriptorsTakeSwiftKeyPaths() throws {
        #expect(FetchSortDescriptor(keyPath: \Category.name, ascending: true).key == "name")
        #expect(
            FetchSortDescriptor(keyPath: \Transaction.category?.name, ascending: false).key
                == "category.name")
        let context = try FetchSeed.context()
        let amounts = try context.performAndWait { () throws -> [Decimal] in
            let request = Transaction.fetchRequest()
            request.predicate = try FetchPredicate(format: "category != nil")
            request.sortDescriptors = [
                FetchSortDescriptor(keyPath: \Transaction.category?.name, ascending: false),
                FetchSortDescriptor(keyPath: \Transaction.amount, ascending: true),
            ]
            return try context.fetch(request).map(\.amount)
        }
        #expect(amounts == [900, 5, 20, 40])
    }
}
