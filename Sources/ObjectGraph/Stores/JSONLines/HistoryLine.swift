import Foundation

/// Writes and reads the lines that carry persistent history through a compaction
/// (<doc:StoreFileFormat#3.2-History>): a history line (`h`) per retained transaction, and
/// the retention line (`retain`) that `deleteHistory(before:)` appends.
enum HistoryLine {
    /// Appends the history line of `t`, LF included.
    static func write(_ t: StoreHistoryTransaction, codec: RowCodec, to w: JSONByteWriter) {
        let start = w.count
        w.append(ascii: "{\"h\":")
        w.append(integer: t.number)
        w.append(ascii: ",\"at\":")
        StoreFileVersion.write(t.timestamp, version: StoreFileVersion.current, to: w)
        writeOrigin(
            author: t.author, context: t.contextName, bundle: t.bundleID,
            pid: t.processID, to: w)
        let inserts = t.changes.filter { $0.changeType == .insert }
        let updates = t.changes.filter { $0.changeType == .update }
        let deletes = t.changes.filter { $0.changeType == .delete }
        if !inserts.isEmpty {
            w.append(ascii: ",\"ins\":[")
            for (i, change) in inserts.enumerated() {
                if i > 0 { w.append(0x2C) }
                codec.writeKey(change.objectID, to: w)
            }
            w.append(0x5D)
        }
        if !updates.isEmpty {
            w.append(ascii: ",\"upd\":[")
            for (i, change) in updates.enumerated() {
                if i > 0 { w.append(0x2C) }
                w.append(0x5B)
                codec.writeKey(change.objectID, to: w)
                w.append(ascii: ",[")
                for (j, name) in (change.updatedProperties ?? []).enumerated() {
                    if j > 0 { w.append(0x2C) }
                    w.append(quoted: name)
                }
                w.append(ascii: "]]")
            }
            w.append(0x5D)
        }
        if !deletes.isEmpty {
            w.append(ascii: ",\"del\":[")
            for (i, change) in deletes.enumerated() {
                if i > 0 { w.append(0x2C) }
                w.append(0x5B)
                codec.writeKey(change.objectID, to: w)
                w.append(ascii: ",{")
                let entity = change.objectID.entity
                var first = true
                for (name, value) in (change.tombstone ?? [:]).sorted(by: { $0.key < $1.key }) {
                    guard let type = entity.attributesByName[name]?.type else { continue }
                    let mark = w.count
                    if !first { w.append(0x2C) }
                    w.append(quoted: name)
                    w.append(0x3A)
                    if value.writeCanonicalJSON(as: type, to: w) {
                        first = false
                    } else {
                        w.truncate(to: mark)
                    }
                }
                w.append(ascii: "}]")
            }
            w.append(0x5D)
        }
        LineFrame.finish(w, bodyStart: start)
    }

    /// Appends the members naming who committed (transaction and history lines alike).
    static func writeOrigin(
        author: String?, context: String?, bundle: String, pid: String, to w: JSONByteWriter
    ) {
        if let author {
            w.append(ascii: ",\"author\":")
            w.append(quoted: author)
        }
        if let context {
            w.append(ascii: ",\"context\":")
            w.append(quoted: context)
        }
        w.append(ascii: ",\"bundle\":")
        w.append(quoted: bundle)
        w.append(ascii: ",\"pid\":")
        w.append(quoted: pid)
    }

    /// Appends the retention line: history before transaction `number` is deleted.
    static func writeRetention(_ number: Int64, to w: JSONByteWriter) {
        let start = w.count
        w.append(ascii: "{\"retain\":")
        w.append(integer: number)
        LineFrame.finish(w, bodyStart: start)
    }

    /// Reads a history line (without its LF; its checksum already checked).
    static func read(_ line: UnsafeRawBufferPointer, codec: RowCodec) throws
        -> StoreHistoryTransaction
    {
        var s = JSONScanner(line)
        var t = StoreHistoryTransaction(
            number: 0, timestamp: Date(timeIntervalSinceReferenceDate: 0), bundleID: "",
            processID: "", changes: [])
        var deletes: [StoreHistoryChange] = []
        var updates: [StoreHistoryChange] = []
        var inserts: [StoreHistoryChange] = []
        try s.forEachMember { key, s in
            switch key {
            case "h":
                t.number = try s.readInt64()
                guard t.number >= 1 else { throw s.error("history number \(t.number) is below 1") }
            case "at": t.timestamp = try StoreFileVersion.readDate(&s, version: codec.formatVersion)
            case "author": t.author = s.consumeNull() ? nil : try s.readString()
            case "context": t.contextName = s.consumeNull() ? nil : try s.readString()
            case "bundle": t.bundleID = try s.readString()
            case "pid": t.processID = try s.readString()
            case "ins":
                try s.forEachElement { s in
                    inserts.append(
                        StoreHistoryChange(
                            objectID: try codec.readObjectKey(&s), changeType: .insert))
                }
            case "upd":
                try s.forEachElement { s in
                    try s.expect(0x5B)
                    let id = try codec.readObjectKey(&s)
                    try s.expect(0x2C)
                    var names: [String] = []
                    try s.forEachElement { s in names.append(try s.readString()) }
                    try s.expect(0x5D)
                    updates.append(
                        StoreHistoryChange(
                            objectID: id, changeType: .update, updatedProperties: names))
                }
            case "del":
                try s.forEachElement { s in
                    try s.expect(0x5B)
                    let id = try codec.readObjectKey(&s)
                    try s.expect(0x2C)
                    var values: [String: AttributeValue] = [:]
                    try s.forEachMember { name, s in
                        guard let type = id.entity.attributesByName[name]?.type else {
                            throw s.error("\(id.entity.name) has no attribute \(name)")
                        }
                        values[name] = try AttributeValue.readCanonicalJSON(as: type, from: &s)
                    }
                    try s.expect(0x5D)
                    deletes.append(
                        StoreHistoryChange(objectID: id, changeType: .delete, tombstone: values))
                }
            case "crc": _ = try s.readString()
            default: throw s.error("unknown history member \"\(key)\"")
            }
        }
        guard s.isAtEnd else { throw s.error("text after the history object") }
        t.changes = deletes + updates + inserts
        return t
    }

    /// Reads a retention line's number.
    static func readRetention(_ line: UnsafeRawBufferPointer) throws -> Int64 {
        var s = JSONScanner(line)
        var number: Int64 = -1
        try s.forEachMember { key, s in
            switch key {
            case "retain": number = try s.readInt64()
            case "crc": _ = try s.readString()
            default: throw s.error("unknown retention member \"\(key)\"")
            }
        }
        guard number >= 0, s.isAtEnd else { throw s.error("a retention line holds one \"retain\"") }
        return number
    }
}
