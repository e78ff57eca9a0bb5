import Foundation

/// Sorting of rows from several sources (stores) with one set of sort descriptors.
enum RowSorting {
    static func sort(
        _ rows: [StoreRow], by descriptors: [FetchSortDescriptor], entity: EntityDescription
    ) throws
        -> [StoreRow]
    {
        guard !descriptors.isEmpty else { return rows }
        let compiled = try descriptors.map { try $0.compile(for: entity) }
        // Rows of several stores: related rows resolve within a table built from the rows.
        var table = RowTable(model: entity.managedObjectModel!, storeIdentifier: "")
        for row in rows { table.upsert(row) }
        let reader = RowTableReader(table: table)
        return rows.enumerated().sorted { a, b in
            let ra = RowRecord(reader: reader, row: a.element)
            let rb = RowRecord(reader: reader, row: b.element)
            for sort in compiled {
                switch sort.compare(ra, rb) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
