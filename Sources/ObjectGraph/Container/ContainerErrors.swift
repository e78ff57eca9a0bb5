import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a store description sets an option this build does not
    /// support yet (remote-change notifications).
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

    /// A store option set to a value this build cannot honour yet.
    static func unsupportedOption(_ key: String, url: URL?, why: String) -> ObjectGraphError {
        ObjectGraphError(
            .unsupportedStoreOption,
            "store \(url?.path ?? "(no URL)"): the option \(key) is not yet supported: \(why)",
            key: key, file: url?.path)
    }
}
