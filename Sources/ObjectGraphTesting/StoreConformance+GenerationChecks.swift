import Foundation
import ObjectGraph

extension StoreConformance {
    /// Query generations: a store that declares ``PersistentStore/supportsQueryGenerations``
    /// keeps a pinned generation readable while it changes; one that does not refuses to pin
    /// with Core Data's unsupported error.
    static let generationChecks: [Check] = [
        Check(name: "aStoreWithoutGenerationsRefusesToPinOne") { h in
            let store = try h.store()
            guard !store.supportsQueryGenerations else { return }
            try h.expectThrows(.queryGenerationsUnsupported, "pinning a generation") {
                _ = try store.currentQueryGeneration()
            }
        },
        Check(name: "aPinnedGenerationReadsTheStoreAsItWas") { h in
            let store = try h.store()
            guard store.supportsQueryGenerations else { return }
            let owner = try h.row(store, "Owner", ["name": .attribute("a")])
            let item = try h.row(store, "Item", ["owner": .toOne(owner.objectID)])
            try h.commit(store, inserted: [owner, item])
            let pinned = try store.currentQueryGeneration()
            try h.expect(
                pinned.storeIdentifier == store.identifier,
                "the generation names store \(pinned.storeIdentifier)")
            var renamed = owner
            renamed.version = 2
            renamed.values[0] = .attribute("b")
            let added = try h.row(store, "Owner", ["name": .attribute("c")])
            try h.commit(
                store, inserted: [added], updated: [renamed], deleted: [(item.objectID, 1)])
            let owners = StoreFetchRequest(entity: h.entity("Owner"))
            let names = try pinned.fetch(owners).map { $0["name"]!.attributeValue }
            try h.expect(names == ["a"], "the pinned generation fetched \(names)")
            try h.expect(try pinned.count(owners) == 1, "the pinned generation counted otherwise")
            try h.expect(try pinned.row(for: owner.objectID) == owner, "a row read at its pin")
            try h.expect(try pinned.row(for: added.objectID) == nil, "a row inserted later")
            try h.expect(try pinned.row(for: item.objectID) == item, "a row deleted later")
            let items = h.entity("Owner").relationshipsByName["items"]!
            let derived = try pinned.relatedObjectIDs(items, of: owner.objectID)
            try h.expect(derived == [item.objectID], "Owner.items at the pin was \(derived)")
            let now = try store.currentQueryGeneration()
            try h.expect(now.number > pinned.number, "a later generation's number is not greater")
            let current = try now.fetch(owners).map { $0["name"]!.attributeValue }
            try h.expect(current == ["b", "c"], "the current generation fetched \(current)")
        },
    ]
}
