import Foundation
import ObjectGraph

/// The repository and draft flow of a Core Data app, ported by renaming.
protocol PortedCategoryRepositoryProtocol {
    func createChildContext() -> ManagedObjectContext
    func save(context: ManagedObjectContext) throws
    func fetchAll() throws -> [PortedCategory]
}

final class PortedCategoryRepository: PortedCategoryRepositoryProtocol {
    private let provider: PortedProvider

    init(provider: PortedProvider) { self.provider = provider }

    func createChildContext() -> ManagedObjectContext { provider.newChildContext() }

    /// Saves the child into the view context, then the view context to the store.
    func save(context: ManagedObjectContext) throws {
        guard context.hasChanges else { return }
        try context.save()
        try provider.viewContext.save()
    }

    func fetchAll() throws -> [PortedCategory] {
        let request = PortedCategory.fetchRequest()
        request.sortDescriptors = [
            FetchSortDescriptor(keyPath: \PortedCategory.name, ascending: true)
        ]
        return try provider.viewContext.fetch(request)
    }
}

/// A draft edited in a child context: saved through the repository, or dropped with it.
final class PortedCategoryDraft {
    private let repository: any PortedCategoryRepositoryProtocol
    private let childContext: ManagedObjectContext
    let draftCategory: PortedCategory

    init(repository: any PortedCategoryRepositoryProtocol) {
        self.repository = repository
        self.childContext = repository.createChildContext()
        self.draftCategory = PortedCategory(context: childContext)
    }

    /// Saves the draft; returns the user-facing message of a failure.
    func save() -> String? {
        do {
            try repository.save(context: childContext)
            return nil
        } catch let error as NSError {
            return PortedErrors.message(for: error)
        }
    }
}

/// The error-mapping function of a Core Data app.
enum PortedErrors {
    static func message(for error: any Error) -> String {
        let error = error as NSError
        guard error.domain == NSCocoaErrorDomain else { return error.localizedDescription }
        switch error.code {
        case NSValidationMissingMandatoryPropertyError:
            return "\(error.userInfo[NSValidationKeyErrorKey] as? String ?? "a field") is required"
        case NSValidationRelationshipDeniedDeleteError:
            return "Cannot delete a category that still holds expenses"
        case NSManagedObjectConstraintMergeError:
            return "That name is taken"
        case NSValidationMultipleErrorsError:
            let details = error.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
            return details.map { message(for: $0) }.joined(separator: "; ")
        default:
            return error.localizedDescription
        }
    }

    /// A non-throwing save whose only clause is `catch let error as NSError`.
    static func save(_ context: ManagedObjectContext) -> String? {
        do {
            try context.save()
            return nil
        } catch let error as NSError {
            return message(for: error)
        }
    }
}

/// Batch requests run on a background context and merged into the view context.
final class PortedExpenseRepository {
    private let container: PersistentContainer
    private var viewContext: ManagedObjectContext { container.viewContext }

    init(container: PersistentContainer) { self.container = container }

    func applyTaxToAllExpenses(taxMultiplier: Double) throws {
        let batchUpdate = BatchUpdateRequest(entityName: "PortedExpense")
        batchUpdate.propertiesToUpdate = [
            "amount": FetchExpression(
                forFunction: "multiply:by:",
                arguments: [
                    FetchExpression(forKeyPath: "amount"),
                    FetchExpression(forConstantValue: taxMultiplier),
                ])
        ]
        batchUpdate.resultType = .updatedObjectIDsResultType
        let backgroundContext = container.newBackgroundContext()
        var outError: (any Error)?
        backgroundContext.performAndWait {
            do {
                let result = try backgroundContext.execute(batchUpdate) as? BatchUpdateResult
                guard let objectIDs = result?.result as? [ManagedObjectID] else { return }
                let changes = [NSUpdatedObjectsKey: objectIDs]
                ManagedObjectContext.mergeChanges(
                    fromRemoteContextSave: changes, into: [self.viewContext])
            } catch {
                outError = error
            }
        }
        if let error = outError { throw error }
    }

    /// Deletes every expense (or those `predicate` matches) without loading them.
    @discardableResult
    func deleteAllExpenses(where predicate: FetchPredicate? = nil) throws -> Int {
        let fetchRequest: FetchRequest = PortedExpense.fetchRequest()
        fetchRequest.predicate = predicate
        let batchDeleteRequest = BatchDeleteRequest(fetchRequest: fetchRequest)
        batchDeleteRequest.resultType = .resultTypeObjectIDs
        let backgroundContext = container.newBackgroundContext()
        var outError: (any Error)?
        var deleted = 0
        backgroundContext.performAndWait {
            do {
                let result = try backgroundContext.execute(batchDeleteRequest) as? BatchDeleteResult
                let deletedObjectIDs = result?.result as? [ManagedObjectID] ?? []
                let changes = [NSDeletedObjectsKey: deletedObjectIDs]
                ManagedObjectContext.mergeChanges(
                    fromRemoteContextSave: changes, into: [self.viewContext])
                deleted = deletedObjectIDs.count
            } catch {
                outError = error
            }
        }
        if let error = outError { throw error }
        return deleted
    }
}
