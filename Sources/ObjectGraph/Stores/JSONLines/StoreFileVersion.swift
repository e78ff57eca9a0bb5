import Foundation

/// The versions of the store file format, and what changes between them (the table in
/// <doc:StoreFileFormat#0-Versions>). A reader reads every version up to ``current``; a
/// writer writes ``current`` only, and upgrades an older file (rewriting it as a snapshot)
/// when it opens it, before its first write. A file of a newer version is refused with a
/// message saying so.
enum StoreFileVersion {
    /// The version this library writes.
    static let current = 6
    /// The versions this library reads.
    static let readable = 1...current

    /// Version 6 adds batch lines: a transaction's `batch` member records a batch update as
    /// the update itself (the request's entity, its assignments, the rows as runs of
    /// consecutive keys), replayed by evaluating the assignments on those rows (``BatchLine``).
    ///
    /// Version 5 adds partial rows to a transaction's `upd`: `[entity, pk, version,
    /// {column: value, …}]`, the changed stored slots only, applied to the row they update.
    ///
    /// Version 4 adds persistent history: the header's `history` member, history lines
    /// (`h`) after the snapshot, retention lines (`retain`), and the `bundle` and `pid` members
    /// of transaction lines.
    ///
    /// Version 3 adds the header's `metadata` member (the store's metadata, an object);
    /// versions 1 and 2 have none (read as `{}`).
    ///
    /// Version 1 wrote instants (`date` values, the header's `created` and `compacted`, a
    /// transaction's `at`) as seconds since 1970 as a `Double`, which cannot hold every
    /// `Date` exactly (`Date` counts from 2001); version 2 writes seconds since 2001, which
    /// round-trips every `Date` bit for bit.
    static func datesSince1970(_ version: Int) -> Bool { version < 2 }

    /// Appends `date` as a file of `version` writes instants.
    static func write(_ date: Date, version: Int, to w: JSONByteWriter) {
        AttributeValue.write(
            double: datesSince1970(version)
                ? date.timeIntervalSince1970 : date.timeIntervalSinceReferenceDate, to: w)
    }

    /// Reads an instant as a file of `version` writes it.
    static func readDate(_ s: inout JSONScanner, version: Int) throws -> Date {
        let seconds = try AttributeValue.readDouble(&s)
        return datesSince1970(version)
            ? Date(timeIntervalSince1970: seconds) : Date(timeIntervalSinceReferenceDate: seconds)
    }
}
