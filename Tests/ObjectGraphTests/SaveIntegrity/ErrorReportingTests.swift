import Foundation
import ObjectGraph
import Testing

/// A person-facing message for any error a save throws, as a Core Data app maps errors to
/// messages: it only uses `NSError` domain, code and userInfo keys.
func friendlyMessage(for error: any Error) -> String {
    let nsError = error as NSError
    guard nsError.domain == NSCocoaErrorDomain else { return nsError.localizedDescription }
    let field = (nsError.userInfo[NSValidationKeyErrorKey] as? String)?.capitalized ?? "A field"
    switch nsError.code {
    case NSValidationMultipleErrorsError:
        guard let list = nsError.userInfo[NSDetailedErrorsKey] as? [NSError] else {
            return "Several fields are invalid."
        }
        return list.map { friendlyMessage(for: $0) }.joined(separator: "\n")
    case NSValidationMissingMandatoryPropertyError: return "\(field) is required."
    case NSValidationNumberTooLargeError: return "\(field) is too large."
    case NSValidationNumberTooSmallError: return "\(field) is too small."
    case NSValidationStringTooLongError: return "\(field) is too long."
    case NSValidationStringTooShortError, NSValidationStringPatternMatchingError:
        return "\(field) is invalid or too short."
    case NSValidationRelationshipDeniedDeleteError:
        return "It still has \(field.lowercased()); remove them first."
    case NSManagedObjectConstraintMergeError: return "An item with this information already exists."
    case NSManagedObjectMergeError:
        return "Someone else changed this item; reload it and try again."
    default: return "A database error occurred (code \(nsError.code))."
    }
}

/// A custom validation error of an app's own domain.
struct RuleError: Error, CustomNSError {
    static var errorDomain: String { "ExpenseRules" }
    var errorCode: Int { 7 }
    var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: "note must not shout"] }
}

extension SaveIntegrity {
    @Suite struct ErrorReportingTests {
        private func saveError(_ context: ManagedObjectContext) -> NSError {
            expectNSError { try context.save() } ?? NSError(domain: "none", code: 0)
        }

        private func transaction(_ context: ManagedObjectContext, amount: Decimal) -> Transaction {
            let t = Transaction(context: context)
            t.id = UUID()
            t.amount = amount
            t.date = Date(timeIntervalSince1970: 1_700_000_000)
            return t
        }

        @Test(arguments: [
            (ObjectGraphError.Code.validation, NSManagedObjectValidationError),
            (.constraintValidation, NSManagedObjectConstraintValidationError),
            (.validationMultipleErrors, NSValidationMultipleErrorsError),
            (.validationMissingMandatoryProperty, NSValidationMissingMandatoryPropertyError),
            (
                .validationRelationshipLacksMinimumCount,
                NSValidationRelationshipLacksMinimumCountError
            ),
            (
                .validationRelationshipExceedsMaximumCount,
                NSValidationRelationshipExceedsMaximumCountError
            ),
            (.validationRelationshipDeniedDelete, NSValidationRelationshipDeniedDeleteError),
            (.validationNumberTooLarge, NSValidationNumberTooLargeError),
            (.validationNumberTooSmall, NSValidationNumberTooSmallError),
            (.validationDateTooLate, NSValidationDateTooLateError),
            (.validationDateTooSoon, NSValidationDateTooSoonError),
            (.validationInvalidDate, NSValidationInvalidDateError),
            (.validationStringTooLong, NSValidationStringTooLongError),
            (.validationStringTooShort, NSValidationStringTooShortError),
            (.validationStringPatternMatching, NSValidationStringPatternMatchingError),
            (.validationInvalidURI, NSValidationInvalidURIError),
            (.contextLocking, NSManagedObjectContextLockingError),
            (.coordinatorLocking, NSPersistentStoreCoordinatorLockingError),
            (.referentialIntegrity, NSManagedObjectReferentialIntegrityError),
            (.externalRelationship, NSManagedObjectExternalRelationshipError),
            (.mergeConflict, NSManagedObjectMergeError),
            (.constraintConflict, NSManagedObjectConstraintMergeError),
            (.storeInvalidType, NSPersistentStoreInvalidTypeError),
            (.storeTypeMismatch, NSPersistentStoreTypeMismatchError),
            (.storeIncompatibleSchema, NSPersistentStoreIncompatibleSchemaError),
            (.storeSave, NSPersistentStoreSaveError),
            (.storeIncompleteSave, NSPersistentStoreIncompleteSaveError),
            (.storeSaveConflicts, NSPersistentStoreSaveConflictsError),
            (.coreData, NSCoreDataError),
            (.storeOperation, NSPersistentStoreOperationError),
            (.storeOpen, NSPersistentStoreOpenError),
            (.storeTimeout, NSPersistentStoreTimeoutError),
            (.storeUnsupportedRequestType, NSPersistentStoreUnsupportedRequestTypeError),
            (.storeIncompatibleVersionHash, NSPersistentStoreIncompatibleVersionHashError),
            (.migration, NSMigrationError),
            (.migrationConstraintViolation, NSMigrationConstraintViolationError),
            (.migrationCancelled, NSMigrationCancelledError),
            (.migrationMissingSourceModel, NSMigrationMissingSourceModelError),
            (.migrationMissingMappingModel, NSMigrationMissingMappingModelError),
            (.migrationManagerSourceStore, NSMigrationManagerSourceStoreError),
            (.migrationManagerDestinationStore, NSMigrationManagerDestinationStoreError),
            (.entityMigrationPolicy, NSEntityMigrationPolicyError),
            (.sqlite, NSSQLiteError),
            (.inferredMapping, NSInferredMappingModelError),
            (.externalRecordImport, NSExternalRecordImportError),
            (.historyTokenExpired, NSPersistentHistoryTokenExpiredError),
        ])
        func codesKeepCoreDatasNumbers(_ code: ObjectGraphError.Code, _ constant: Int) {
            #expect(code.rawValue == constant)
            let ns = ObjectGraphError(code, "x") as NSError
            #expect(ns.domain == NSCocoaErrorDomain)
            #expect(ns.code == constant)
        }

