import Foundation

/// Reads the placements of one fetch's objects from the rows the fetch made them from, reading
/// a key path through a to-one once per destination rather than once per object.
///
/// Gives exactly what ``FetchedKeyReader/placement(of:row:sequence:readsRowAlways:)`` gives
/// for each object: while an object is read from its row (a fault, or `readsRowAlways`), a
/// key path `r.…` starts at the destination the row names, and everything after that first
/// step depends on the destination alone (its pending changes included), so it is read for
/// the first object naming that destination and remembered for the others. Objects read as
/// they are (loaded ones) go through the general reader. The memos live for one fetch only:
/// nothing changes in the context while its results are laid out (issue 19: `performFetch()`
/// with sections through a to-one within 1.2× a plain fetch, as the store's
/// `RowDestinationFilter` reads a predicate's destinations once).
struct FetchedRowKeyReader {
    let reader: FetchedKeyReader
    /// The context the objects were fetched in (whose registered objects the rows name).
    let context: ManagedObjectContext
    /// One column per sort descriptor.
    private var columns: [FetchedKeyColumn]
    /// The section key's column, or `nil` without a section key path or when it reads the
    /// first sort descriptor's key path (the name then comes from that key).
    private var sectionColumn: FetchedKeyColumn?
    /// Whether the section name is the first sort key's value as a name.
    private let sectionIsFirstSort: Bool

    init(_ reader: FetchedKeyReader, context: ManagedObjectContext) {
        self.reader = reader
        self.context = context
        columns = reader.sorts.map(FetchedKeyColumn.init)
        let sectionIsFirstSort =
            reader.sectionKey.map {
                $0.relationships == reader.sorts[0].relationships && $0.slot == reader.sorts[0].slot
            } ?? false
        self.sectionIsFirstSort = sectionIsFirstSort
        sectionColumn = sectionIsFirstSort ? nil : reader.sectionKey.map(FetchedKeyColumn.init)
    }

    /// Where `object`, fetched in ``context`` with `row`, goes.
    mutating func placement(
        of object: ManagedObject, row: [StoreValue]?, sequence: Int, readsRowAlways: Bool
    ) -> FetchedPlacement {
        guard let row, readsRowAlways || !object.hasValues else {
            return reader.placement(
                of: object, row: row, sequence: sequence, readsRowAlways: readsRowAlways)
        }
        let first = columns[0].value(object, row, readsRowAlways, context)
        var second = AttributeValue.null
        var more: [AttributeValue] = []
        if columns.count > 1 {
            second = columns[1].value(object, row, readsRowAlways, context)
            if columns.count > 2 {
                more.reserveCapacity(columns.count - 2)
                for i in 2..<columns.count {
                    more.append(columns[i].value(object, row, readsRowAlways, context))
                }
            }
        }
        let section: String
        if sectionIsFirstSort {
            section = FetchedKeyReader.sectionName(first)
        } else if sectionColumn != nil {
            section = FetchedKeyReader.sectionName(
                sectionColumn!.value(object, row, readsRowAlways, context))
        } else {
            section = ""
        }
        return FetchedPlacement(
            first: first, second: second, more: more, section: section, sequence: sequence)
    }
}

/// One sort or section key read from fetched rows, with the values of its destinations.
private struct FetchedKeyColumn {
    let descriptor: CompiledSortDescriptor
    /// The last destination read and its value: a fetch sorted by the key path meets each
    /// destination's objects in a run.
    private var lastDestination: ManagedObjectID?
    private var lastValue = AttributeValue.null
    /// Each destination read so far and its value.
    private var destinations: [ManagedObjectID: AttributeValue] = [:]

    init(_ descriptor: CompiledSortDescriptor) { self.descriptor = descriptor }

    /// The key's value for `object`, read from `row` as ``FaultPeekRecord`` reads a fault.
    mutating func value(
        _ object: ManagedObject, _ row: [StoreValue], _ readsRowAlways: Bool,
        _ context: ManagedObjectContext
    ) -> AttributeValue {
        guard let hop = descriptor.relationships.first else {
            if case .attribute(let value) = row[descriptor.slot] { return value }
            return descriptor.value(
                of: FaultPeekRecord(object, row: row, readsRowAlways: readsRowAlways))
        }
        guard case .toOne(let destination) = row[hop] else {
            return descriptor.value(
                of: FaultPeekRecord(object, row: row, readsRowAlways: readsRowAlways))
        }
        guard let destination else { return .null }
        if let lastDestination, lastDestination.primaryKey == destination.primaryKey,
            lastDestination == destination
        {
            return lastValue
        }
        let value: AttributeValue
        if let known = destinations[destination] {
            value = known
        } else {
            value = read(from: FaultPeekRecord(context.registeredOrFault(destination)))
            destinations[destination] = value
        }
        lastDestination = destination
        lastValue = value
        return value
    }

    /// The rest of the key path from the first step's destination, as
    /// ``CompiledSortDescriptor/value(of:)`` reads it.
    private func read(from destination: FaultPeekRecord) -> AttributeValue {
        var current = destination
        for r in descriptor.relationships.dropFirst() {
            guard let next = current.toOneRecord(at: r) else { return .null }
            current = next
        }
        return current.attributeValue(at: descriptor.slot)
    }
}
