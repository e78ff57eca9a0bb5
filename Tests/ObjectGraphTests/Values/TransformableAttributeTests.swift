import Foundation
import ObjectGraph
import Testing

/// Transformable attributes honour `valueTransformerName`: Apple's documentation of
/// `NSAttributeDescription.valueTransformerName` and FreeCoreData's Apple-run
/// `Tests/NSTransformableAttributeTests.m` (`testCustomTransformerIsUsedBySQLiteStore`: the
/// store holds the transformer's bytes, saving calls `transformedValue:` and fetching from a
/// fresh stack calls `reverseTransformedValue:`).
@Suite struct TransformableAttributeTests {
    private func stack(_ model: ManagedObjectModel, _ kind: StoreKind) throws -> (
        ManagedObjectContext, any PersistentStore
    ) {
        let store = try kind.open(model)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(store)
        return (
            ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator), store
        )
    }

    private func reopened(
        _ store: any PersistentStore, _ model: ManagedObjectModel, _ kind: StoreKind
    )
        throws -> ManagedObjectContext
    {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: model)
        try coordinator.addPersistentStore(try kind.reopen(store, model))
        return ManagedObjectContext(concurrencyType: .privateQueue, coordinator: coordinator)
    }

    private func fetchItems(_ context: ManagedObjectContext) throws -> [Item] {
        let r = FetchRequest<Item>(entityName: "Item")
        r.sortDescriptors = [FetchSortDescriptor(key: "name")]
        return try context.fetch(r)
    }

    @Test(arguments: StoreKind.all)
    func aRegisteredTransformerMakesTheBytesTheStoreKeeps(_ kind: StoreKind) throws {
        let name = TransformerModel.uniqueName("SwatchTransformer")
        let transformer = SwatchTransformer()
        AttributeValueTransformer.setValueTransformer(transformer, forName: name)
        defer { AttributeValueTransformer.setValueTransformer(nil, forName: name) }
        let model = try TransformerModel.make(transformer: name)
        #expect(model.loadWarnings.isEmpty)
        let (context, store) = try stack(model, kind)
        let swatch = Swatch(red: 0.5, green: 0.25, blue: 1)
        try context.performAndWait { () throws in
            let item = Item(context: context)
            item.name = "custom"
            item.payload = swatch
            #expect(transformer.forward.value >= 1)
            try context.save()
        }
        let row = try #require(
            try store.fetch(StoreFetchRequest(entity: model[entityName: "Item"]!)).first)
        guard case .transformable(let bytes) = row["payload"]?.attributeValue else {
            Issue.record("the store keeps \(String(describing: row["payload"]))")
            return
        }
        #expect(bytes.starts(with: SwatchTransformer.marker))
        if let url = store.url {
            let file = try String(contentsOf: url, encoding: .utf8)
            #expect(file.contains(SwatchTransformer.marker.base64EncodedString()))
        }
        let before = transformer.reverse.value
        let fresh = try reopened(store, model, kind)
        try fresh.performAndWait { () throws in
            let item = try #require(try fetchItems(fresh).first)
            #expect(item.payload == swatch)
            #expect(item.value(forKey: "payload") as? Swatch == swatch)
            #expect(try item.transformedValue(forKey: "payload", as: Swatch.self) == swatch)
            #expect(try item.transformedValue(forKey: "payload", as: Data.self) == bytes)
            #expect(transformer.reverse.value > before)
            let wrongType = expectNSError {
                _ = try item.transformedValue(forKey: "payload", as: Int.self)
            }
            #expect(wrongType?.localizedDescription.contains(name) == true)
        }
    }

    /// No transformer name: the Codable default keeps a value as its JSON.
    @Test(arguments: StoreKind.all)
    func theCodableDefaultKeepsJSON(_ kind: StoreKind) throws {
        let model = try TransformerModel.make(transformer: nil)
        let (context, store) = try stack(model, kind)
        try context.performAndWait { () throws in
            let item = Item(context: context)
            item.name = "tagged"
            item.tags = ["b", "a"]
            item.setValue(["x": 1], forKey: "payload")
            try context.save()
        }
        let fresh = try reopened(store, model, kind)
        try fresh.performAndWait { () throws in
            let item = try #require(try fetchItems(fresh).first)
            #expect(item.tags == ["b", "a"])
            #expect(item.value(forKey: "tags") as? Data == Data(#"["b","a"]"#.utf8))
            #expect(
                try item.transformedValue(forKey: "payload", as: [String: Int].self) == ["x": 1])
            let undecodable = expectNSError {
                _ = try item.transformedValue(forKey: "tags", as: [Int].self)
            }
            #expect(undecodable?.code == 134060)
            item.tags = nil
            #expect(item.tags == nil)
        }
    }

    /// Foundation's archiving transformers (Xcode's default name) stand for the Codable
    /// default on Linux, with no warning.
    @Test func foundationsArchivingNamesUseTheCodableDefault() throws {
        let model = try TransformerModel.make(transformer: "NSSecureUnarchiveFromData")
        #expect(model.loadWarnings.isEmpty)
        let (context, _) = try stack(model, .inMemory)
        try context.performAndWait { () throws in
            let item = context.insertNewObject(forEntityName: "Item")
            item.setValue(["k": "v"], forKey: "payload")
            #expect(
                try item.transformedValue(forKey: "payload", as: [String: String].self) == [
                    "k": "v"
                ])
        }
    }

    /// `AttributeValueTransformer` has Foundation's registry and defaults.
    @Test func theRegistryAndDefaultsAreFoundations() {
        let name = TransformerModel.uniqueName("Registry")
        #expect(AttributeValueTransformer.valueTransformer(forName: name) == nil)
        let t = SwatchTransformer()
        AttributeValueTransformer.setValueTransformer(t, forName: name)
        #expect(AttributeValueTransformer.valueTransformer(forName: name) === t)
        #expect(AttributeValueTransformer.valueTransformerNames().contains(name))
        AttributeValueTransformer.setValueTransformer(nil, forName: name)
        #expect(AttributeValueTransformer.valueTransformer(forName: name) == nil)
        let identity = AttributeValueTransformer()
        #expect(AttributeValueTransformer.allowsReverseTransformation())
        #expect(AttributeValueTransformer.transformedValueClass() is Data.Type)
        #expect(identity.transformedValue(5) as? Int == 5)
        #expect(identity.reverseTransformedValue("x") as? String == "x")
        let codable = CodableValueTransformer<[Int]>()
        let bytes = codable.transformedValue([1, 2]) as? Data
        #expect(bytes == Data("[1,2]".utf8))
        #expect(codable.reverseTransformedValue(bytes) as? [Int] == [1, 2])
        #expect(codable.transformedValue("not an array") == nil)
    }

    /// A Foundation predicate naming a `@Transformable` property is read by a key-path probe
    /// (which once reached the wrapper's "no such attribute" trap): the property alone
    /// resolves to its key, and a predicate on it is kept for the stored value.
    @Test func aFoundationPredicateProbesATransformableWithoutTrapping() throws {
        let predicate = #Predicate<Item> { $0.tags == nil }
        let converted = try FetchPredicate(translating: predicate)
        #expect(converted == (try FetchPredicate(format: "tags == nil")))
    }
}
