import Foundation

/// Where a store file ended when its writer last recorded it: the store, the number of the
/// last committed transaction and the file's length. A writer keeps it in the second line of
/// `FILE.lock` (`end T LENGTH STORE-ID`), so that a reader can notice a file cut at a line
/// boundary, which reads as a valid shorter store (<doc:StoreFileFormat#65-The-end-record>).
struct StoreEndRecord: Equatable, Sendable {
    var store: String
    var transaction: Int64
    var length: Int

    /// `end T LENGTH STORE-ID`.
    var line: String { "end \(transaction) \(length) \(store)" }

    init(store: String, transaction: Int64, length: Int) {
        self.store = store
        self.transaction = transaction
        self.length = length
    }

    /// Parses `end T LENGTH STORE-ID`; `nil` for any other line.
    init?(line: String) {
        let parts = line.split(separator: " ", maxSplits: 3)
        guard parts.count == 4, parts[0] == "end", let t = Int64(parts[1]), t >= 0,
            let length = Int(parts[2]), length >= 0, !parts[3].isEmpty
        else { return nil }
        self.init(store: String(parts[3]), transaction: t, length: length)
    }
}
