import Foundation
import ObjectGraph

extension StoreConformance {
    static let fetchChecks: [Check] = [
        Check(name: "fetchesWithoutSortComeInPrimaryKeyOrderEntityByEntity") { h in
            let store = try h.store()
            let keys = try store.allocatePrimaryKeys(for: h.entity("Item"), count: 4)
            let rows = [
                try h.row(store, "Item", key: keys[2]),
                try h.row(store, "SpecialItem", key: keys[0]),
                try h.row(store, "Item", key: keys[1]), try h.row(store, "Item", key: keys[3]),
            ]
            try h.commit(store, inserted: rows)
            let order = try h.all(store, "Item").map(\.objectID.primaryKey)
            try h.expect(
                order == [keys[1], keys[2], keys[3], keys[0]], "stable order was \(order)")
            let only = try h.all(store, "Item", subentities: false).map(\.objectID.primaryKey)
            try h.expect(
                only == [keys[1], keys[2], keys[3]], "includesSubentities=false gave \(only)")
        },
        Check(name: "fetchesFilterSortAndWindow") { h in
            let store = try h.store()
            let owner = try h.row(store, "Owner", ["name": .attribute("Food")])
            var rows = [owner]
            for i in 0..<10 {
                rows.append(
                    try h.row(
                        store, "Item",
                        [
                            "i32": .attribute(.integer(Int64(i % 4))),
                            "str": .attribute(.string("n\(i)")),
                            "owner": .toOne(i % 2 == 0 ? owner.objectID : nil),
                        ]))
            }
            try h.commit(store, inserted: rows)
            var request = StoreFetchRequest(entity: h.entity("Item"))
            request.predicate = try FetchPredicate(format: "i32 >= 2 AND owner.name == 'Food'")
            request.sortDescriptors = [FetchSortDescriptor(key: "str", ascending: false)]
            let names = try store.fetch(request).map { $0["str"]!.attributeValue }
            try h.expect(names == ["n6", "n2"], "filtered and sorted names were \(names)")
            request.predicate = nil
            request.fetchOffset = 2
            request.fetchLimit = 3
            let window = try store.fetch(request).map { $0["str"]!.attributeValue }
            try h.expect(window == ["n7", "n6", "n5"], "offset 2 limit 3 gave \(window)")
            try h.expect(try store.count(request) == 3, "count ignored the window")
            request.fetchOffset = 20
            try h.expect(try store.fetch(request).isEmpty, "an offset past the end returned rows")
        },
        Check(name: "nilSortsFirstWhenAscending") { h in
            let store = try h.store()
            try h.commit(
                store,
                inserted: [
                    try h.row(store, "Item", ["str": .attribute("b")]), try h.row(store, "Item"),
                    try h.row(store, "Item", ["str": .attribute("a")]),
                ])
            var request = StoreFetchRequest(entity: h.entity("Item"))
            request.sortDescriptors = [FetchSortDescriptor(key: "str")]
            let values = try store.fetch(request).map { $0["str"]!.attributeValue }
            try h.expect(values == [.null, "a", "b"], "ascending order was \(values)")
        },
    ]

    static let lifecycleChecks: [Check] = [
        Check(name: "aContextSavesAndRefetchesThroughTheStore") { h in
            let store = try h.store()
            let coordinator = PersistentStoreCoordinator(managedObjectModel: h.model)
            try coordinator.addPersistentStore(store)
            let context = ManagedObjectContext(
                concurrencyType: .privateQueue, coordinator: coordinator)
            try context.performAndWait {
                let owner = context.insertNewObject(forEntityName: "Owner")
                owner.setValue("Ann", forKey: "name")
                let item = context.insertNewObject(forEntityName: "Item")
                item.setValue(owner, forKey: "owner")
                item.setValue(Decimal(string: "12.50"), forKey: "dec")
                try context.save()
                try h.expect(!owner.objectID.isTemporaryID, "save left a temporary ID")
                context.reset()
                let owners = try context.fetch(FetchRequest<ManagedObject>(entityName: "Owner"))
                try h.expect(owners.count == 1, "fetched \(owners.count) owners")
                let items = owners[0].value(forKey: "items") as? Set<ManagedObject> ?? []
                try h.expect(items.count == 1, "the derived to-many held \(items.count) items")
                try h.expect(
                    items.first?.value(forKey: "dec") as? Decimal == Decimal(string: "12.50"),
                    "the decimal came back as \(String(describing: items.first?.value(forKey: "dec")))"
                )
            }
        }
    ]
}
