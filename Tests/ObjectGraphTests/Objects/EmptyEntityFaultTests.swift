import Foundation
import ObjectGraph
import Testing

/// An entity without properties (a marker, a tag whose only meaning is its relationships'
/// other end) is a fault only when a non-empty entity's object would be: Apple's `isFault`
/// documentation ("if this property is false, then the receiver's data must be in memory"),
/// and a saved object stays realised. Its slots are empty either way, which read as a fault
/// after a save (the stop 40 note's "flips between fault and not fault").
@Suite struct EmptyEntityFaultTests {
    static func model() throws -> ManagedObjectModel {
        try ManagedObjectModel(entities: [EntityDescription(name: "Marker", properties: [])])
    }

    @Test(arguments: StoreKind.all)
    func aSavedObjectWithoutPropertiesIsNotAFaultUntilRefreshed(_ kind: StoreKind) throws {
        let stack = try Stack(Self.model(), on: kind)
        let context = stack.context()
        try context.performAndWait {
            let marker = context.insertNewObject(forEntityName: "Marker")
            #expect(!marker.isFault)
            try context.save()
            #expect(!marker.isFault, "a saved object stays realised")
            #expect(marker.committedValues(forKeys: nil).isEmpty)
            #expect(!marker.isFault)
            context.refresh(marker, mergeChanges: false)
            #expect(marker.isFault, "refresh(_:mergeChanges: false) turns it into a fault")
            #expect(marker.committedValues(forKeys: nil).isEmpty)
            #expect(!marker.isFault, "reading its values fires the fault")
        }
    }

    @Test(arguments: StoreKind.all)
    func aFetchedObjectWithoutPropertiesIsAFaultOnlyWhenFetchedAsOne(_ kind: StoreKind) throws {
        let stack = try Stack(Self.model(), on: kind)
        let id = try stack.seed("Marker", [:])
        let context = stack.context()
        try context.performAndWait {
            let filled = FetchRequest<ManagedObject>(entityName: "Marker")
            filled.returnsObjectsAsFaults = false
            let marker = try #require(try context.fetch(filled).first)
            #expect(!marker.isFault)
            #expect(marker.changedValues().isEmpty)
            #expect(marker.committedValues(forKeys: nil).isEmpty)
            #expect(!marker.isFault)
            // Refreshing an object without changes turns it into a fault, merging or not.
            context.refresh(marker, mergeChanges: true)
            #expect(marker.isFault)
        }
        let other = stack.context()
        try other.performAndWait {
            let faulted = try #require(
                try other.fetch(FetchRequest<ManagedObject>(entityName: "Marker")).first)
            #expect(faulted.isFault, "fetched as a fault by default")
            // existingObject(with:) never returns a fault (Apple's documentation).
            #expect(!(try other.existingObject(with: id)).isFault)
        }
    }
}
