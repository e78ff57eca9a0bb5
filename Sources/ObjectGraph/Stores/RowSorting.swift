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
        return rows.sorted(by: compiled) { sort, a, b in
            sort.compare(RowRecord(reader: reader, row: a), RowRecord(reader: reader, row: b))
        }
    }
}
