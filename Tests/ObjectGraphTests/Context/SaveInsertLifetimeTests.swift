import Foundation
import Testing

@testable import ObjectGraph

/// A root save reads its inserts unretained where the plan's array holds them (the rows built
/// from them, the constraint check's walk): each saved object is held by what held it before
/// the save and nothing more, so that it lives while the context keeps it and is freed once
/// the context lets it go (no reference lost or leaked).
@Suite struct SaveInsertLifetimeTests {
    @Test func savedInsertsLiveWhileTheContextKeepsThemAndGoWhenItLetsGo() throws {
        let model = try IntegrityModels.upsert()
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(with: PersistentStoreDescription())
        let context = ManagedObjectContext(
            concurrencyType: .privateQueue, coordinator: coordinator)
        let tag = try #require(model.entitiesByName["Tag"])
        let note = try #require(model.entitiesByName["Note"])
        let weak = try context.performAndWait {
            context.retainsRegisteredObjects = true
            var weak: [WeakObject] = []
            // Tags (a constrained entity: the constraint check lists them), then notes (not
            // constrained), each naming a tag.
            do {
                var tags: [ManagedObject] = []
                for i in 0..<10 {
                    let object = ManagedObject(entity: tag, insertInto: context)
                    object.setValue("t\(i)", forKey: "name")
                    tags.append(object)
                    weak.append(WeakObject(object))
                }
                for i in 0..<30 {
                    let object = ManagedObject(entity: note, insertInto: context)
                    object.setValue("n\(i)", forKey: "text")
                    object.setValue(tags[i % 10], forKey: "tag")
                    weak.append(WeakObject(object))
                }
            }
            try context.save()
            return weak
        }
        // The context holds them alone now, saved under permanent IDs.
        context.performAndWait {
            #expect(weak.allSatisfy { $0.object.map { !$0.objectID.isTemporaryID } == true })
            #expect(context.registeredObjects.count == 40)
        }
        #expect(try coordinator.persistentStores[0].count(StoreFetchRequest(entity: note)) == 30)
        context.performAndWait { context.reset() }
        #expect(weak.allSatisfy { $0.object == nil })
    }
}