        @Test func coreDataKeyNamesKeepTheirValues() {
            #expect(NSDetailedErrorsKey == "NSDetailedErrors")
            #expect(NSValidationObjectErrorKey == "NSValidationErrorObject")
            #expect(NSValidationKeyErrorKey == "NSValidationErrorKey")
            #expect(NSValidationValueErrorKey == "NSValidationErrorValue")
            #expect(NSValidationPredicateErrorKey == "NSValidationErrorPredicate")
            #expect(NSPersistentStoreSaveConflictsErrorKey == "conflictList")
        }

        @Test func aValidationErrorBridgesWithObjectKeyValueAndAnActionableDescription() throws {
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
            try context.performAndWait {
                let t = transaction(context, amount: 0)
                let ns = try #require(expectNSError { try context.save() })
                #expect(ns.domain == NSCocoaErrorDomain)
                #expect(ns.code == NSValidationNumberTooSmallError)
                #expect(
                    ns.localizedDescription == "Transaction.amount must be at least 0.01; got 0")
                #expect(ns.userInfo[NSValidationKeyErrorKey] as? String == "amount")
                #expect((ns.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === t)
                #expect(
                    (ns.userInfo[NSValidationValueErrorKey] as? NSDecimalNumber)?.decimalValue == 0)
            }
        }

        @Test func detailedErrorsAreRealNSErrorsEachNamingItsObject() throws {
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
            try context.performAndWait {
                let c = Category(context: context)
                c.colorHex = "red"
                let ns = try #require(expectNSError { try context.save() })
                #expect(ns.code == NSValidationMultipleErrorsError)
                let list = try #require(ns.userInfo[NSDetailedErrorsKey] as? [NSError])
                #expect(list.count == 3)
                for detail in list {
                    #expect(detail.domain == NSCocoaErrorDomain)
                    #expect((detail.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === c)
                }
                #expect(
                    Set(list.map(\.code)) == [
                        NSValidationMissingMandatoryPropertyError,
                        NSValidationStringPatternMatchingError,
                    ])
                #expect(ns.localizedDescription.hasPrefix("3 validation errors: "))
            }
        }

        @Test func theTreePrinterShowsEveryFailureIndentedUnderItsParent() {
            let first = ObjectGraphError(
                .validationMissingMandatoryProperty, "Parcel.slug is required")
            let second = ObjectGraphError(
                .validationStringTooLong, "Parcel.code must have at most 5 characters; got 8")
            let combined =
                ObjectGraphError.combining([first, RuleError(), second]) as? ObjectGraphError
            #expect(
                combined?.treeDescription == """
                    error 1560: 3 validation errors: Parcel.slug is required; note must not shout; \
                    Parcel.code must have at most 5 characters; got 8
                      error 1570: Parcel.slug is required
                      ExpenseRules 7: note must not shout
                      error 1660: Parcel.code must have at most 5 characters; got 8
                    """)
        }

        @Test func theTreePrinterListsConflictsUnderAConstraintError() throws {
            let stack = try Stack(ExpenseModel.make(), on: .inMemory)
            try stack.seed("Category", ["id": UUID(), "name": "Food"])
            let context = stack.context()
            try context.performAndWait {
                let c = Category(context: context)
                c.id = UUID()
                c.name = "Food"
                let error = #expect(throws: ObjectGraphError.self) { try context.save() }
                let tree = try #require(error).treeDescription.split(separator: "\n")
                #expect(tree.count == 2)
                #expect(
                    tree.first?.hasPrefix("error 133021: save: 1 uniqueness constraint conflict: ")
                        == true)
                #expect(
                    tree.last?.hasPrefix("  conflict: Category(name) name = \"Food\": new Category")
                        == true)
            }
        }

        @Test func combiningKeepsOneErrorAsItIsAndFlattensNestedLists() throws {
            #expect(ObjectGraphError.combining([]) == nil)
            let alone = try #require(ObjectGraphError.combining([RuleError()])) as NSError
            #expect(alone.domain == "ExpenseRules")
            #expect(alone.code == 7)
            let a = ObjectGraphError(.validationNumberTooSmall, "a")
            let b = ObjectGraphError(.validationNumberTooLarge, "b")
            let inner = try #require(ObjectGraphError.combining([a, b]))
            let outer = try #require(ObjectGraphError.combining([inner, RuleError()])) as NSError
            #expect(outer.code == NSValidationMultipleErrorsError)
            let list = try #require(outer.userInfo[NSDetailedErrorsKey] as? [NSError])
            #expect(list.map(\.code) == [1620, 1610, 7])
            #expect(list.map(\.domain) == [NSCocoaErrorDomain, NSCocoaErrorDomain, "ExpenseRules"])
            let foreignList = NSError(
                domain: NSCocoaErrorDomain, code: NSValidationMultipleErrorsError,
                userInfo: [NSDetailedErrorsKey: [a as NSError, RuleError() as NSError]])
            let flattened = try #require(
                ObjectGraphError.combining([foreignList, b]) as? ObjectGraphError)
            #expect(flattened.underlying.map(\.code.rawValue) == [1620, 7, 1610])
        }

        @Test func wrappingAnObjectGraphErrorReturnsItUnchanged() {
            let own = ObjectGraphError(.validationDateTooLate, "late", key: "date")
            let wrapped = ObjectGraphError(wrapping: own)
            #expect(wrapped.code == .validationDateTooLate)
            #expect(wrapped.message == "late")
            #expect(wrapped.originalError == nil)
        }

        @Test func appStyleMessageMappingWorksOnRealEngineErrors() throws {
            let stack = try Stack(ExpenseModel.make(), on: .inMemory)
            try stack.seed("Category", ["id": UUID(), "name": "Food"])
            let context = stack.context()
            try context.performAndWait {
                let t = transaction(context, amount: 0)
                #expect(friendlyMessage(for: saveError(context)) == "Amount is too small.")
                t.amount = 5
                let c = Category(context: context)
                c.id = UUID()
                #expect(friendlyMessage(for: saveError(context)) == "Name is required.")
                c.name = String(repeating: "x", count: 51)
                c.colorHex = "blue"
                #expect(
                    friendlyMessage(for: saveError(context))
                        == "Name is too long.\nColorhex is invalid or too short.")
                c.name = "Food"
                c.colorHex = "#00FF00"
                #expect(
                    friendlyMessage(for: saveError(context))
                        == "An item with this information already exists.")
                c.name = "Rent"
                try context.save()
                t.category = c
                try context.save()
            }
            try context.performAndWait {
                let mine = try #require(
                    try context.fetch(FetchRequest<Category>(entityName: "Category")).first {
                        $0.name == "Rent"
                    })
                mine.name = "Home"
            }
            let other = stack.context()
            try other.performAndWait {
                let rent = try #require(
                    try other.fetch(FetchRequest<Category>(entityName: "Category")).first {
                        $0.name == "Rent"
                    })
                rent.name = "Housing"
                try other.save()
            }
            context.performAndWait {
                #expect(
                    friendlyMessage(for: saveError(context))
                        == "Someone else changed this item; reload it and try again.")
            }
        }
    }
}
