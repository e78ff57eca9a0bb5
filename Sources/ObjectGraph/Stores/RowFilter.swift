import Foundation

/// A pointer to a live row in a ``RowTable``'s storage (never to `nil`).
typealias RowPointer = UnsafePointer<StoreRow?>

extension UnsafePointer where Pointee == StoreRow? {
    /// The row pointed at, read in place: reading through it copies only the values read,
    /// where `pointee!` would copy the whole row (its ID and its value array) first.
    ///
    /// A present `Optional<StoreRow>` is laid out as the row itself (the ID's entity
    /// reference has spare bit patterns that encode `nil`), which ``RowFilter`` checks once.
    @inline(__always)
    var live: UnsafePointer<StoreRow> {
        UnsafeRawPointer(self).assumingMemoryBound(to: StoreRow.self)
    }

    /// Whether ``live`` reads rows correctly on this platform.
    static var liveLayoutHolds: Bool {
        MemoryLayout<StoreRow?>.size == MemoryLayout<StoreRow>.size
            && MemoryLayout<StoreRow?>.stride == MemoryLayout<StoreRow>.stride
    }
}

/// A compiled predicate specialised for scanning a ``RowTable``: it reads the slots of rows
/// where the table keeps them, without copying rows into records.
///
/// Built from a ``CompiledPredicate``'s nodes as a tree of closures: a comparison of an
/// attribute with a constant reads the slot in place; a to-one key path
/// (`category.name == 'Food'`) is decided once per destination row and remembered by its
/// primary key (``RowDestinationFilter``); every other node (to-many key paths, subqueries,
/// functions) runs through the general evaluator on a ``RowRecord``. The answers are those
/// of ``CompiledPredicate/evaluate(_:)`` on a ``RowRecord`` exactly.
///
/// - Note: One filter serves one fetch on one thread; the rows must not change while it runs.
final class RowFilter {
    /// Whether the row matches.
    let test: (RowPointer) -> Bool
    /// Makes tests of parts of the predicate (see ``RowTable`` candidates).
    let builder: RowFilterBuilder

    init(_ predicate: CompiledPredicate, reader: RowTableReader, scannedRows: Int) {
        precondition(
            RowPointer.liveLayoutHolds, "RowFilter: Optional<StoreRow> is not laid out as StoreRow")
        predicate.cache.prepare(for: ObjectIdentifier(RowRecord.self))
        builder = RowFilterBuilder(
            general: RowGeneralEvaluator(reader: reader, predicate: predicate),
            table: reader.table, scannedRows: scannedRows)
        test = builder.make(predicate.root)
    }

    private init(test: @escaping (RowPointer) -> Bool, builder: RowFilterBuilder) {
        self.test = test
        self.builder = builder
    }

    /// A filter testing only `node`, a part of this filter's predicate (the conjuncts left
    /// once candidates have decided one).
    func narrowed(to node: PredicateNode) -> RowFilter {
        RowFilter(test: builder.make(node), builder: builder)
    }
}

/// Runs the nodes a ``RowFilter`` has no in-place form for, on a copy of the row.
final class RowGeneralEvaluator {
    let reader: RowTableReader
    private var evaluator: PredicateEvaluator<RowRecord>

    init(reader: RowTableReader, predicate: CompiledPredicate) {
        self.reader = reader
        self.evaluator = PredicateEvaluator<RowRecord>(
            cache: predicate.cache, variableCount: predicate.variableCount)
    }

    func test(_ node: PredicateNode, _ row: RowPointer) -> Bool {
        evaluator.test(node, RowRecord(reader: reader, row: row.pointee!))
    }
}

/// Turns ``PredicateNode``s into the closures of a ``RowFilter``.
struct RowFilterBuilder {
    let general: RowGeneralEvaluator
    let table: RowTable
    let scannedRows: Int

    func make(_ node: PredicateNode) -> (RowPointer) -> Bool {
        switch node {
        case .constant(let value):
            return { _ in value }
        case .and(let nodes):
            return all(nodes[...])
        case .or(let nodes):
            return any(nodes[...])
        case .not(let inner):
            let t = make(inner)
            return { !t($0) }
        case .attributeNumber(let slot, let op, let constant):
            return { row in
                guard case .attribute(let value) = row.live.pointee.values[slot] else {
                    return op.holds(constant.order(of: .null))
                }
                return op.holds(constant.order(of: value))
            }
        case .attributeString(let slot, let equal, let string):
            return { row in
                guard case .attribute(.string(let value)) = row.live.pointee.values[slot] else {
                    return !equal
                }
                return (value == string) == equal
            }
        case .attributeDate(let slot, let op, let t):
            return { row in
                guard case .attribute(.date(let d)) = row.live.pointee.values[slot] else {
                    return op.holds(.unordered)
                }
                return op.holds(PredicateNumber.order(d.timeIntervalSinceReferenceDate, t))
            }
        case .attribute(let slot, let test):
            return { row in test.test(row.live.pointee.values[slot].attributeValue) }
        case .evaluatedObject(let test):
            return { row in test.test(.object(row.live.pointee.objectID)) }
        case .toOne(let slot, let inner, let ifNil, _):
            // The inner node reads only the destination (the compiler builds it from a key
            // path and a constant), so its answer can be kept per destination.
            let destination = RowDestinationFilter(
                make(inner), table: table, scannedRows: scannedRows)
            return { row in
                guard case .toOne(let id?) = row.live.pointee.values[slot] else { return ifNil }
                return destination.decide(id) ?? ifNil
            }
        case .toMany, .general:
            let general = general
            return { row in general.test(node, row) }
        }
    }

    /// All of `nodes` (true when empty), as nested pairs: no array of closures to call
    /// through.
    private func all(_ nodes: ArraySlice<PredicateNode>) -> (RowPointer) -> Bool {
        guard let first = nodes.first else { return { _ in true } }
        let a = make(first)
        guard nodes.count > 1 else { return a }
        let b = all(nodes.dropFirst())
        return { a($0) && b($0) }
    }

    /// Any of `nodes` (false when empty), as nested pairs.
    private func any(_ nodes: ArraySlice<PredicateNode>) -> (RowPointer) -> Bool {
        guard let first = nodes.first else { return { _ in false } }
        let a = make(first)
        guard nodes.count > 1 else { return a }
        let b = any(nodes.dropFirst())
        return { a($0) || b($0) }
    }
}
