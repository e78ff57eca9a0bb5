import Foundation

extension ObjectGraphError.Reason {
    /// 134000 (`NSPersistentStoreInvalidTypeError`): a store description names a store type
    /// no factory is registered for.
    public static let unknownStoreType = Self("unknownStoreType", code: 134000)
}

extension ObjectGraphError {
    /// ``Reason/unknownStoreType`` (134000), for `catch` clauses.
    public static var unknownStoreType: Reason { .unknownStoreType }
}

/// Factories for the errors the coordinator throws itself when opening stores.
enum CoordinatorErrors {
    static func unknownStoreType(_ type: String, url: URL?) -> ObjectGraphError {
        ObjectGraphError(
            .unknownStoreType,
            "store: unknown store type '\(EchoedText.capped(type))'; known: "
                + StoreTypes.names.joined(separator: ", "), file: url?.path)
    }

    /// A store whose rows were written with `storeModel` added where `model` is expected:
    /// 134100, naming the schema differences (or that the schemas agree but the models are
    /// two instances: rows are bound to the model instance they were written with).
    static func modelMismatch(
        storeType: String, store: String, storeModel: ManagedObjectModel,
        model: ManagedObjectModel, doing: String
    ) -> ObjectGraphError {
        let differences = SchemaComparison.differences(from: storeModel, to: model)
        let detail =
            differences.isEmpty
            ? "the schemas agree, but they are two model instances (rows belong to the instance "
                + "they were written with)"
            : differences.prefix(5).joined(separator: "; ")
                + (differences.count > 5 ? "; and \(differences.count - 5) more" : "")
        let remedy =
            storeType == InMemoryStore.storeType
            ? "a RAM store has nothing to migrate: open a new store with the new model and copy "
                + "the objects into it"
            : "open the store's file with a description instead, which migrates it"
        return ObjectGraphError(
            .incompatibleModel,
            "\(doing): the \(storeType) store \(store) holds rows of another model than the one "
                + "given (\(detail)); \(remedy). Nothing was added")
    }
}
