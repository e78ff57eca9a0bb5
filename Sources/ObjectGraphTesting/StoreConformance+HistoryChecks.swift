import Foundation
import ObjectGraph

extension StoreConformance {
    /// Persistent history: checked in full for a store that declares it
    /// (``PersistentStore/tracksHistory``); a store that does not must refuse history calls
    /// with ``ObjectGraphError/Reason/historyNotTracked`` (134091).
    static let historyChecks: [Check] = [
        Check(name: "historyIsRefusedUnlessTracked") { h in
            let store = try h.store()
            guard !store.tracksHistory else { return }
            try h.expectThrows(.historyNotTracked, "history(after:)") {
                _ = try store.history(after: nil)
            }
            try h.expectThrows(.historyNotTracked, "deleteHistory(before:)") {
                _ = try store.deleteHistory(before: 1)
            }
            try h.expectThrows(.historyNotTracked, "currentHistoryTransactionNumber()") {
                _ = try store.currentHistoryTransactionNumber()
            }
        },
        Check(name: "everyCommitIsAHistoryTransactionInOrder") { h in
            let store = try h.store()
            guard store.tracksHistory else { return }
            let start = try store.currentHistoryTransactionNumber()
            let item = try h.row(store, "Item", ["str": .attribute("a")])
            try h.commit(store, inserted: [item])
            var changed = item
            changed.version = 2
            changed.values[item.objectID.entity.propertiesByName["i64"]!.index] = .attribute(7)
            try h.commit(store, updated: [changed])
            try h.commit(store, deleted: [(item.objectID, 2)])
            let stores = [store] + (try h.reopened(store).map { [$0] } ?? [])
            for s in stores {
                let list = try s.history(after: start)
                try h.expect(
                    list.map(\.number) == [start + 1, start + 2, start + 3],
                    "history numbers \(list.map(\.number)), expected three after \(start)")
                try h.expect(
                    list.map { $0.changes.map(\.changeType) } == [[.insert], [.update], [.delete]],
                    "change types \(list.map { $0.changes.map(\.changeType) })")
                try h.expect(
                    list[1].changes.first?.updatedProperties == ["i64"],
                    "updated properties \(String(describing: list[1].changes.first?.updatedProperties))"
                )
                try h.expect(
                    list[2].changes.first?.tombstone != nil, "a delete has no tombstone")
                try h.expect(
                    list.allSatisfy { $0.author == "conformance" && $0.contextName == h.check },
                    "author or context name not recorded")
                try h.expect(
                    try s.currentHistoryTransactionNumber() == start + 3,
                    "the current transaction number is not the last one")
            }
        },
        Check(name: "deletedHistoryExpiresItsTokens") { h in
            let store = try h.store()
            guard store.tracksHistory else { return }
            let start = try store.currentHistoryTransactionNumber()
            for name in ["a", "b", "c"] {
                try h.commit(
                    store,
                    inserted: [try h.row(store, "Owner", ["name": .attribute(.string(name))])])
            }
            _ = try store.deleteHistory(before: start + 2)
            let stores = [store] + (try h.reopened(store).map { [$0] } ?? [])
            for s in stores {
                try h.expect(
                    try s.history(after: nil).map(\.number) == [start + 2, start + 3],
                    "deleteHistory(before:) kept the wrong transactions")
                try h.expectThrows(.historyTokenExpired, "a token of a deleted transaction") {
                    _ = try s.history(after: start + 1)
                }
                try h.expect(
                    try s.history(after: start + 2).map(\.number) == [start + 3],
                    "the oldest kept token no longer works")
            }
        },
    ]
}
