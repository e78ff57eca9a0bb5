import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a predicate or expression format string that does not
    /// parse; ``ObjectGraphError/column`` is where.
    public static let predicateSyntax = Self("predicateSyntax", code: 134060)
    /// 134060 (`NSCoreDataError`): a format string's argument that is missing or does not fit
    /// its specifier (`%@`, `%d`, `%K`, …).
    public static let predicateArgument = Self("predicateArgument", code: 134060)
    /// 134060 (`NSCoreDataError`): a key path naming no property of the entity a predicate is
    /// applied to.
    public static let predicateUnknownKey = Self("predicateUnknownKey", code: 134060)
    /// 134060 (`NSCoreDataError`): a predicate that parses but cannot be applied to its entity
    /// (a misused key path, a free variable, an unusable constant).
    public static let predicateInvalid = Self("predicateInvalid", code: 134060)
    /// 134060 (`NSCoreDataError`): a substitution variable's value a predicate cannot hold.
    public static let predicateVariableValue = Self("predicateVariableValue", code: 134060)
    /// 134060 (`NSCoreDataError`): a predicate nested deeper than the evaluator allows.
    public static let predicateTooDeep = Self("predicateTooDeep", code: 134060)
    /// 134060 (`NSCoreDataError`): a sort key that does not name an attribute reachable
    /// through to-one relationships.
    public static let invalidSortKey = Self("invalidSortKey", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/predicateSyntax`` (134060), for `catch ObjectGraphError.predicateSyntax`.
    public static var predicateSyntax: Reason { .predicateSyntax }
    /// ``Reason/predicateArgument`` (134060), for `catch` clauses.
    public static var predicateArgument: Reason { .predicateArgument }
    /// ``Reason/predicateUnknownKey`` (134060), for `catch` clauses.
    public static var predicateUnknownKey: Reason { .predicateUnknownKey }
    /// ``Reason/predicateInvalid`` (134060), for `catch` clauses.
    public static var predicateInvalid: Reason { .predicateInvalid }
    /// ``Reason/predicateVariableValue`` (134060), for `catch` clauses.
    public static var predicateVariableValue: Reason { .predicateVariableValue }
    /// ``Reason/predicateTooDeep`` (134060), for `catch` clauses.
    public static var predicateTooDeep: Reason { .predicateTooDeep }
    /// ``Reason/invalidSortKey`` (134060), for `catch` clauses.
    public static var invalidSortKey: Reason { .invalidSortKey }
}

/// Errors of the predicate language, all code 134060 (`NSCoreDataError`), as Core Data
/// reports a bad predicate, each with its own reason.
enum PredicateErrors {
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
    ///
    /// `kind` is ``ObjectGraphError/Reason/predicateSyntax`` or, for an argument that is
    /// missing or does not fit, ``ObjectGraphError/Reason/predicateArgument``.
    static func syntax(
        _ reason: String, format: String, scalarOffset: Int,
        kind: ObjectGraphError.Reason = .predicateSyntax
    ) -> ObjectGraphError {
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
            kind,
            "predicate: \(EchoedText.capped(reason, limit: 2 * EchoedText.limit)) at column \(column)\n  \(shown.text)\n  \(caret)",
            column: column)
    }

    /// A key path naming no property of the entity it is applied to.
    static func unknownKey(
        _ key: String, entity: EntityDescription, keyPath: String,
        predicate: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .predicateUnknownKey,
            "predicate: \(entity.name) has no property '\(EchoedText.capped(key))' "
                + (keyPath == key ? "" : "(key path '\(EchoedText.capped(keyPath))') ")
                + "in: \(EchoedText.capped(predicate))",
            entityName: entity.name, key: key)
    }

    /// A predicate that parses but cannot be applied to the entity (a misused key path, a
    /// free variable, an unusable constant).
    static func invalid(
        _ reason: String, entity: EntityDescription, predicate: String,
        key: String? = nil
    ) -> ObjectGraphError {
        ObjectGraphError(
            .predicateInvalid,
            "predicate: \(EchoedText.capped(reason, limit: 2 * EchoedText.limit)) "
                + "(entity \(entity.name)) in: \(EchoedText.capped(predicate))",
            entityName: entity.name, key: key)
    }

    /// A value passed to `withSubstitutionVariables` that a predicate cannot hold.
    static func variableValue(_ name: String, value: Any) -> ObjectGraphError {
        ObjectGraphError(
            .predicateVariableValue,
            "predicate: the value of $\(name) (\(type(of: value))) cannot be used "
                + "in a predicate; pass numbers, strings, dates, UUIDs, URLs, data, objects, "
                + "object IDs, nil, or arrays and sets of them")
    }

    /// A predicate nested deeper than the evaluator allows.
    static func tooDeep(limit: Int, entity: EntityDescription, predicate: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .predicateTooDeep,
            "predicate: nested more than \(limit) levels deep (entity \(entity.name)) "
                + "in: \(EchoedText.capped(predicate))", entityName: entity.name)
    }

    /// A sort key that does not name an attribute reachable through to-one relationships.
    static func invalidSortKey(_ keyPath: String, entity: EntityDescription, reason: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .invalidSortKey,
            "sort descriptor: '\(EchoedText.capped(keyPath))' \(reason) (entity \(entity.name))",
            entityName: entity.name, key: keyPath)
    }
}
