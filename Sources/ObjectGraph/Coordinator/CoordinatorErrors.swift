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
}
