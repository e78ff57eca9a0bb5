import Foundation
import Testing

@testable import ObjectGraph

/// An insert of an entity whose properties are all stored attributes and to-ones moves its
/// values into its saved row without its slots being read first: whichever of its to-ones
/// hold a destination (none, one, or several in any slots), the store's row is what
/// `storeValues` makes of its slots, the object keeps that row with its destinations beside
/// it, reads them back as the same objects, and a failed commit gives it its slots back.
@Suite struct SavedInsertToOneRowTests {
    /// `Trip`: two attributes and three to-ones to `Place` (inverses derived to-manys, so
    /// `Place` is not such an entity).
    private static func model() throws -> ManagedObjectModel {
        let keys = ["from": "departures", "to": "arrivals", "via": "passes"]
        var trip: [PropertyDescription] = ["from", "to", "via"].map {
            RelationshipDescription(name: $0, destination: "Place", inverse: keys[$0]!)
        }
        trip.insert(AttributeDescription(name: "name", type: .string), at: 0)
        trip.insert(AttributeDescription(name: "day", type: .date), at: 2)
        var place: [PropertyDescription] = ["from", "to", "via"].map {
            RelationshipDescription(
                name: keys[$0]!, destination: "Trip", inverse: $0, isToMany: true)
        }
        place.insert(AttributeDescription(name: "name", type: .string), at: 0)
        return try ManagedObjectModel(entities: [
            EntityDescription(name: "Trip", properties: trip),
            EntityDescription(name: "Place", properties: place),
        ])
    }

    /// Which of `from`, `to` and `via` each trip sets: all, none, one in each slot, and two
    /// with the first left nil.
    private static let shapes: [[Bool]] = [
        [true, true, true], [false, false, false], [true, false, false], [false, true, false],
        [false, false, true], [false, true, true], [true, false, true],
    ]

    /// Longer than a small string, so that its storage is a heap object the row must hold.
    private static let longName = "a trip whose name is longer than fifteen bytes"

    /// Inserts three places and one trip per shape (each to-one it sets points at a
    /// different place); returns the places and the trips.
    private static func insert(in context: ManagedObjectContext) -> (
        places: [ManagedObject], trips: [ManagedObject]
    ) {
        let places = ["Lyon", "Turin", "Geneva"].map { name in
            let place = context.insertNewObject(forEntityName: "Place")
            place.setValue(name, forKey: "name")
            return place
        }
        let trips = shapes.enumerated().map { n, shape in
            let trip = context.insertNewObject(forEntityName: "Trip")
            trip.setValue("\(longName) \(n)", forKey: "name")
            trip.setValue(Date(timeIntervalSince1970: Double(n) * 86_400), forKey: "day")
            for (k, key) in ["from", "to", "via"].enumerated() where shape[k] {
                trip.setValue(places[(n + k) % 3], forKey: key)
            }
            return trip
        }
        return (places, trips)
    }

    /// Expects each trip to read its name, day and places as `insert` set them.
    private static func expectValues(_ trips: [ManagedObject], _ places: [ManagedObject]) {
        for (n, trip) in trips.enumerated() {
            #expect(trip.value(forKey: "name") as? String == "\(longName) \(n)")
            #expect(
                trip.value(forKey: "day") as? Date
                    == Date(timeIntervalSince1970: Double(n) * 86_400))
            for (k, key) in ["from", "to", "via"].enumerated() {
                let place = trip.value(forKey: key) as? ManagedObject
                #expect(place === (shapes[n][k] ? places[(n + k) % 3] : nil), "trip \(n).\(key)")
            }
        }
    }

    private static func sharesStoreRow(_ object: ManagedObject, _ store: any PersistentStore)
        throws -> Bool
    { try SavedInsertMoveTests.sharesStoreRow(object, store) }

    @Test(arguments: StoreKind.all)
    func everyShapeOfToOnesMovesIntoTheRowAndReadsAsItWasSet(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait { () throws in
            let (places, trips) = Self.insert(in: context)
            #expect(trips[0].entity.layout.attributeAndToOneSlotCount == 5)
            #expect(places[0].entity.layout.attributeAndToOneSlotCount == 0)
            let before = trips.map { $0.slots.map { $0 } }
            try context.save()
            for (n, trip) in trips.enumerated() {
                #expect(try Self.sharesStoreRow(trip, stack.store), "trip \(n)")
                // One destination is kept alone, several as a list in slot order.
                let destinations = Self.shapes[n].filter { $0 }.count
                #expect(trip.state.keepsResolvedRelationships == (destinations > 0))
                if case .resolvedDestination? = trip.faultSource {
                    #expect(destinations == 1, "trip \(n)")
                } else {
                    #expect(destinations != 1, "trip \(n)")
                }
                let row = try #require(try stack.store.row(for: trip.objectID))
                let expected = context.storeValues(before[n], trip.entity) { $0.objectID }
                #expect(row.values == expected, "trip \(n)")
                for (k, key) in ["from", "to", "via"].enumerated() {
                    let id = Self.shapes[n][k] ? places[(n + k) % 3].objectID : nil
                    #expect(row[key] == .toOne(id), "trip \(n).\(key)")
                }
            }
            Self.expectValues(trips, places)
            // Converted back, the slots are those the save took.
            for (trip, slots) in zip(trips, before) {
                #expect(trip.slots.count == slots.count)
                #expect(zip(trip.slots, slots).allSatisfy { $0.isSame(as: $1) })
            }
            let reopened = try stack.reopen()
            for (n, trip) in trips.enumerated() {
                let row = try #require(try reopened.store.row(for: trip.objectID))
                #expect(row["name"] == .attribute(.string("\(Self.longName) \(n)")))
            }
        }
    }

    @Test(arguments: StoreKind.all)
    func aFailedCommitGivesEveryShapeOfToOnesBackToItsSlots(_ kind: StoreKind) throws {
        let stack = try Stack(try Self.model(), on: kind, failing: true)
        let failing = try #require(stack.store as? FailingStore)
        let context = stack.context()
        try context.performAndWait { () throws in
            let (places, trips) = Self.insert(in: context)
            let ids = trips.map(\.objectID)
            let changed = trips.map(\.changedSlots)
            let before = trips.map { $0.slots.map { $0 } }
            failing.failing = true
            #expect(throws: ObjectGraphError.self) { try context.save() }
            for (n, trip) in trips.enumerated() {
                #expect(trip.rowValues == nil && trip.isInserted, "trip \(n)")
                #expect(!trip.state.keepsResolvedRelationships && trip.faultSource == nil)
                #expect(trip.objectID == ids[n] && trip.changedSlots == changed[n])
                #expect(trip.slots.count == before[n].count)
                #expect(zip(trip.slots, before[n]).allSatisfy { $0.isSame(as: $1) })
            }
            Self.expectValues(trips, places)
            failing.failing = false
            try context.save()
            for trip in trips { #expect(try Self.sharesStoreRow(trip, stack.store)) }
            Self.expectValues(trips, places)
        }
    }
}
