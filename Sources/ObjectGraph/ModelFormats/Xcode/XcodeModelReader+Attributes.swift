import Foundation

/// Reading `<attribute>`: Xcode's type names, defaults, limits and flags.
extension XcodeModelReader {
    /// Xcode's `attributeType` spellings.
    static let attributeTypes: [String: AttributeType] = [
        "Integer 16": .integer16, "Integer 32": .integer32, "Integer 64": .integer64,
        "Decimal": .decimal,
        "Double": .double, "Float": .float, "String": .string, "Boolean": .boolean, "Date": .date,
        "Binary": .binaryData, "UUID": .uuid, "URI": .uri, "Transformable": .transformable,
        "Undefined": .undefined,
    ]

    mutating func readAttribute(_ node: XMLNode, entity: String) throws -> AttributeDescription {
        var probe = XcodeElement(node, file: file, entity: entity)
        let name = try probe.requiredString("name")
        var element = XcodeElement(node, file: file, entity: entity, property: name)
        _ = element.string("name")
        note(node, entity: entity, property: name)
        element.ignore(
            "syncable", "usesScalarValueType", "spotlightIndexingEnabled", "indexedBySpotlight",
            "storedInTruthFile", "allowsCloudEncryption")
        let typeName = try element.requiredString("attributeType")
        if typeName == "Composite" {
            // Xcode 15's composite attributes (a structure of named sub-attributes stored in
            // the row) are not modelled; the value is kept whole, as opaque data.
            let composite = element.string("composite").map { " \($0)" } ?? ""
            warnings.append(
                element.warning(
                    "Composite attribute\(composite) is kept as opaque binary data: composite "
                        + "attributes are not modelled"))
        }
        guard let type = typeName == "Composite" ? .binaryData : Self.attributeTypes[typeName]
        else {
            let known = Self.attributeTypes.keys.sorted().joined(separator: ", ")
            throw element.error(
                "attributeType \"\(EchoedText.capped(typeName))\" is not supported (known: \(known))"
            )
        }
        // Transformable values go through the named transformer (the model's linker warns
        // about a name nobody registered).
        let transformer = element.string("valueTransformerName")
        let className = element.string("customClassName")
        let isDerived = try element.bool("derived", default: false)
        let expression = element.string("derivationExpression")
        if isDerived, expression == nil {
            throw element.error("derived=\"YES\" needs a derivationExpression")
        }
        if !isDerived, expression != nil {
            warnings.append(element.warning("derivationExpression without derived=\"YES\" ignored"))
        }
        if isDerived, let expression, !Self.isComputableDerivation(expression) {
            warnings.append(
                element.warning(
                    "derivation expression \"\(EchoedText.capped(expression))\" is kept but not computed at save "
                        + "(supported: key paths, @count/@sum/@min/@max/@avg, lowercase:, uppercase:, "
                        + "canonical:, now())"))
        }
        var external = try element.bool("allowsExternalBinaryDataStorage", default: false)
        if external, type != .binaryData, type != .transformable {
            // Xcode keeps the flag in the XML when a Binary attribute changes type.
            warnings.append(
                element.warning(
                    "allowsExternalBinaryDataStorage on a \(type.rawValue) attribute ignored"))
            external = false
        }
        let limits = try readLimits(&element, type: type)
        let attribute = AttributeDescription(
            name: name, type: type, isOptional: try element.bool("optional", default: false),
            isTransient: try element.bool("transient", default: false),
            defaultValue: try readDefault(&element, type: type),
            minValue: limits.minValue, maxValue: limits.maxValue, minLength: limits.minLength,
            maxLength: limits.maxLength,
            pattern: limits.pattern, valueTransformerName: transformer,
            attributeValueClassName: className,
            allowsExternalBinaryDataStorage: external,
            derivationExpression: isDerived ? expression : nil,
            isIndexed: try element.bool("indexed", default: false),
            userInfo: try readUserInfo(children: node, element: element),
            versionHashModifier: element.string("versionHashModifier"),
            renamingIdentifier: element.string("elementID"),
            preservesValueInHistoryOnDeletion: try element.bool(
                "preserveAfterDeletion", default: false))
        warnings += element.unreadAttributeWarnings()
        return attribute
    }

    /// The attribute's `userInfo` child, warning about any other child element.
    mutating func readUserInfo(children node: XMLNode, element: XcodeElement) throws -> [String:
        String]
    {
        var info: [String: String] = [:]
        for child in node.children {
            if child.name == "userInfo" {
                info = try readUserInfo(child, entity: element.entity, property: element.property)
            } else {
                warnings.append(element.unknownChildWarning(child))
            }
        }
        return info
    }

    private struct Limits {
        var minValue: AttributeValue?
        var maxValue: AttributeValue?
        var minLength: Int?
        var maxLength: Int?
        var pattern: String?
    }

