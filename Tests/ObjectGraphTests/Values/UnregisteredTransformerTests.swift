import Foundation
import ObjectGraph
import ObjectGraphTesting
import Testing

/// A model naming a transformer nobody registered still loads (with a warning), stores,
/// fixtures and the seeder work with its values as opaque bytes, and only reading a value as
/// its transformed type fails, naming the transformer. Files written before transformers
/// were honoured (Xcode transformables read as binaryData) still open.
@Suite struct UnregisteredTransformerTests {
    private func context(_ model: ManagedObjectModel, _ store: any PersistentStore) throws
        -> ManagedObjectContext
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    @Test(arguments: StoreKind.all)
    func valuesStayBytesAndTypedReadsNameTheTransformer(_ kind: StoreKind) throws {
        let name = TransformerModel.uniqueName("MissingTransformer")
        let model = try TransformerModel.make(transformer: name)
        #expect(model.loadWarnings.contains { $0.contains("Item.payload") && $0.contains(name) })
        let store = try kind.open(model)
        let context = try context(model, store)
        let bytes = SwatchTransformer.marker + Data("1.0,0.0,0.5".utf8)
        try context.performAndWait { () throws in
            let item = context.insertNewObject(forEntityName: "Item")
            item.setValue("opaque", forKey: "name")
            item.setValue(bytes, forKey: "payload")
            try context.save()
        }
        let fresh = try self.context(model, try kind.reopen(store, model))
        try fresh.performAndWait { () throws in
            let item = try #require(try fresh.fetch(FetchRequest<Item>(entityName: "Item")).first)
            #expect(item.value(forKey: "payload") as? Data == bytes)
            #expect(try item.transformedValue(forKey: "payload", as: Data.self) == bytes)
            let error = expectNSError {
                _ = try item.transformedValue(forKey: "payload", as: Swatch.self)
            }
            #expect(error?.code == 134060)
            #expect(error?.localizedDescription.contains("'\(name)' is not registered") == true)

            // Registered later, it is found when a value is read.
            AttributeValueTransformer.setValueTransformer(SwatchTransformer(), forName: name)
            defer { AttributeValueTransformer.setValueTransformer(nil, forName: name) }
            let swatch = Swatch(red: 1, green: 0, blue: 0.5)
            #expect(item.payload == swatch)
            #expect(item.value(forKey: "payload") as? Swatch == swatch)
        }
    }

    @Test(arguments: StoreKind.all)
    func fixturesAndTheSeederKeepOpaqueBytes(_ kind: StoreKind) throws {
        let name = TransformerModel.uniqueName("MissingTransformer")
        let model = try TransformerModel.make(transformer: name)
        let store = try kind.open(model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        let json = #"{ "Item": [ { "name": "fixture", "payload": "AAEC" } ] }"#
        _ = try FixtureLoader(model: model).load(
            FixtureSource(data: Data(json.utf8), name: "items.json"), into: coordinator)
        try PreviewSeeder(model: model, seed: 2).generate(objectsPerEntity: 3, into: coordinator)
        // The bytes are the store's: they come back the same after reopening it.
        let context = try context(model, try kind.reopen(store, model))
        try context.performAndWait { () throws in
            let r = FetchRequest<Item>(entityName: "Item")
            r.predicate = try FetchPredicate(format: "name == 'fixture'")
            let item = try #require(try context.fetch(r).first)
            #expect(item.value(forKey: "payload") as? Data == Data([0, 1, 2]))
            #expect(try context.count(for: FetchRequest<Item>(entityName: "Item")) == 4)
        }
    }

    /// A store file written when the Xcode reader kept transformables as binaryData (so its
    /// header holds those version hashes) opens with the model read now, bytes intact.
    @Test func aFileWrittenWithTransformablesAsBinaryDataStillOpens() throws {
        let url = TemporaryStoreFiles.next("legacy-transformable")
        let old = try TransformerModel.make(transformer: nil, transformablesAs: .binaryData)
        let store = try JSONLinesStore(model: old, url: url)
        let context = try context(old, store)
        try context.performAndWait { () throws in
            let item = context.insertNewObject(forEntityName: "Item")
            item.setValue("old", forKey: "name")
            item.setValue(Data(#"{"k":"v"}"#.utf8), forKey: "payload")
            try context.save()
        }
        store.close()
        let model = try TransformerModel.make(transformer: nil)
        #expect(model.entityVersionHashesByName != old.entityVersionHashesByName)
        let reopened = try self.context(model, try JSONLinesStore(model: model, url: url))
        try reopened.performAndWait { () throws in
            let item = try #require(
                try reopened.fetch(FetchRequest<Item>(entityName: "Item")).first)
            #expect(
                try item.transformedValue(forKey: "payload", as: [String: String].self) == [
                    "k": "v"
                ])
        }
        // A really different model is still refused.
        let other = try TransformerModel.make(transformer: nil, transformablesAs: .string)
        #expect(throws: ObjectGraphError.self) { try JSONLinesStore(model: other, url: url) }
    }

    /// Regression: a transformer named on an attribute that is not transformable was
    /// accepted without a word. Core Data uses `valueTransformerName` only for transformable
    /// attributes, so the model loads, keeps the name, and says it is not used.
    @Test func aTransformerOnAnAttributeThatIsNotTransformableLoadsWithAWarning() throws {
        let model = try ManagedObjectModel(entities: [
            EntityDescription(
                name: "Note",
                properties: [
                    AttributeDescription(
                        name: "body", type: .string, valueTransformerName: "SomeTransformer")
                ])
        ])
        #expect(
            model.entitiesByName["Note"]?.attributesByName["body"]?.valueTransformerName
                == "SomeTransformer")
        #expect(
            model.loadWarnings == [
                "Note.body names the value transformer 'SomeTransformer' but its type is string, "
                    + "not transformable: the transformer is not used"
            ])
    }
}
