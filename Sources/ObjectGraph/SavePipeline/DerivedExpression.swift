import Foundation

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
