import Foundation

extension ManagedObjectContext {
    /// Computes derived attributes of the objects a save writes: key paths (ending in
    /// `@count`, `@sum`, `@min`, `@max` or `@avg` on to-manys), `lowercase:(…)`,
    /// `uppercase:(…)`, `canonical:(…)` of a key path, and `now()` (the coordinator's clock).
    /// Other expressions are left alone (the Xcode reader warns about them).
    ///
    /// - Note: Core Data recomputes derived attributes during save, on SQLite stores only.
    func computeDerivedAttributes() {
        var compiled: [ObjectIdentifier: DerivedExpression?] = [:]
        var clockReading: Date?
        // Read the clock only when a `now()` needs it: injected clocks count their readings.
        let now: () -> Date = { [persistentStoreCoordinator] in
            if let clockReading { return clockReading }
            let reading = persistentStoreCoordinator?.clock() ?? Date()
            clockReading = reading
            return reading
        }
        for object in pending.objects where !object.state.isDeleted && object.hasChanges {
            let derived = object.entity.layout.derivedAttributes
            guard !derived.isEmpty else { continue }
            if object.slots.isEmpty { object.fireFault() }
            for attribute in derived {
                let key = ObjectIdentifier(attribute)
                if compiled[key] == nil {
                    compiled[key] = DerivedExpression(attribute, entity: object.entity)
                }
                guard let expression = compiled[key] ?? nil,
                    let value = expression.value(for: object, now: now).coerced(to: attribute.type)
                else { continue }
                if object.slots[attribute.index].attributeValue != value {
                    object.slots[attribute.index] = .attribute(value)
                    object.markChanged(attribute.index)
                }
            }
        }
    }
}

/// One derived attribute's expression, parsed once per save.
struct DerivedExpression {
    enum Transform { case none, lowercase, uppercase, canonical }

    let transform: Transform
    let isNow: Bool
    let keyPath: CompiledExpression?

    init?(_ attribute: AttributeDescription, entity: EntityDescription) {
        guard let text = attribute.derivationExpression?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        if text == "now()" {
            transform = .none
            isNow = true
            keyPath = nil
            return
        }
        var body = Substring(text)
        var transform = Transform.none
        for (prefix, kind) in [
            ("lowercase:", Transform.lowercase), ("uppercase:", .uppercase),
            ("canonical:", .canonical),
        ]
        where body.hasPrefix(prefix) {
            body = body.dropFirst(prefix.count)
            guard body.hasPrefix("("), body.hasSuffix(")") else { return nil }
            body = body.dropFirst().dropLast()
            transform = kind
        }
        guard let compiled = try? FetchExpression(format: String(body)).compile(for: entity) else {
            return nil
        }
        self.transform = transform
        self.isNow = false
        self.keyPath = compiled
    }

    func value(for object: ManagedObject, now: () -> Date) -> AttributeValue {
        if isNow { return .date(now()) }
        guard let keyPath else { return .null }
        let value = keyPath.value(for: ObjectRecord(object)).attributeValue
        guard case .string(let s) = value else { return value }
        switch transform {
        case .none: return value
        case .lowercase: return .string(s.lowercased())
        case .uppercase: return .string(s.uppercased())
        case .canonical:
            return .string(
                s.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
                    .lowercased())
        }
    }
}
