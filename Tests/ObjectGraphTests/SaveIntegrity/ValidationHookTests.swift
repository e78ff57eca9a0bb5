import Foundation
import ObjectGraph
import Testing

/// An app's own validation error, of its own domain.
struct TripRuleError: Error, CustomNSError {
    var code: Int
    static var errorDomain: String { "TripRules" }
    var errorCode: Int { code }
    var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: "trip rule \(code) broken"] }
}

extension IntegrityModels {
    /// A subclass using every validation override: a per-key rule, a cross-property rule on
    /// insert and update, and a delete condition, each combined with `super`.
    final class Trip: ManagedObject {
        @Attribute var title: String?
        @Attribute var start: Date?
        @Attribute var end: Date?
        @Attribute var locked: Bool
        @Relationship var stops: Set<Stop>
        /// The keys the per-key hook was asked about, in order.
        var hookKeys: [String] = []

        override func validate(_ value: Any?, forKey key: String) throws {
            hookKeys.append(key)
            if key == "title", let title = value as? String,
                title != title.trimmingCharacters(in: .whitespaces)
            {
                throw TripRuleError(code: 1)
            }
            try super.validate(value, forKey: key)
        }

        override func validateForInsert() throws {
            var errors: [any Error] = []
            do { try super.validateForInsert() } catch { errors.append(error) }
            errors += datesInOrder()
            if let error = ObjectGraphError.combining(errors) { throw error }
        }

        override func validateForUpdate() throws {
            var errors: [any Error] = []
            do { try super.validateForUpdate() } catch { errors.append(error) }
            errors += datesInOrder()
            if let error = ObjectGraphError.combining(errors) { throw error }
        }

        override func validateForDelete() throws {
            var errors: [any Error] = []
            do { try super.validateForDelete() } catch { errors.append(error) }
            if locked { errors.append(TripRuleError(code: 2)) }
            if let error = ObjectGraphError.combining(errors) { throw error }
        }

        private func datesInOrder() -> [any Error] {
            guard let start, let end, end < start else { return [] }
            return [
                ObjectGraphError.validationError(
                    "Trip.end must not be before Trip.start", object: self,
                    key: "end", value: .date(end))
            ]
        }
    }

    final class Stop: ManagedObject {
        @Attribute var name: String?
        @Relationship var trip: Trip?
    }

    static func trips() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [
            E(
                name: "Trip", managedObjectClass: Trip.self,
                properties: [
                    A(name: "title", type: .string, maxLength: 10),
                    A(name: "start", type: .date),
                    A(name: "end", type: .date),
                    A(name: "locked", type: .boolean, defaultValue: false),
                    R(
                        name: "stops", destination: "Stop", inverse: "trip", isToMany: true,
                        deleteRule: .deny),
                ]),
            E(
                name: "Stop", managedObjectClass: Stop.self,
                properties: [
                    A(name: "name", type: .string),
                    R(name: "trip", destination: "Trip", inverse: "stops"),
                ]),
        ])
    }
}

extension SaveIntegrity {
    @Suite struct ValidationHookTests {
        typealias Trip = IntegrityModels.Trip
        typealias Stop = IntegrityModels.Stop

        private let day0 = Date(timeIntervalSince1970: 1_700_000_000)
        private let day1 = Date(timeIntervalSince1970: 1_700_086_400)

        @Test func theKeyHookRunsAfterTheModelRulesAndOnlyWhenTheyPass() throws {
            let stack = try Stack(IntegrityModels.trips(), on: .inMemory)
            let context = stack.context()
            context.performAndWait {
                let trip = Trip(context: context)
                trip.title = " far too long"
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationStringTooLongError)
                #expect(!trip.hookKeys.contains("title"))
                #expect(Set(trip.hookKeys) == ["start", "end", "locked", "stops"])
                trip.hookKeys = []
                #expect(
                    expectNSError { try trip.validateValue(" x", forKey: "title") }?.domain
                        == "TripRules")
                #expect(trip.hookKeys == ["title"])
                #expect(
                    expectNSError { try trip.validateValue("eleven char", forKey: "title") }?.code
                        == NSValidationStringTooLongError)
                #expect(trip.hookKeys == ["title"])
            }
        }

        @Test func aCustomErrorAloneReachesTheCallerUnchanged() throws {
            let stack = try Stack(IntegrityModels.trips(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let trip = Trip(context: context)
                trip.title = "Rome "
                let error = expectNSError { try context.save() }
                #expect(error?.domain == "TripRules")
                #expect(error?.code == 1)
                #expect(error?.localizedDescription == "trip rule 1 broken")
                trip.title = "Rome"
                try context.save()
            }
        }

        @Test func anInsertOverrideCombinesItsErrorsWithSupersIntoOne1560() throws {
            let stack = try Stack(IntegrityModels.trips(), on: .inMemory)
            let context = stack.context()
            context.performAndWait {
                let trip = Trip(context: context)
                trip.title = " Oslo"
                trip.start = day1
                trip.end = day0
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                let list = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                #expect(list.map(\.domain) == ["TripRules", NSCocoaErrorDomain])
                #expect(list.map(\.code) == [1, NSManagedObjectValidationError])
                #expect(list.last?.userInfo[NSValidationKeyErrorKey] as? String == "end")
                #expect(
                    (list.last?.userInfo[NSValidationObjectErrorKey] as? ManagedObject) === trip)
                #expect(list.last?.localizedDescription == "Trip.end must not be before Trip.start")
            }
        }

        @Test func anUpdateOverrideRunsOnChangedObjects() throws {
            let stack = try Stack(IntegrityModels.trips(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let trip = Trip(context: context)
                trip.start = day0
                trip.end = day1
                try context.save()
                trip.end = Date(timeIntervalSince1970: 0)
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSManagedObjectValidationError)
                #expect(error?.userInfo[NSValidationKeyErrorKey] as? String == "end")
            }
            #expect(try stack.rows("Trip").first?["end"]?.attributeValue == .date(day1))
        }

        @Test func aDeleteOverrideCombinesWithTheDenyRule() throws {
            let stack = try Stack(IntegrityModels.trips(), on: .inMemory)
            let context = stack.context()
            try context.performAndWait {
                let trip = Trip(context: context)
                trip.locked = true
                let stop = Stop(context: context)
                stop.trip = trip
                try context.save()
                context.delete(trip)
                let error = expectNSError { try context.save() }
                #expect(error?.code == NSValidationMultipleErrorsError)
                let list = error?.userInfo[NSDetailedErrorsKey] as? [NSError] ?? []
                #expect(list.map(\.code) == [NSValidationRelationshipDeniedDeleteError, 2])
                #expect(list.first?.userInfo[NSValidationKeyErrorKey] as? String == "stops")
                context.rollback()
                trip.locked = false
                try context.save()
                context.delete(trip)
                context.delete(stop)
                try context.save()
            }
            #expect(try stack.rows("Trip").isEmpty)
            #expect(try stack.rows("Stop").isEmpty)
        }
    }
}
