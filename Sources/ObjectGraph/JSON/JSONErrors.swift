import Foundation

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a document (a JSON model, a fixture, a dump's input) that is
    /// not well-formed JSON; ``ObjectGraphError/line`` and ``ObjectGraphError/column`` say where.
    public static let jsonSyntax = Self("jsonSyntax", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/jsonSyntax`` (134060), for `catch` clauses.
    public static var jsonSyntax: Reason { .jsonSyntax }
}

/// The error of the JSON reader.
enum JSONErrors {
    /// A document that is not well-formed JSON at `line`:`column` (1-based).
    static func syntax(file: String?, line: Int, column: Int, expected: String)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .jsonSyntax,
            "JSON \(file.map { "\($0):" } ?? "line ")\(line):\(column): expected \(expected)",
            file: file, line: line, column: column)
    }
}
