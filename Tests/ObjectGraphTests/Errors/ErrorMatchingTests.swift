import Foundation
import ObjectGraph
import Testing

/// The error-mapping code of a Core Data app, as written against Core Data: one clause,
/// `catch let error as NSError`, in a function that does not throw. With errors that were not
/// `NSError` instances this compiled on Linux and then crashed the process on the first error.
private func saveMessage(_ context: ManagedObjectContext) -> String {
    do {
        try context.save()
        return "saved"
    } catch let error as NSError {
        return "\(error.domain) \(error.code) \(error.userInfo[NSValidationKeyErrorKey] ?? "-")"
    }
}

/// A context whose only change is a transaction with no date (1570 at save).
private func contextMissingADate(_ kind: StoreKind) throws -> ManagedObjectContext {
    let context = ManagedObjectContext(
        concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator(kind))
    context.performAndWait {
        let t = Transaction(context: context)
        t.id = UUID()
        t.amount = 5
    }
    return context
}

@Suite struct ErrorMatchingTests {
    @Test(arguments: StoreKind.all)
    func aLoneCatchAsNSErrorInANonThrowingFunctionGetsTheError(_ kind: StoreKind) throws {
        let context = try contextMissingADate(kind)
        let message = context.performAndWait { saveMessage(context) }
        #expect(message == "\(NSCocoaErrorDomain) 1570 date")
    }

    @Test(arguments: StoreKind.all)
    func catchAsNSErrorMatchesBeforeOtherClauses(_ kind: StoreKind) throws {
        let context = try contextMissingADate(kind)
        var matched = "none"
        context.performAndWait {
            do {
                try context.save()
            } catch let error as NSError where error.domain == NSCocoaErrorDomain {
                matched = "NSError \(error.code)"
            } catch {
                matched = "other \(type(of: error))"
            }
        }
        #expect(matched == "NSError \(NSValidationMissingMandatoryPropertyError)")
    }

    @Test(arguments: StoreKind.all)
    func catchAsObjectGraphErrorAndErrorAsNSErrorSeeTheSameInstance(_ kind: StoreKind) throws {
        let context = try contextMissingADate(kind)
        try context.performAndWait {
            do {
                try context.save()
                Issue.record("the save succeeded")
            } catch let error as ObjectGraphError {
                #expect(error.reason == .missingMandatoryProperty)
                let bridged = error as NSError
                #expect(bridged === error)
                #expect(bridged.code == NSValidationMissingMandatoryPropertyError)
                #expect(bridged.localizedDescription == "Transaction.date is required")
                let any: any Error = error
                #expect((any as NSError) === error)
            }
        }
    }

    @Test func aReasonMatchesInACatchClauseAndInASwitch() throws {
        let context = try contextMissingADate(.inMemory)
        var caught = "none"
        context.performAndWait {
            do {
                try context.save()
            } catch ObjectGraphError.stringTooLong {
                caught = "too long"
            } catch ObjectGraphError.missingMandatoryProperty {
                caught = "missing"
            } catch {
                caught = "other"
            }
        }
        #expect(caught == "missing")
        let error: any Error = ObjectGraphError(.storeLocked, "store x is locked")
        switch error {
        case ObjectGraphError.storeOpenFailed: Issue.record("matched another reason")
        case ObjectGraphError.storeLocked: break
        default: Issue.record("no reason matched")
        }
        #expect(
            !(ObjectGraphError.storeLocked ~= (NSError(domain: "x", code: 134090) as any Error)))
    }

    @Test func aMultipleErrorsErrorMatchesItsOwnReasonOnly() throws {
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: try ExpenseModel.coordinator())
        try context.performAndWait {
            _ = Transaction(context: context)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.reason == .multipleValidationErrors)
            #expect(!(ObjectGraphError.missingMandatoryProperty ~= error))
            #expect(error.underlying.map(\.reason).contains(.missingMandatoryProperty))
            let details = try #require(error.userInfo[NSDetailedErrorsKey] as? [NSError])
            #expect(details.count == error.underlying.count)
            #expect(zip(details, error.underlying).allSatisfy { $0 === $1 })
        }
    }

    @Test func everySubsystemThrowsNSErrorInstances() throws {
        let errors: [any Error] = [
            #expect(throws: ObjectGraphError.self) { try FetchPredicate(format: "a ==") },
            #expect(throws: ObjectGraphError.self) {
                try ManagedObjectModel(entities: [
                    EntityDescription(name: "A"), EntityDescription(name: "A"),
                ])
            },
            #expect(throws: ObjectGraphError.self) {
                try PersistentStoreCoordinator(managedObjectModel: ExpenseModel.make())
                    .addPersistentStore(
                        with: PersistentStoreDescription(
                            url: URL(fileURLWithPath: "/nonexistent/x.jsonl")))
            },
        ].compactMap { $0 }
        #expect(errors.count == 3)
        for error in errors {
            #expect((error as AnyObject) is NSError)
            #expect((error as NSError).domain == NSCocoaErrorDomain)
        }
    }
}
