import Foundation

extension StoreFileHeader {
    /// Reads the header from line 1 (without its LF).
    ///
    /// - Parameter isStoreFile: Whether the file is known to be a store file (see
    ///   ``StoreFileLoader/readHeader(_:path:)``): then a header that fails its checksum is
    ///   damage, else the file is of another format.
    /// - Throws: `.notAStoreFile` (134000) when the line is not a store header at all or has
    ///   a version this library does not read; `.storeCorrupt` (259) naming line 1 when
    ///   it is one but is damaged.
    static func read(_ line: UnsafeRawBufferPointer, path: String, isStoreFile: Bool) throws
        -> StoreFileHeader
    {
        if let problem = LineFrame.problem(line) {
            guard isStoreFile else {
                guard line.starts(with: "{\"format\":".utf8) else {
                    throw StoreFileErrors.notAStore(path, "line 1 does not start with {\"format\":")
                }
                var probe = JSONScanner(line)
                if (try? probe.expect(0x7B)) != nil, (try? probe.readString()) == "format",
                    probe.consume(0x3A), let format = try? probe.readString()
                {
                    throw StoreFileErrors.notAStore(
                        path, "its format is \"\(format)\", not \"\(formatName)\"")
                }
                throw StoreFileErrors.notAStore(path, "line 1 is not a header of this format")
            }
            throw StoreFileErrors.corrupt(path, line: 1, "the header: " + problem)
        }
        var s = JSONScanner(line)
        do {
            return try read(&s, path: path)
        } catch let e as JSONScanError {
            throw StoreFileErrors.corrupt(
                path, line: 1, "header: " + e.message, column: e.offset + 1)
        }
    }

    /// The header in a line 1 that fails its checksum, when its content holds together: it
    /// parses (its format name may differ in one byte), and the model it embeds builds and
    /// agrees with its entity hashes and stored columns. A salvage uses it; `nil` otherwise.
    static func salvageable(_ line: UnsafeRawBufferPointer, path: String) -> StoreFileHeader? {
        guard LineFrame.endsWithChecksumMember(line) else { return nil }
        var s = JSONScanner(line)
        guard let header = try? read(&s, path: path, tolerant: true),
            let model = try? header.model(path: path),
            (try? header.checkCompatible(with: model, path: path)) != nil
        else { return nil }
        return header
    }

    private static func read(_ s: inout JSONScanner, path: String, tolerant: Bool = false) throws
        -> StoreFileHeader
    {
        var header = StoreFileHeader(
            storeIdentifier: "", created: Date(timeIntervalSinceReferenceDate: 0), modelJSON: [])
        var seen: Set<String> = []
        var created: Range<Int>?
        var compacted: Range<Int>?
        try s.forEachMember { key, s in
            seen.insert(key)
            switch key {
            case "format":
                let format = try s.readString()
                let flipped = zip(format.utf8, formatName.utf8).filter { $0 != $1 }.count
                let nearly = format.utf8.count == formatName.utf8.count && flipped <= 1
                guard format == formatName || (tolerant && nearly) else {
                    throw StoreFileErrors.notAStore(
                        path, "its format is \"\(format)\", not \"\(formatName)\"")
                }
            case "version":
                let v = try s.readInt64()
                guard let version = Int(exactly: v), StoreFileVersion.readable.contains(version)
                else { throw StoreFileErrors.unknownVersion(path, v) }
                header.version = version
            case "store":
                header.storeIdentifier = try s.readString()
                guard !header.storeIdentifier.isEmpty else {
                    throw s.error("the store identifier is empty")
                }
            case "created":
                created = try s.skipValue()
            case "compacted":
                compacted = s.consumeNull() ? nil : try s.skipValue()
            case "base":
                header.base = try s.readInt64()
                guard header.base >= 0 else { throw s.error("base must not be negative") }
            case "rows":
                header.rows = Int(try s.readInt64())
                guard header.rows >= 0 else { throw s.error("rows must not be negative") }
            case "keys":
                try s.forEachMember { name, s in
                    let next = try s.readInt64()
                    guard next >= 1 else {
                        throw s.error("the next key of \(name) must be at least 1")
                    }
                    header.keys.append((name, next))
                }
            case "columns":
                try s.forEachMember { name, s in
                    var names: [String] = []
                    try s.forEachElement { s in names.append(try s.readString()) }
                    header.columns.append((name, names))
                }
            case "hashes":
                try s.forEachMember { name, s in
                    let start = s.position
                    guard let hash = Data(base64Encoded: try s.readString()) else {
                        throw JSONScanError(
                            offset: start, message: "the hash of \(name) is not base64")
                    }
                    header.hashes.append((name, hash))
                }
            case "metadata":
                let range = try s.skipValue()
                header.metadata = Array(s.bytes(in: range))
                guard header.metadata.first == 0x7B else {
                    throw s.error("metadata must be an object")
                }
            case "history":
                var history = HeaderHistory(start: -1, retained: -1)
                try s.forEachMember { name, s in
                    let n = try s.readInt64()
                    guard n >= 0 else { throw s.error("history \(name) must not be negative") }
                    switch name {
                    case "start": history.start = n
                    case "retained": history.retained = n
                    default: throw s.error("unknown history member \"\(name)\"")
                    }
                }
                guard history.start >= 0, history.retained >= 0 else {
                    throw s.error("history needs \"start\" and \"retained\"")
                }
                header.history = history
            case "model":
                let range = try s.skipValue()
                header.modelJSON = Array(s.bytes(in: range))
            case "crc": _ = try s.readString()
            default: throw s.error("unknown header member \"\(key)\"")
            }
        }
        let required = [
            "format", "version", "store", "created", "compacted", "base", "rows", "keys", "columns",
            "hashes", "model",
        ]
        if let missing = required.first(where: { !seen.contains($0) }) {
            throw s.error("the header has no \"\(missing)\" member")
        }
        guard s.isAtEnd else { throw s.error("text after the header object") }
        // The instants are read once the version (which says how they are written) is known.
        func instant(_ range: Range<Int>) throws -> Date {
            var value = s
            value.position = range.lowerBound
            return try StoreFileVersion.readDate(&value, version: header.version)
        }
        header.created = try created.map(instant) ?? header.created
        header.compacted = try compacted.map(instant)
        return header
    }

