import Foundation

/// Writing and reading a transaction's `batch` member (format version 6,
/// <doc:StoreFileFormat#34-Batch-lines-version-6>):
///
/// ```
/// "batch":{"entity":"Expense","set":{"amount":["*",["k","amount"],1.2]},"rows":[["Expense",[[1,100000]]]]}
/// ```
extension RowCodec {
    /// The deepest expression a reader accepts: an array (an operation or a column) at this
    /// depth or deeper is refused, and a writer falls back to partial rows for a deeper one.
    static let batchTermDepth = 64

    /// Appends `,"batch":{…}` for `line`.
    ///
    /// - Throws: `.invalidStoreRow` (134030) when a constant does not fit its attribute; `w`
    ///   is then left as it was.
    func write(_ line: BatchLine, to w: JSONByteWriter) throws {
        let start = w.count
        let e = line.entityIndex
        w.append(ascii: ",\"batch\":{\"entity\":")
        w.append(quotedNames[e])
        w.append(ascii: ",\"set\":{")
        for (i, assignment) in line.assignments.enumerated() {
            guard let k = slots[e].firstIndex(where: { $0.index == assignment.slot }) else {
                w.truncate(to: start)
                throw StoreFileErrors.failed(
                    .invalidStoreRow, path,
                    "cannot write slot \(assignment.slot) of \(entities[e].name): it is not stored")
            }
            if i > 0 { w.append(0x2C) }
            w.append(quotedColumns[e][k])
            w.append(0x3A)
            switch assignment.value {
            case .constant(let value):
                guard write(value, slots[e][k], to: w) else {
                    w.truncate(to: start)
                    let name = entities[e].properties[assignment.slot].name
                    throw StoreFileErrors.failed(
                        .invalidStoreRow, path,
                        "the batch update's value of \(entities[e].name).\(name) does not fit it")
                }
            case .term(let term):
                write(term, entityIndex: e, to: w)
            }
        }
        w.append(ascii: "},\"rows\":[")
        var i = 0
        while i < line.runs.count {
            let entity = line.runs[i].entityIndex
            if i > 0 { w.append(0x2C) }
            w.append(0x5B)
            w.append(quotedNames[entity])
            w.append(ascii: ",[")
            var first = true
            while i < line.runs.count, line.runs[i].entityIndex == entity {
                if !first { w.append(0x2C) }
                first = false
                w.append(0x5B)
                w.append(integer: line.runs[i].first)
                w.append(0x2C)
                w.append(integer: line.runs[i].last)
                w.append(0x5D)
                i += 1
            }
            w.append(ascii: "]]")
        }
        w.append(ascii: "]}")
    }

    private func write(_ term: BatchLine.Term, entityIndex: Int, to w: JSONByteWriter) {
        switch term {
        case .constant(let c):
            AttributeValue.write(double: c, to: w)
        case .column(let slot):
            w.append(ascii: "[\"k\",")
            let k = slots[entityIndex].firstIndex { $0.index == slot }!
            w.append(quotedColumns[entityIndex][k])
            w.append(0x5D)
        case .operation(let op, let a, let b):
            w.append(ascii: "[\"")
            w.append(raw: op.symbol)
            w.append(ascii: "\",")
            write(a, entityIndex: entityIndex, to: w)
            w.append(0x2C)
            write(b, entityIndex: entityIndex, to: w)
            w.append(0x5D)
        }
    }

    /// Reads a `batch` member's object.
    ///
    /// - Throws: ``JSONScanError`` naming what is wrong and where: an unknown entity or
    ///   column, an expression reading a column that is not a stored `double` or assigning one
    ///   to such a column, a non-finite constant in an expression, runs not ascending or an
    ///   entity that is not the batch's or one of its subentities, a member missing.
    func readBatch(_ s: inout JSONScanner) throws -> BatchLine {
        var entityIndex: Int?
        var assignments: [BatchLine.Assignment]?
        var runs: [BatchLine.Run]?
        try s.forEachMember { key, s in
            switch key {
            case "entity":
                s.skipSpace()
                let start = s.position
                let name = try s.readString()
                guard let entity = model.entitiesByName[name] else {
                    throw JSONScanError(offset: start, message: "unknown entity \"\(name)\"")
                }
                entityIndex = entity.index
            case "set":
                guard let entityIndex else { throw s.error("\"set\" before \"entity\"") }
                assignments = try readAssignments(&s, entityIndex: entityIndex)
            case "rows":
                guard let entityIndex else { throw s.error("\"rows\" before \"entity\"") }
                runs = try readRuns(&s, entityIndex: entityIndex)
            default:
                throw s.error("unknown batch member \"\(key)\"")
            }
        }
        guard let entityIndex, let assignments, let runs else {
            throw s.error("a batch needs \"entity\", \"set\" and \"rows\"")
        }
        guard !assignments.isEmpty, !runs.isEmpty else {
            throw s.error("a batch assigns at least one column of at least one row")
        }
        return BatchLine(entityIndex: entityIndex, assignments: assignments, runs: runs)
    }

    private func readAssignments(_ s: inout JSONScanner, entityIndex: Int) throws
        -> [BatchLine.Assignment]
    {
        let entity = entities[entityIndex]
        var list: [BatchLine.Assignment] = []
        try s.forEachMember { name, s in
            guard
                let slot = slots[entityIndex].first(where: {
                    $0.kind == .attribute && entity.properties[$0.index].name == name
                })
            else {
                throw s.error("\(entity.name) has no stored attribute \"\(name)\"")
            }
            if s.peek() == 0x5B {
                guard slot.type == .double else {
                    throw s.error(
                        "an expression assigns \(entity.name).\(name), which is not a double")
                }
                list.append(
                    BatchLine.Assignment(
                        slot: slot.index, value: .term(try readTerm(&s, entityIndex, depth: 0))))
            } else {
                list.append(
                    BatchLine.Assignment(
                        slot: slot.index, value: .constant(try readValue(&s, slot, entity: entity))
                    ))
            }
        }
        return list.sorted { $0.slot < $1.slot }
    }

