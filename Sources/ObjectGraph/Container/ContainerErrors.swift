import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a store description sets an option this build cannot
    /// honour. Every option of Core Data's that ObjectGraph knows is honoured today (history
    /// tracking and remote-change notifications included); the reason stays for code that
    /// matches it.
    public static let unsupportedStoreOption = Self("unsupportedStoreOption", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/unsupportedStoreOption`` (134060), for `catch` clauses.
    public static var unsupportedStoreOption: Reason { .unsupportedStoreOption }
}

/// Factories for the errors a container reports while loading its stores.
enum ContainerErrors {
    /// No model named `name` in any of the places searched, listed in order.
    static func modelNotFound(_ name: String, searched: [URL]) -> ObjectGraphError {
        ObjectGraphError(
            .modelNotFound,
            "container: no data model named \(EchoedText.capped(name)) found; looked for "
                + searched.map(\.path).joined(separator: ", "))
    }
}
