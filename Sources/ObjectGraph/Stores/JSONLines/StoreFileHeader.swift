import Foundation

/// The header line of a store file (<doc:StoreFileFormat#2-The-header-line-1>), with maps kept in
/// file order.
struct StoreFileHeader: Sendable {
    static let formatName = "objectgraph-jsonl"

    /// The format version (``StoreFileVersion``): the current one for a new header, the file's
    /// for one read back. It decides how the header's instants are written.
    var version = StoreFileVersion.current
    var storeIdentifier: String
    var created: Date
    var compacted: Date?
    /// The last transaction folded into the snapshot.
    var base: Int64 = 0
    /// The number of snapshot row lines after the header.
    var rows = 0
    /// Root entity name → next free primary key.
    var keys: [(String, Int64)]
    /// Entity name → stored slot names.
    var columns: [(String, [String])]
    /// Entity name → version hash.
    var hashes: [(String, Data)]
    /// The model's compact JSON, safe to embed in a line.
    var modelJSON: [UInt8]
    /// The store's metadata as a compact JSON object (version 3; `{}` when none).
    var metadata: [UInt8] = Array("{}".utf8)
    /// (Version 4) The store's persistent history bounds when it tracks history: history
    /// began after transaction `start`; `retained` is the oldest transaction number it may
    /// still hold (0 until history is first deleted). `nil`: the store does not track history.
    var history: HeaderHistory?

    /// A header for a new store of `model`.
    init(model: ManagedObjectModel, storeIdentifier: String, created: Date) {
        self.storeIdentifier = storeIdentifier
        self.created = created
        self.keys = model.entities.filter { $0.superentity == nil }.map { ($0.name, 1) }
        self.columns = Self.columns(of: model)
        self.hashes = model.entities.map {
            ($0.name, model.entityVersionHashesByName[$0.name] ?? Data())
        }
        // Compact model JSON fits on one line: JSONEscaping leaves no raw control character
        // or U+2028/U+2029 in it.
        self.modelJSON = Array(model.jsonData())
    }

    /// Each entity's stored slot names, in model order.
    static func columns(of model: ManagedObjectModel) -> [(String, [String])] {
        model.entities.map { ($0.name, RowCodec.storedSlots(of: $0).map(\.name)) }
    }

    init(storeIdentifier: String, created: Date, modelJSON: [UInt8]) {
        self.storeIdentifier = storeIdentifier
        self.created = created
        self.keys = []
        self.columns = []
        self.hashes = []
        self.modelJSON = modelJSON
    }

    /// Appends the header line, LF included.
    func write(to w: JSONByteWriter) {
        let start = w.count
        w.append(ascii: "{\"format\":")
        w.append(quoted: Self.formatName)
        w.append(ascii: ",\"version\":")
        w.append(integer: Int64(version))
        w.append(ascii: ",\"store\":")
        w.append(quoted: storeIdentifier)
        w.append(ascii: ",\"created\":")
        StoreFileVersion.write(created, version: version, to: w)
        w.append(ascii: ",\"compacted\":")
        if let compacted {
            StoreFileVersion.write(compacted, version: version, to: w)
        } else {
            w.append(ascii: "null")
        }
        w.append(ascii: ",\"base\":")
        w.append(integer: base)
        w.append(ascii: ",\"rows\":")
        w.append(integer: Int64(rows))
        w.append(ascii: ",\"keys\":")
        writeObject(keys, to: w) { w.append(integer: $0) }
        w.append(ascii: ",\"columns\":")
        writeObject(columns, to: w) { names in
            w.append(0x5B)
            for (i, name) in names.enumerated() {
                if i > 0 { w.append(0x2C) }
                w.append(quoted: name)
            }
            w.append(0x5D)
        }
        if version >= 3 {
            w.append(ascii: ",\"metadata\":")
            w.append(metadata)
        }
        if version >= 4, let history {
            w.append(ascii: ",\"history\":{\"start\":")
            w.append(integer: history.start)
            w.append(ascii: ",\"retained\":")
            w.append(integer: history.retained)
            w.append(0x7D)
        }
        w.append(ascii: ",\"hashes\":")
        writeObject(hashes, to: w) { w.append(quoted: $0.base64EncodedString()) }
        w.append(ascii: ",\"model\":")
        w.append(modelJSON)
        LineFrame.finish(w, bodyStart: start)
    }

    private func writeObject<V>(_ pairs: [(String, V)], to w: JSONByteWriter, _ value: (V) -> Void)
    {
        w.append(0x7B)
        for (i, (key, v)) in pairs.enumerated() {
            if i > 0 { w.append(0x2C) }
            w.append(quoted: key)
            w.append(0x3A)
            value(v)
        }
        w.append(0x7D)
    }
}

/// The header's `history` member (<doc:StoreFileFormat#2-The-header-line-1>).
struct HeaderHistory: Sendable, Equatable {
    /// The last transaction before history began.
    var start: Int64
    /// The oldest transaction number history may still hold (0: never deleted).
    var retained: Int64
}