    /// `minValueString`/`maxValueString` are numbers for numeric types and lengths for
    /// strings; dates use `minDateTimeInterval`/`maxDateTimeInterval` (seconds since 2001).
    private mutating func readLimits(_ element: inout XcodeElement, type: AttributeType) throws
        -> Limits
    {
        var limits = Limits()
        let minText = element.string("minValueString")
        let maxText = element.string("maxValueString")
        let minDate = try element.double("minDateTimeInterval")
        let maxDate = try element.double("maxDateTimeInterval")
        limits.pattern = element.string("regularExpressionString")
        if limits.pattern != nil, type != .string {
            warnings.append(
                element.warning("regularExpressionString on a \(type.rawValue) attribute ignored"))
            limits.pattern = nil
        }
        switch type {
        case .string:
            limits.minLength = try minText.map { try length($0, "minValueString", element) }
            limits.maxLength = try maxText.map { try length($0, "maxValueString", element) }
        case .date:
            limits.minValue = minDate.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
            limits.maxValue = maxDate.map { .date(Date(timeIntervalSinceReferenceDate: $0)) }
            if (minText != nil && minDate == nil) || (maxText != nil && maxDate == nil) {
                warnings.append(
                    element.warning(
                        "date limits given only as display text are ignored "
                            + "(Xcode also writes minDateTimeInterval/maxDateTimeInterval)"))
            }
        case _ where type.isNumeric:
            limits.minValue = try minText.map { try number($0, type, "minValueString", element) }
            limits.maxValue = try maxText.map { try number($0, type, "maxValueString", element) }
        default:
            if minText != nil || maxText != nil {
                warnings.append(
                    element.warning(
                        "minValueString/maxValueString on a \(type.rawValue) attribute ignored"))
            }
        }
        return limits
    }

    private func length(_ text: String, _ label: String, _ element: XcodeElement) throws -> Int {
        guard let n = Int(text), n >= 0 else {
            throw element.error(
                "\(label)=\"\(EchoedText.capped(text))\" should be a length (0 or more)")
        }
        return n
    }

    private func number(
        _ text: String, _ type: AttributeType, _ label: String, _ element: XcodeElement
    ) throws
        -> AttributeValue
    {
        guard let value = Self.parse(text, as: type) else {
            throw element.error(
                "\(label)=\"\(EchoedText.capped(text))\" is not a valid \(type.rawValue)")
        }
        return value
    }

    private mutating func readDefault(_ element: inout XcodeElement, type: AttributeType) throws
        -> AttributeValue
    {
        let interval = try element.double("defaultDateTimeInterval")
        let text = element.string("defaultValueString")
        if type == .date {
            if text != nil, interval == nil {
                warnings.append(element.warning("date default given only as text ignored"))
            }
            return interval.map { .date(Date(timeIntervalSinceReferenceDate: $0)) } ?? .null
        }
        guard let text else { return .null }
        if type == .binaryData {
            warnings.append(element.warning("defaultValueString on a binary attribute ignored"))
            return .null
        }
        guard let value = Self.parse(text, as: type) else {
            throw element.error(
                "defaultValueString=\"\(EchoedText.capped(text))\" is not a valid \(type.rawValue)")
        }
        return value
    }

    /// A value written as text in the model: integers, exact decimals, numbers, `YES`/`NO`,
    /// UUIDs, URLs and strings.
    static func parse(_ text: String, as type: AttributeType) -> AttributeValue? {
        switch type {
        case .integer16, .integer32, .integer64:
            // Xcode accepts whole numbers written with a fraction ("0.0").
            guard let exact = ExactDecimal(text), exact.exponent >= 0 || exact.digits.isEmpty,
                let i = Int64(exact.plainText), type.integerRange?.contains(i) == true
            else { return nil }
            return .integer(i)
        case .decimal: return ExactDecimal(text)?.decimal.map { .decimal($0) }
        case .double: return Double(text).flatMap { $0.isFinite ? .double($0) : nil }
        case .float: return Float(text).flatMap { $0.isFinite ? .float($0) : nil }
        case .string, .undefined: return .string(text)
        case .boolean:
            switch text.uppercased() {
            case "YES", "TRUE", "1": return .boolean(true)
            case "NO", "FALSE", "0": return .boolean(false)
            default: return nil
            }
        default: return AttributeValue.string(text).coerced(to: type)
        }
    }

    /// Whether the engine computes this derivation at save: a key path (optionally ending in
    /// a collection operator), `lowercase:`/`uppercase:`/`canonical:` of a key path, or `now()`.
    static func isComputableDerivation(_ expression: String) -> Bool {
        let text = expression.trimmingCharacters(in: .whitespaces)
        if text == "now()" { return true }
        for function in ["lowercase:", "uppercase:", "canonical:"] where text.hasPrefix(function) {
            let argument = text.dropFirst(function.count)
            guard argument.hasPrefix("("), argument.hasSuffix(")") else { return false }
            return isKeyPath(argument.dropFirst().dropLast())
        }
        return isKeyPath(Substring(text))
    }

    private static func isKeyPath(_ text: Substring) -> Bool {
        var parts = text.split(separator: ".", omittingEmptySubsequences: false)
        if let i = parts.firstIndex(where: { $0.hasPrefix("@") }) {
            guard i > 0, ["@count", "@sum", "@min", "@max", "@avg"].contains(parts[i]) else {
                return false
            }
            parts.remove(at: i)
        }
        return !parts.isEmpty && parts.allSatisfy { ModelLinker.isValidName(String($0)) }
    }
}
