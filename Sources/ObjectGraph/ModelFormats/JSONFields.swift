import Foundation

/// One JSON object of the model format being read: typed access to its members, the path
/// that errors name, and a check that no unknown key is left over.
struct JSONFields {
    /// Where this object sits, e.g. `entities[1].properties[3]` (empty for the root).
    let path: String
    /// The entity and property the object describes, for error messages.
    let entity: String?
    let property: String?
    private let members: JSONObject
    private var used: Set<String> = []

    init(_ value: JSONValue, path: String, entity: String? = nil, property: String? = nil) throws {
        self.path = path
        self.entity = entity
        self.property = property
        guard case .object(let members) = value else {
            throw ModelError.json(
                path: path.isEmpty ? "(root)" : path, entity: entity, property: property,
                expected: "an object", found: value.kindDescription)
        }
        self.members = members
    }

    /// The path of member `key`.
    func path(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// An error at member `key` (or at the object itself when `key` is `nil`).
    func error(_ key: String?, expected: String, found: JSONValue?) -> ObjectGraphError {
        ModelError.json(
            path: key.map(path) ?? path, entity: entity, property: property,
            expected: expected, found: found?.kindDescription ?? "nothing")
    }

    /// The member's value, `nil` when absent or `null`.
    mutating func value(_ key: String) -> JSONValue? {
        used.insert(key)
        if case .null = members[key] { return nil }
        return members[key]
    }

    mutating func string(_ key: String) throws -> String? {
        guard let v = value(key) else { return nil }
        guard case .string(let s) = v else { throw error(key, expected: "a string", found: v) }
        return s
    }

    mutating func requiredString(_ key: String) throws -> String {
        guard let s = try string(key) else { throw error(key, expected: "a string", found: nil) }
        return s
    }

    mutating func bool(_ key: String, default fallback: Bool) throws -> Bool {
        guard let v = value(key) else { return fallback }
        guard case .bool(let b) = v else { throw error(key, expected: "true or false", found: v) }
        return b
    }

    mutating func int(_ key: String) throws -> Int? {
        guard let v = value(key) else { return nil }
        guard case .number(let text) = v, let i = Int(text) else {
            throw error(key, expected: "an integer", found: v)
        }
        return i
    }

    mutating func array(_ key: String) throws -> [JSONValue] {
        guard let v = value(key) else { return [] }
        guard case .array(let items) = v else { throw error(key, expected: "an array", found: v) }
        return items
    }

    mutating func stringArray(_ key: String) throws -> [String] {
        try array(key).enumerated().map { i, item in
            guard case .string(let s) = item else {
                throw ModelError.json(
                    path: "\(path(key))[\(i)]", entity: entity, property: property,
                    expected: "a string", found: item.kindDescription)
            }
            return s
        }
    }

    mutating func stringMap(_ key: String) throws -> [String: String] {
        guard let v = value(key) else { return [:] }
        guard case .object(let map) = v else {
            throw error(key, expected: "an object of strings", found: v)
        }
        return try map.mapValues { item in
            guard case .string(let s) = item else {
                throw error(key, expected: "an object of strings", found: item)
            }
            return s
        }
    }

    /// Throws when the object holds a key that was never read.
    func rejectUnknownKeys() throws {
        guard let first = members.keys.filter({ !used.contains($0) }).sorted().first else { return }
        throw ModelError.json(
            path: path(first), entity: entity, property: property,
            expected: "one of the keys \(used.sorted().joined(separator: ", "))",
            found: "the unknown key \(JSONValue.quoted(first))")
    }
}
