import Foundation

/// What ``JSONLinesStore/repair(at:options:salvaging:)`` did.
public struct JSONLinesStoreRepair: Sendable, Equatable {
    /// The first damaged (or incomplete) line, or `nil` when nothing needed repair.
    public let firstDamagedLine: Int?
    /// Why that line was set aside.
    public let reason: String?
    /// Complete lines kept, the header included (for a salvage: the new file's lines).
    public let keptLines: Int
    /// The repaired file's size in bytes.
    public let keptBytes: Int
    /// Bytes moved to ``sidecarURL`` (for a salvage: the whole original file, copied there).
    public let movedBytes: Int
    /// Snapshot rows the header no longer announces (damage inside the snapshot).
    public let droppedSnapshotRows: Int
    /// Where the damaged part went (`FILE.corrupt-YYYYMMDDTHHMMSSZ`), or `nil`.
    public let sidecarURL: URL?
    /// Whether the file was salvaged: rewritten as a snapshot of every change that could be
    /// kept from the intact lines, before and after the damage.
    public var salvaged = false
    /// Every damaged line a salvage found (it reads past the first), in file order.
    public var damagedLines: [Int] = []
    /// What a salvage could not keep, in file order, one entry each: a damaged line (its
    /// changes are lost), a change that needed one of them (an update or delete of a row that
    /// never arrived, an insert of a row that exists), a reference cleared because its target
    /// is not there or does not point back, missing transaction numbers, an incomplete last
    /// line. Empty for a plain repair.
    public var skipped: [String] = []
    /// The rows the repaired file holds, when a salvage counted them.
    public var rowCount: Int?

    /// Whether anything was moved aside.
    public var didRepair: Bool { sidecarURL != nil }
}