    private func readTerm(_ s: inout JSONScanner, _ entityIndex: Int, depth: Int) throws
        -> BatchLine.Term
    {
        guard s.peek() == 0x5B else {
            let start = s.position
            let c = try s.readDouble()
            guard c.isFinite else {
                throw JSONScanError(offset: start, message: "a constant must be finite")
            }
            return .constant(c)
        }
        guard depth < Self.batchTermDepth else {
            throw s.error("an expression nested more than \(Self.batchTermDepth) deep")
        }
        try s.expect(0x5B)
        s.skipSpace()
        let start = s.position
        let name = try s.readString()
        try s.expect(0x2C)
        if name == "k" {
            let entity = entities[entityIndex]
            s.skipSpace()
            let at = s.position
            let column = try s.readString()
            guard
                let slot = slots[entityIndex].first(where: {
                    $0.kind == .attribute && entity.properties[$0.index].name == column
                }), slot.type == .double
            else {
                throw JSONScanError(
                    offset: at,
                    message: "\(entity.name) has no stored double attribute \"\(column)\"")
            }
            try s.expect(0x5D)
            return .column(slot.index)
        }
        guard let op = BatchLine.Operator.allCases.first(where: { $0.symbol == name }) else {
            throw JSONScanError(offset: start, message: "unknown operator \"\(name)\"")
        }
        let a = try readTerm(&s, entityIndex, depth: depth + 1)
        try s.expect(0x2C)
        let b = try readTerm(&s, entityIndex, depth: depth + 1)
        try s.expect(0x5D)
        return .operation(op, a, b)
    }

    private func readRuns(_ s: inout JSONScanner, entityIndex: Int) throws -> [BatchLine.Run] {
        var runs: [BatchLine.Run] = []
        var seen = Set<Int>()
        let batchEntity = entities[entityIndex]
        try s.forEachElement { s in
            try s.expect(0x5B)
            s.skipSpace()
            let start = s.position
            let e = try readEntity(&s)
            guard entities[e].isKind(of: batchEntity) else {
                throw JSONScanError(
                    offset: start,
                    message: "\(entities[e].name) is not \(batchEntity.name) or a subentity")
            }
            guard seen.insert(e).inserted else {
                throw JSONScanError(
                    offset: start, message: "\(entities[e].name) appears twice in the batch")
            }
            try s.expect(0x2C)
            var last: Int64 = 0
            try s.forEachElement { s in
                try s.expect(0x5B)
                s.skipSpace()
                let at = s.position
                let first = try readKey(&s)
                try s.expect(0x2C)
                let end = try readKey(&s)
                try s.expect(0x5D)
                guard first > last, end >= first else {
                    throw JSONScanError(
                        offset: at,
                        message: "the runs of \(entities[e].name) must ascend without overlapping")
                }
                last = end
                runs.append(BatchLine.Run(entityIndex: e, first: first, last: end))
            }
            guard last > 0 else { throw s.error("\(entities[e].name) has no runs") }
            try s.expect(0x5D)
        }
        return runs
    }
}

extension BatchLine {
    /// The line's updates of `table`'s rows (as they are before it), in the line's order: a
    /// partial row per row, of the assigned slots whose values change (bit for bit), at the
    /// row's version + 1. A row that is not there, a run longer than its entity's rows, or a
    /// row the assignments cannot be evaluated on is handed to `skip` with a description
    /// (a replay throws: the line is corrupt; a salvage lists it and goes on).
    func updates(of table: RowTable, skip: (String) throws -> Void) rethrows -> [RowUpdate] {
        var updates: [RowUpdate] = []
        updates.reserveCapacity(Swift.min(rowCount, table.totalRowCount))
        // Rows changing the same slots share one array.
        var lastSlots: [Int] = []
        for run in runs {
            let entity = table.model.entities[run.entityIndex]
            var keys: [Int64]? = nil
            if run.last - run.first >= Int64(table.rowCount(of: entity)) {
                // Replay refuses the line (`skip` throws); a salvage updates the rows the
                // entity has in the run's range (without walking a range that may be huge).
                try skip(
                    "updates \(entity.name) \(run.first) to \(run.last), more rows than it has; "
                        + "only the rows it has in that range are updated")
                keys = table.entityTables[run.entityIndex].rows.compactMap { row in
                    row.map(\.objectID.primaryKey).flatMap {
                        (run.first...run.last) ~= $0 ? $0 : nil
                    }
                }.sorted()
            }
            rows: for pk in keys ?? Array(run.first...run.last) {
                let id = ManagedObjectID(scope: table.idScopes[run.entityIndex], primaryKey: pk)
                guard let old = table.row(for: id) else {
                    try skip("updates \(id), which does not exist")
                    continue
                }
                var slots: [Int] = []
                var values: [StoreValue] = []
                for assignment in assignments {
                    guard let new = assignment.value.value(for: old) else {
                        let name = entity.properties[assignment.slot].name
                        try skip(
                            "cannot evaluate \(name) on \(id): a column it reads is not a double")
                        continue rows
                    }
                    if new != old.values[assignment.slot] {
                        slots.append(assignment.slot)
                        values.append(new)
                    }
                }
                if slots == lastSlots { slots = lastSlots } else { lastSlots = slots }
                updates.append(
                    .partial(
                        PartialRow(
                            objectID: id, version: old.version &+ 1, slots: slots, values: values)))
            }
        }
        return updates
    }
}
