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

        /// Each reason carries Core Data's code for its condition (`CoreDataErrors.h`).
        @Test(arguments: [
            (ObjectGraphError.Reason.validationFailed, NSManagedObjectValidationError),
            (.wrongValueType, NSManagedObjectValidationError),
            (.danglingReference, NSManagedObjectValidationError),
            (.multipleValidationErrors, NSValidationMultipleErrorsError),
            (.missingMandatoryProperty, NSValidationMissingMandatoryPropertyError),
            (.relationshipLacksMinimumCount, NSValidationRelationshipLacksMinimumCountError),
            (.relationshipExceedsMaximumCount, NSValidationRelationshipExceedsMaximumCountError),
            (.relationshipDeniedDelete, NSValidationRelationshipDeniedDeleteError),
            (.numberTooLarge, NSValidationNumberTooLargeError),
            (.numberTooSmall, NSValidationNumberTooSmallError),
            (.dateTooLate, NSValidationDateTooLateError),
            (.dateTooSoon, NSValidationDateTooSoonError),
            (.invalidDate, NSValidationInvalidDateError),
            (.stringTooLong, NSValidationStringTooLongError),
            (.stringTooShort, NSValidationStringTooShortError),
            (.stringPatternMatching, NSValidationStringPatternMatchingError),
            (.invalidURI, NSValidationInvalidURIError),
            (.objectNotFound, NSManagedObjectReferentialIntegrityError),
            (.mergeConflict, NSManagedObjectMergeError),
            (.constraintConflict, NSManagedObjectConstraintMergeError),
            (.notAStoreFile, NSPersistentStoreInvalidTypeError),
            (.unknownStoreType, NSPersistentStoreInvalidTypeError),
            (.noPersistentStore, NSPersistentStoreSaveError),
            (.storeWriteFailed, NSPersistentStoreSaveError),
            (.storeUnusable, NSPersistentStoreSaveError),
            (.readOnlyStore, NSPersistentStoreSaveError),
            (.invalidStoreRow, NSPersistentStoreSaveError),
            (.storeSaveConflict, NSPersistentStoreSaveConflictsError),
            (.storeOperationFailed, NSPersistentStoreOperationError),
            (.storeClosed, NSPersistentStoreOperationError),
            (.storeOpenFailed, NSPersistentStoreOpenError),
            (.storeFileNotFound, NSPersistentStoreOpenError),
            (.storeLocked, NSPersistentStoreTimeoutError),
            (.unsupportedRequest, NSPersistentStoreUnsupportedRequestTypeError),
            (.incompatibleModel, NSPersistentStoreIncompatibleVersionHashError),
            (.storeCorrupt, NSFileReadCorruptFileError),
        ])
        func reasonsKeepCoreDatasCodes(_ reason: ObjectGraphError.Reason, _ constant: Int) {
            #expect(reason.code == constant)
            let ns = ObjectGraphError(reason, "x") as NSError
            #expect(ns.domain == NSCocoaErrorDomain)
            #expect(ns.code == constant)
        }

        /// 134060 is Core Data's code for a bad model, predicate or request alike; each of
        /// those conditions is a reason of its own here.
        @Test func generalErrorsAreDistinctReasonsUnderOneCode() {
            let general: [ObjectGraphError.Reason] = [
                .duplicateEntity, .entityReused, .invalidName, .duplicateProperty,
                .invalidSuperentity, .unknownDestination, .invalidInverse, .invalidConstraint,
                .invalidAttribute, .invalidRelationship, .invalidConfiguration,
                .invalidFetchRequestTemplate, .invalidIndex, .invalidModelJSON, .modelXMLSyntax,
                .invalidXcodeModel, .modelNotFound, .jsonSyntax, .predicateSyntax,
                .predicateArgument, .predicateUnknownKey, .predicateInvalid,
                .predicateVariableValue, .predicateTooDeep, .invalidSortKey, .unknownEntity,
                .noEntityForClass, .resultTypeMismatch, .invalidFetchRequest, .noCoordinator,
                .batchInvalidProperty, .batchInvalidValue, .batchMixedEntities,
                .batchAbstractEntity, .saveDidNotSettle, .valueTypeMismatch, .invalidValueText,
                .unsupportedStoreOption,
            ]
            #expect(general.allSatisfy { $0.code == NSCoreDataError })
            #expect(Set(general).count == general.count)
            #expect(Set(general.map(\.name)).count == general.count)
        }

        @Test func coreDataCodeConstantsKeepTheirValues() {
            let constants = [
                NSManagedObjectConstraintValidationError, NSManagedObjectContextLockingError,
                NSPersistentStoreCoordinatorLockingError, NSManagedObjectExternalRelationshipError,
                NSPersistentStoreTypeMismatchError, NSPersistentStoreIncompatibleSchemaError,
                NSPersistentStoreIncompleteSaveError, NSCoreDataError, NSMigrationError,
                NSMigrationConstraintViolationError, NSMigrationCancelledError,
                NSMigrationMissingSourceModelError, NSMigrationMissingMappingModelError,
                NSMigrationManagerSourceStoreError, NSMigrationManagerDestinationStoreError,
                NSEntityMigrationPolicyError, NSSQLiteError, NSInferredMappingModelError,
                NSExternalRecordImportError, NSPersistentHistoryTokenExpiredError,
            ]
            #expect(
                constants == [
                    1551, 132000, 132010, 133010, 134010, 134020, 134040, 134060, 134110, 134111,
                    134120, 134130, 134140, 134150, 134160, 134170, 134180, 134190, 134200, 134301,
                ])
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
            let first = ObjectGraphError(.missingMandatoryProperty, "Parcel.slug is required")
            let second = ObjectGraphError(
                .stringTooLong, "Parcel.code must have at most 5 characters; got 8")
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
            let a = ObjectGraphError(.numberTooSmall, "a")
            let b = ObjectGraphError(.numberTooLarge, "b")
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
            #expect(flattened.underlying.map(\.code) == [1620, 7, 1610])
            #expect(
                flattened.underlying.map(\.reason) == [
                    .numberTooSmall, .otherError, .numberTooLarge,
                ])
        }

        @Test func wrappingAnObjectGraphErrorReturnsItUnchanged() {
            let own = ObjectGraphError(.dateTooLate, "late", key: "date")
            let wrapped = ObjectGraphError.wrapping(own)
            #expect(wrapped.reason == .dateTooLate)
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
