import Foundation

/// Errors of the predicate language, all code 134060 (`NSCoreDataError`), as Core Data
/// reports a bad predicate.
extension ObjectGraphError {
    /// A format string that does not parse, or an argument that does not fit its specifier.
    ///
    /// The message quotes the string (at most ``EchoedText/limit`` characters of it, around
    /// the column) and puts a caret under the 1-based `column` (counted in characters), which
    /// is also set on the error:
    ///
    /// ```
    /// predicate: expected an expression after '==' at column 9
    ///   name == AND x
    ///           ^
    /// ```
    static func predicateSyntax(_ reason: String, format: String, scalarOffset: Int)
        -> ObjectGraphError
    {
        let isASCII = format.utf8.allSatisfy { $0 < 0x80 }
        let scalarCount = isASCII ? format.utf8.count : format.unicodeScalars.count
        let clamped = min(max(0, scalarOffset), scalarCount)
        let column =
            isASCII
            ? clamped + 1
            : String(String.UnicodeScalarView(format.unicodeScalars.prefix(clamped))).count + 1
        let hasControls = format.utf8.contains {
            $0 == 9 || $0 == 10 || $0 == 11 || $0 == 12 || $0 == 13
        }
        let flat =
            hasControls ? String(format.map { $0.isNewline || $0 == "\t" ? " " : $0 }) : format
        let shown = EchoedText.window(flat, column: column)
        let caret = String(repeating: " ", count: shown.column - 1) + "^"
        return ObjectGraphError(
            .coreData,
            "predicate: \(EchoedText.capped(reason, limit: 2 * EchoedText.limit)) at column \(column)\n  \(shown.text)\n  \(caret)",
            column: column)
    }

    /// A key path naming no property of the entity it is applied to.
    static func predicateUnknownKey(
        _ key: String, entity: EntityDescription, keyPath: String,
        predicate: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "predicate: \(entity.name) has no property '\(EchoedText.capped(key))' "
                + (keyPath == key ? "" : "(key path '\(EchoedText.capped(keyPath))') ")
                + "in: \(EchoedText.capped(predicate))",
            entityName: entity.name, key: key)
    }

    /// A predicate that parses but cannot be applied to the entity (a misused key path, a
    /// free variable, an unusable constant).
    static func predicateInvalid(
        _ reason: String, entity: EntityDescription, predicate: String,
        key: String? = nil
    ) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "predicate: \(EchoedText.capped(reason, limit: 2 * EchoedText.limit)) "
                + "(entity \(entity.name)) in: \(EchoedText.capped(predicate))",
            entityName: entity.name, key: key)
    }

    /// A value passed to `withSubstitutionVariables` that a predicate cannot hold.
    static func predicateVariableValue(_ name: String, value: Any) -> ObjectGraphError {
        ObjectGraphError(
            .coreData,
            "predicate: the value of $\(name) (\(type(of: value))) cannot be used "
                + "in a predicate; pass numbers, strings, dates, UUIDs, URLs, data, objects, "
                + "object IDs, nil, or arrays and sets of them")
    }

    /// A predicate nested deeper than the evaluator allows.
    static func predicateTooDeep(limit: Int, entity: EntityDescription, predicate: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData,
            "predicate: nested more than \(limit) levels deep (entity \(entity.name)) "
                + "in: \(EchoedText.capped(predicate))", entityName: entity.name)
    }

    /// A sort key that does not name an attribute reachable through to-one relationships.
    static func sortKeyInvalid(_ keyPath: String, entity: EntityDescription, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .coreData,
            "sort descriptor: '\(EchoedText.capped(keyPath))' \(reason) (entity \(entity.name))",
            entityName: entity.name, key: keyPath)
    }
}
