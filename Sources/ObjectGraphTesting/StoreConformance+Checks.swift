import Foundation
import ObjectGraph

extension StoreConformance {
    static let checks: [Check] = rowChecks + fetchChecks + lifecycleChecks + historyChecks

    static let rowChecks: [Check] = [
        Check(name: "anEmptyStoreHasNoRows") { h in
            let store = try h.store()
            try h.expect(try h.all(store, "Item").isEmpty, "a new store returned rows")
            try h.expect(
                try store.count(StoreFetchRequest(entity: h.entity("Owner"))) == 0,
                "a new store counted rows")
        },
        Check(name: "everyAttributeTypeRoundTripsExactly") { h in
            let store = try h.store()
            var rows: [StoreRow] = []
            for values in ConformanceModel.edgeValues {
                rows.append(try h.row(store, "Item", values.mapValues { .attribute($0) }))
            }
            try h.commit(store, inserted: rows)
            let stores = [store] + (try h.reopened(store).map { [$0] } ?? [])
            for s in stores {
                for row in rows {
                    let back = try s.row(for: row.objectID)
                    try h.expect(
                        back == row,
                        "row \(row.objectID) came back as \(String(describing: back)), not \(row)")
                }
            }
        },
        Check(name: "primaryKeysAreNeverReused") { h in
            let store = try h.store()
            let item = h.entity("Item")
            let first = try store.allocatePrimaryKeys(for: item, count: 3)
            let special = try store.allocatePrimaryKeys(for: h.entity("SpecialItem"), count: 2)
            try h.expect(
                Set(first + special).count == 5,
                "keys repeat within a hierarchy: \(first) \(special)")
            try h.commit(store, inserted: [try h.row(store, "Item", key: first[1])])
            let later = try store.allocatePrimaryKeys(for: item, count: 3)
            try h.expect(Set(later).isDisjoint(with: first + special), "keys reused: \(later)")
            if let reopened = try h.reopened(store) {
                let afterReopen = try reopened.allocatePrimaryKeys(for: item, count: 2)
                try h.expect(
                    afterReopen.allSatisfy { $0 > first[1] },
                    "reopened store reused keys: \(afterReopen)")
            }
        },
        Check(name: "anUpdateFromAStaleVersionConflictsAndChangesNothing") { h in
            let store = try h.store()
            let row = try h.row(store, "Owner", ["name": .attribute("a")])
            try h.commit(store, inserted: [row])
            var v2 = row
            v2.version = 2
            v2.values[0] = .attribute("b")
            try h.commit(store, updated: [v2])
            var stale = row
            stale.version = 2
            stale.values[0] = .attribute("c")
            try h.expectThrows(.storeSaveConflict, "stale update") {
                try h.commit(store, updated: [stale])
            }
            try h.expect(try store.row(for: row.objectID) == v2, "a refused update changed the row")
        },
        Check(name: "aDeleteFromAStaleVersionConflicts") { h in
            let store = try h.store()
            let row = try h.row(store, "Owner")
            try h.commit(store, inserted: [row])
            try h.expectThrows(.storeSaveConflict, "stale delete") {
                try h.commit(store, deleted: [(row.objectID, 7)])
            }
            try h.expect(
                try store.row(for: row.objectID) != nil, "a refused delete removed the row")
            try h.commit(store, deleted: [(row.objectID, 1)])
            try h.expect(try store.row(for: row.objectID) == nil, "a delete left the row")
        },
        Check(name: "aChangeSetAppliesWhollyOrNotAtAll") { h in
            let store = try h.store()
            let existing = try h.row(store, "Owner", ["name": .attribute("kept")])
            try h.commit(store, inserted: [existing])
            let fresh = try h.row(store, "Owner", ["name": .attribute("new")])
            var bad = existing
            bad.version = 5
            try h.expectThrows(.storeSaveConflict, "mixed change set") {
                try h.commit(store, inserted: [fresh], updated: [bad])
            }
            try h.expect(
                try store.row(for: fresh.objectID) == nil,
                "half of a refused change set was applied")
            try h.expectThrows(.storeSaveConflict, "inserting an existing ID") {
                try h.commit(store, inserted: [existing])
            }
        },
        Check(name: "aReferenceToAMissingRowIsRefusedAndNothingWritten") { h in
            let store = try h.store()
            let owner = try h.row(store, "Owner")
            let tag = try h.row(store, "Tag")
            try h.commit(store, inserted: [owner])
            let toOne = try h.row(store, "Item", ["owner": .toOne(owner.objectID)])
            try h.expectThrows(.danglingReference, "a to-one to a row the same save deletes") {
                try h.commit(store, inserted: [toOne], deleted: [(owner.objectID, 1)])
            }
            let toMany = try h.row(store, "Item", ["tags": .toMany([tag.objectID])])
            try h.expectThrows(.danglingReference, "a to-many member that was never inserted") {
                try h.commit(store, inserted: [toMany])
            }
            try h.expect(
                try h.all(store, "Item").isEmpty && store.row(for: owner.objectID) != nil,
                "a save refused for a dangling reference wrote something")
            try h.commit(store, inserted: [toOne, toMany, tag])
        },
        Check(name: "relationshipsAreKeptAndDerived") { h in
            let store = try h.store()
            let owner = try h.row(store, "Owner")
            let tag = try h.row(store, "Tag")
            let a = try h.row(
                store, "Item", ["owner": .toOne(owner.objectID), "tags": .toMany([tag.objectID])])
            let b = try h.row(store, "SpecialItem", ["owner": .toOne(owner.objectID)])
            var ownerWithFavorites = owner
            ownerWithFavorites.values[h.entity("Owner").propertiesByName["favorites"]!.index] =
                .toMany([b.objectID, a.objectID])
            var tagWithItems = tag
            tagWithItems.values[h.entity("Tag").propertiesByName["items"]!.index] = .toMany([
                a.objectID
            ])
            try h.commit(store, inserted: [ownerWithFavorites, tagWithItems, a, b])
            let items = h.entity("Owner").relationshipsByName["items"]!
            let favorites = h.entity("Owner").relationshipsByName["favorites"]!
            let stores = [store] + (try h.reopened(store).map { [$0] } ?? [])
            for s in stores {
                let derived = try s.relatedObjectIDs(items, of: owner.objectID)
                try h.expect(
                    derived == [a.objectID, b.objectID], "Owner.items derived as \(derived)")
                let ordered = try s.relatedObjectIDs(favorites, of: owner.objectID)
                try h.expect(
                    ordered == [b.objectID, a.objectID],
                    "ordered Owner.favorites came back as \(ordered)")
            }
            var moved = a
            moved.version = 2
            moved.values[h.entity("Item").propertiesByName["owner"]!.index] = .toOne(nil)
            try h.commit(store, updated: [moved])
            try h.expect(
                try store.relatedObjectIDs(items, of: owner.objectID) == [b.objectID],
                "Owner.items did not follow an update of Item.owner")
            try h.commit(store, deleted: [(b.objectID, 1)])
            try h.expect(
                try store.relatedObjectIDs(items, of: owner.objectID).isEmpty,
                "Owner.items still lists a deleted item")
        },
    ]
}