    /// The model the header embeds.
    ///
    /// - Throws: `.storeCorrupt` (259) when the embedded model does not build.
    func model(path: String) throws -> ManagedObjectModel {
        do {
            return try ManagedObjectModel(jsonData: Data(modelJSON))
        } catch let e as ObjectGraphError {
            throw StoreFileErrors.corrupt(
                path, line: 1, "the embedded model does not load: \(e.message)")
        }
    }

    /// Whether the header embeds exactly `model` (the common case, decided without building
    /// the embedded model).
    func isWritten(with model: ManagedObjectModel) -> Bool {
        modelJSON.elementsEqual(model.jsonData())
    }

    /// Checks that `model` is the one the file was written with: same entity version hashes
    /// and same stored columns.
    ///
    /// - Throws: `.incompatibleModel` (134100) naming the entities that differ.
    func checkCompatible(with model: ManagedObjectModel, path: String) throws {
        let stored = Dictionary(hashes, uniquingKeysWith: { a, _ in a })
        let current = model.entityVersionHashesByName
        let names = Set(stored.keys).union(current.keys)
        var differing = names.filter { stored[$0] != current[$0] }.sorted()
        if !differing.isEmpty {
            // Files written when Xcode transformables were read as binaryData: same rows.
            let legacy = VersionHasher.hashesWithTransformablesAsBinaryData(model)
            if differing.allSatisfy({ stored[$0] != nil && stored[$0] == legacy[$0] }) {
                differing = []
            }
        }
        if !differing.isEmpty {
            let added = differing.filter { stored[$0] == nil }
            let removed = differing.filter { current[$0] == nil }
            var parts: [String] = []
            if !added.isEmpty { parts.append("the model adds \(added.joined(separator: ", "))") }
            if !removed.isEmpty {
                parts.append(
                    "the file has \(removed.joined(separator: ", ")), which the model lacks")
            }
            let changed = differing.filter { stored[$0] != nil && current[$0] != nil }
            if !changed.isEmpty { parts.append("\(changed.joined(separator: ", ")) changed") }
            throw StoreFileErrors.incompatibleModel(
                path, entities: differing, detail: parts.joined(separator: "; "))
        }
        let expected = Dictionary(
            StoreFileHeader.columns(of: model), uniquingKeysWith: { a, _ in a })
        let differentColumns = columns.filter { expected[$0.0] != $0.1 }.map(\.0).sorted()
        if !differentColumns.isEmpty || columns.count != expected.count {
            throw StoreFileErrors.incompatibleModel(
                path, entities: differentColumns,
                detail: "the stored columns differ from the model's")
        }
    }
}
