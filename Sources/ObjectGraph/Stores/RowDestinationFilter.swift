import Foundation

/// The inner test of a to-one key path (`category.name == 'Food'`), decided once per
/// destination row and remembered by the destination's entity and primary key: a scan of
/// 100,000 expenses over 20 categories runs the inner test 20 times.
///
/// Destinations that are not rows of the table (another store's or model's ID, a row
/// deleted since) are answered `nil`, which the caller turns into the node's answer for a nil relationship,
/// as ``RowRecord/toOneRecord(at:)`` does for the general evaluator.
final class RowDestinationFilter {
    /// The largest dense memo kept per entity (bytes); larger keys use a dictionary.
    private static let denseLimit: Int64 = 1 << 24

    private let test: (RowPointer) -> Bool
    private let table: RowTable
    /// Per entity index: remembered answers by primary key (0 unknown, 1 true, 2 false, 3 missing).
    @exclusivity(unchecked) private var dense: [[UInt8]]
    /// The dense memo's size per entity index, decided on first use (0 = use `sparse`).
    private var denseSize: [Int]
    private var sparse: [ManagedObjectID: UInt8] = [:]
    private let scannedRows: Int
    /// The ID scope last seen, its entity's index, and whether it is of the table's store
    /// (reading `EntityDescription.index` is checked for exclusive access, and comparing
    /// store identifiers costs more than comparing identities).
    @exclusivity(unchecked) private var lastScope: ObjectIdentifier?
    @exclusivity(unchecked) private var lastIndex = 0
    @exclusivity(unchecked) private var lastInStore = false

    init(_ test: @escaping (RowPointer) -> Bool, table: RowTable, scannedRows: Int) {
        self.test = test
        self.table = table
        self.scannedRows = scannedRows
        self.dense = Array(repeating: [], count: table.entityTables.count)
        self.denseSize = Array(repeating: -1, count: table.entityTables.count)
    }

    /// Whether the destination `id` passes the inner test; `nil` when it is not in the table.
    @inline(__always)
    func decide(_ id: ManagedObjectID) -> Bool? {
        let scope = ObjectIdentifier(id.scope)
        if scope != lastScope {
            lastScope = scope
            lastIndex = id.entity.index
            lastInStore = table.holds(id)
        }
        let e = lastIndex
        let pk = id.primaryKey
        guard e >= 0 && e < dense.count, lastInStore else { return nil }
        if pk >= 0 && pk < Int64(dense[e].count) {
            let known = dense[e][Int(pk)]
            if known != 0 { return Self.answer(known) }
        }
        return decideSlowly(id)
    }

    private static func answer(_ state: UInt8) -> Bool? {
        state == 1 ? true : state == 2 ? false : nil
    }

    private func decideSlowly(_ id: ManagedObjectID) -> Bool? {
        let e = id.entity.index
        let pk = id.primaryKey
        if denseSize[e] < 0 { denseSize[e] = denseCapacity(e) }
        let isDense = pk >= 0 && pk < Int64(denseSize[e])
        if !isDense, let known = sparse[id] { return Self.answer(known) }
        let state = evaluate(id)
        if isDense {
            if dense[e].isEmpty { dense[e] = Array(repeating: 0, count: denseSize[e]) }
            dense[e][Int(pk)] = state
        } else {
            sparse[id] = state
        }
        return Self.answer(state)
    }

    /// The dense memo size for entity `e`: its hierarchy's key range, when that is not much
    /// larger than the scan (so a small fetch never allocates a huge memo).
    private func denseCapacity(_ e: Int) -> Int {
        let entity = table.model.entities[e]
        let keys = table.nextPrimaryKey[entity.rootEntity.index]
        guard keys > 0, keys <= Self.denseLimit, keys <= 4 * Int64(scannedRows) + 4096 else {
            return 0
        }
        return Int(keys)
    }

    private func evaluate(_ id: ManagedObjectID) -> UInt8 {
        let rows = table.entityTables[id.entity.index].rows
        guard let slot = table.entityTables[id.entity.index].slotByKey[id.primaryKey],
            rows[slot] != nil
        else {
            return 3
        }
        return rows.withUnsafeBufferPointer { test($0.baseAddress! + slot) } ? 1 : 2
    }
}
