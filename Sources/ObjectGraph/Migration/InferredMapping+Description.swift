import Foundation

extension InferredMapping {
    /// What the mapping does, one line per change, with the rows each touches in `table`:
    /// entities added, removed and renamed; properties added, removed, renamed and converted.
    package func describe(rows table: RowTable) -> [String] {
        var lines: [String] = []
        let mappedSources = Set(entities.compactMap { $0.source?.name })
        for entity in source.entities where !mappedSources.contains(entity.name) {
            lines.append(
                "remove entity \(entity.name) (\(table.rowCount(of: entity)) rows dropped)")
        }
        for mapping in entities {
            let entity = mapping.destination
            guard let old = mapping.source else {
                lines.append("add entity \(entity.name)")
                continue
            }
            let rows = table.rowCount(of: old)
            if old.name != entity.name {
                lines.append("rename entity \(old.name) → \(entity.name) (\(rows) rows)")
            }
            var used: Set<String> = []
            for (property, from) in mapping.properties {
                switch from {
                case .new:
                    let fill =
                        (property as? AttributeDescription).map {
                            "default \(Self.readable($0.defaultValue))"
                        }
                        ?? "no targets"
                    lines.append("add \(entity.name).\(property.name) (\(rows) rows take \(fill))")
                case .inverse(_, let source):
                    lines.append(
                        "add \(entity.name).\(property.name) (from the inverse of "
                            + "\(source.entity!.name).\(source.name), \(rows) rows)")
                case .property(let p):
                    used.insert(p.name)
                    if p.name != property.name {
                        lines.append(
                            "rename \(entity.name).\(p.name) → \(property.name) (\(rows) rows)")
                    }
                    if let change = SchemaComparison.change(from: p, to: property) {
                        lines.append(
                            "convert \(entity.name).\(property.name): \(change) (\(rows) rows)")
                    }
                }
            }
            for property in RowCodec.storedSlots(of: old) where !used.contains(property.name) {
                lines.append("remove \(old.name).\(property.name) (\(rows) rows lose it)")
            }
        }
        if lines.isEmpty { lines.append("no stored change (the model's rules change only)") }
        return lines
    }

    /// A value as a person reads it in a migration plan: `false`, `12.5`, `"text"`, `nil`, a
    /// date in ISO 8601 (UTC), a UUID or URL as text, data by its size.
    static func readable(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "nil"
        case .boolean(let b): return b ? "true" : "false"
        case .integer(let i): return String(i)
        case .decimal(let d): return d.description
        case .double(let d): return d.description
        case .float(let f): return f.description
        case .string(let s): return FetchExpression.quoted(s)
        case .date(let d):
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            return formatter.string(from: d)
        case .uuid(let u): return u.uuidString
        case .uri(let u): return u.absoluteString
        case .data(let d): return "\(d.count) bytes of data"
        case .transformable(let d): return "\(d.count) bytes (transformable)"
        }
    }
}
