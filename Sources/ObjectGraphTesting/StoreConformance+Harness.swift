import Foundation
import ObjectGraph

extension StoreConformance {
    /// What a check body gets: fresh stores and assertion helpers.
    struct Harness {
        let suite: StoreConformance
        let check: String
        let model = ConformanceModel.make()

        func store() throws -> any PersistentStore { try suite.makeStore(model) }

        func reopened(_ store: any PersistentStore) throws -> (any PersistentStore)? {
            try suite.reopen?(store, model)
        }

        func entity(_ name: String) -> EntityDescription { model.entitiesByName[name]! }

        func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition {
                throw ConformanceFailure(check: "\(suite.name).\(check)", message: message())
            }
        }

        func expectThrows(
            _ reason: ObjectGraphError.Reason, _ what: String, _ body: () throws -> Void
        ) throws {
            do {
                try body()
            } catch let error as ObjectGraphError {
                try expect(error.reason == reason, "\(what): expected \(reason), got \(error)")
                return
            } catch {
                throw ConformanceFailure(
                    check: "\(suite.name).\(check)",
                    message: "\(what): expected ObjectGraphError \(reason), got \(error)")
            }
            throw ConformanceFailure(
                check: "\(suite.name).\(check)",
                message: "\(what): expected \(reason), nothing thrown")
        }

        /// A row of `entity` with the given values (others null / empty).
        func row(
            _ store: any PersistentStore, _ entityName: String, version: Int64 = 1,
            key: Int64? = nil,
            _ values: [String: StoreValue] = [:]
        ) throws -> StoreRow {
            let entity = self.entity(entityName)
            let pk = try key ?? store.allocatePrimaryKeys(for: entity, count: 1)[0]
            let id = ManagedObjectID(
                entity: entity, storeIdentifier: store.identifier, primaryKey: pk)
            let slots = entity.properties.map { p -> StoreValue in
                if let v = values[p.name] { return v }
                if let r = p as? RelationshipDescription {
                    if !r.isStoredInRow { return .notStored }
                    return r.isToMany ? .toMany([]) : .toOne(nil)
                }
                return .attribute(.null)
            }
            return StoreRow(objectID: id, version: version, values: slots)
        }

        func commit(
            _ store: any PersistentStore, inserted: [StoreRow] = [], updated: [StoreRow] = [],
            deleted: [(objectID: ManagedObjectID, version: Int64)] = []
        ) throws {
            try store.commit(
                StoreChangeSet(
                    inserted: inserted, updated: updated, deleted: deleted,
                    author: "conformance", contextName: check,
                    timestamp: Date(timeIntervalSince1970: 1_700_000_000)))
        }

        func all(_ store: any PersistentStore, _ entityName: String, subentities: Bool = true)
            throws -> [StoreRow]
        {
            try store.fetch(
                StoreFetchRequest(entity: entity(entityName), includesSubentities: subentities))
        }
    }

    struct Check: Sendable {
        let name: String
        let body: @Sendable (Harness) throws -> Void
    }
}
