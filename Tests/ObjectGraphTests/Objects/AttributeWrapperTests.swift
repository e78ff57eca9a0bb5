import Foundation
import Testing

@testable import ObjectGraph

/// A class whose wrappers rename (`@Attribute("key")`) and read missing values as their
/// type's null value.
private final class Memo: ManagedObject {
    @Attribute("text") var body: String?
    @Attribute("count") var tally: Int16
    @Attribute var flag: Bool
    @Attribute var stamp: Date
}

/// `@Attribute`'s accessors are specialised in the caller's module (inlinable) over one
/// non-generic slot read and write: renamed keys, null values, coercion, change records and
/// faults must behave as through key-value coding.
@Suite struct AttributeWrapperTests {
    private static func context() throws -> ManagedObjectContext {
        let entity = EntityDescription(
            name: "Memo", managedObjectClass: Memo.self,
            properties: [
                AttributeDescription(name: "text", type: .string),
                AttributeDescription(name: "count", type: .integer16),
                AttributeDescription(name: "flag", type: .boolean),
                AttributeDescription(name: "stamp", type: .date),
            ])
        let coordinator = PersistentStoreCoordinator(
            managedObjectModel: try ManagedObjectModel(entities: [entity]))
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test func aRenamedAttributeReadsAndWritesItsKeysSlot() throws {
        let context = try Self.context()
        context.performAndWait {
            let memo = Memo(context: context)
            memo.body = "hello"
            memo.tally = 3
            #expect(memo.value(forKey: "text") as? String == "hello")
            #expect(memo.value(forKey: "count") as? Int16 == 3)
            memo.setValue("bye", forKey: "text")
            #expect(memo.body == "bye")
            #expect(memo.tally == 3)
        }
    }

    @Test func missingValuesReadAsNilOrTheTypesNullValue() throws {
        let context = try Self.context()
        context.performAndWait {
            let memo = Memo(context: context)
            #expect(memo.body == nil)
            #expect(memo.tally == 0)
            #expect(memo.flag == false)
            #expect(memo.stamp == Date(timeIntervalSince1970: 0))
            memo.body = "x"
            memo.body = nil
            #expect(memo.attributeValue(forKey: "text") == .null)
        }
    }

    @Test func writesRecordChangesOnlyWhenTheValueDiffers() throws {
        let context = try Self.context()
        try context.performAndWait {
            let memo = Memo(context: context)
            memo.tally = 5
            try context.save()
            #expect(!memo.hasChanges)
            memo.tally = 5
            #expect(!memo.hasChanges)
            memo.tally = 6
            #expect(memo.isUpdated)
            #expect(memo.changedValues()["count"] as? Int16 == 6)
            #expect(memo.committedValues(forKeys: ["count"])["count"] as? Int16 == 5)
        }
    }

    @Test func theFirstReadOfAFetchedObjectFiresItsFault() throws {
        let context = try Self.context()
        try context.performAndWait {
            let memo = Memo(context: context)
            memo.body = "kept"
            memo.flag = true
            try context.save()
            context.reset()
            let fetched = try context.fetch(FetchRequest<Memo>(entityName: "Memo"))
            #expect(fetched.count == 1)
            #expect(fetched[0].isFault)
            #expect(fetched[0].body == "kept")
            #expect(!fetched[0].isFault)
            #expect(fetched[0].flag)
        }
    }
}

/// A class whose wrapped Swift types differ from its attributes': bound in one model to
/// `level: integer16, amount: decimal`, in another to `level: integer64, amount: double`.
private final class Reading: ManagedObject {
    @Attribute var level: Int
    @Attribute var amount: Double
}

/// The setter writes a value that fits its attribute as it is and converts any other
/// (`coerced(to:)`); what the attribute cannot hold traps. Since the setter reads the
/// attribute's type from the key path's cached slot entry, the type must be each entity's own
/// (the review of `ins14`: no test bound one class to two attributes of different types).
@Suite struct AttributeWrapperConversionTests {
    private static func readings(level: AttributeType, amount: AttributeType) throws
        -> ManagedObjectContext
    {
        let entity = EntityDescription(
            name: "Reading", managedObjectClass: Reading.self,
            properties: [
                AttributeDescription(name: "level", type: level),
                AttributeDescription(name: "amount", type: amount),
            ])
        let coordinator = PersistentStoreCoordinator(
            managedObjectModel: try ManagedObjectModel(entities: [entity]))
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test func eachEntitysAttributeGetsAValueOfItsOwnType() throws {
        let decimal = try Self.readings(level: .integer16, amount: .decimal)
        let double = try Self.readings(level: .integer64, amount: .double)
        for _ in 0..<3 {
            decimal.performAndWait {
                let reading = Reading(context: decimal)
                reading.amount = 2.5
                reading.level = 7
                #expect(reading.value(forKey: "amount") as? Decimal == Decimal(2.5))
                #expect(reading.value(forKey: "level") as? Int16 == 7)
                // (Reading a decimal through a `Double` wrapper traps, as before: the getter
                // converts nothing.)
                #expect(reading.level == 7)
            }
            double.performAndWait {
                let reading = Reading(context: double)
                reading.amount = 2.5
                reading.level = 7
                #expect(reading.value(forKey: "amount") as? Double == 2.5)
                #expect(reading.value(forKey: "level") as? Int64 == 7)
                #expect(reading.amount == 2.5 && reading.level == 7)
            }
        }
    }

    @Test func aValueTheAttributeCannotHoldTrapsNamingEntityKeyAndType() async throws {
        let result = try #require(
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let context = try Self.readings(level: .integer16, amount: .decimal)
                context.performAndWait { Reading(context: context).level = 70_000 }
            })
        let message = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(message.contains("Reading.level expects a integer16 value; got"))
    }
}
