import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PersistentContainer {
    /// The directory to create before opening the store at `url`: the store's directory when
    /// it is missing and is `defaultDirectory()` (standardized), else `nil`.
    ///
    /// A directory that exists (or any file at its path) needs nothing created, as creating it
    /// with intermediate directories would do nothing there (or fail, which loading ignores):
    /// it is looked up first, with one `access(2)`, and the default directory is found only
    /// for a missing one. Finding it reads the environment and builds URLs, about 0.8 M
    /// instructions, 1 % of reopening a 20,000-row file store.
    static func directoryToCreate(for url: URL, defaultDirectory: () -> URL) -> URL? {
        guard url.isFileURL, url.path != "/dev/null" else { return nil }
        let directory = url.deletingLastPathComponent()
        if access(directory.path, F_OK) == 0 { return nil }
        guard
            directory.standardizedFileURL.path == defaultDirectory().standardizedFileURL.path
        else { return nil }
        return directory
    }
}
