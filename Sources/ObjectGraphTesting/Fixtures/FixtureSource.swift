import Foundation
import ObjectGraph

/// One fixture document: its bytes and the name errors use for it.
///
/// ```swift
/// let source = try FixtureSource(contentsOf: url)                  // named by its path
/// let inline = FixtureSource(data: Data(json.utf8), name: "inline")
/// ```
public struct FixtureSource: Sendable {
    /// The document's UTF-8 JSON bytes.
    public var data: Data
    /// The file name (or any label) errors name; `nil` gives messages without one.
    public var name: String?

    /// A document held in memory.
    public init(data: Data, name: String? = nil) {
        self.data = data
        self.name = name
    }

    /// The document in the file at `url`, named by the file's path.
    ///
    /// - Throws: ``ObjectGraphError`` 134060 when the file cannot be read.
    public init(contentsOf url: URL) throws {
        do {
            self.data = try InputFile.contents(of: url)
        } catch {
            throw FixtureErrors.unreadable(url, error)
        }
        self.name = url.path
    }
}
