import Foundation

extension ObjectGraphError {
    /// The error and everything under it, one per line, indented two spaces per level.
    ///
    /// Each line is the code and message (``description``); an error of another domain
    /// shows its domain too (`MyAppErrors 7: …`). Conflict lists are listed under a 133020
    /// or 133021, one conflict per line.
    ///
    /// ```
    /// error 1560: 2 validation errors: Parcel.slug is required; Parcel.name is required
    ///   error 1570: Parcel.slug is required
    ///   error 1570: Parcel.name is required
    /// ```
    public var treeDescription: String {
        var lines: [String] = []
        func walk(_ e: ObjectGraphError, _ depth: Int) {
            let indent = String(repeating: "  ", count: depth)
            if let original = e.originalError {
                let ns = original as NSError
                lines.append(indent + "\(ns.domain) \(ns.code): \(ns.localizedDescription)")
                for nested in ns.userInfo[NSDetailedErrorsKey] as? [NSError] ?? [] {
                    walk(.wrapping(nested), depth + 1)
                }
                return
            }
            lines.append(indent + e.description)
            for u in e.underlying { walk(u, depth + 1) }
            for conflict in e.userInfo[NSPersistentStoreSaveConflictsErrorKey] as? [Any] ?? [] {
                lines.append(indent + "  conflict: \(conflict)")
            }
        }
        walk(self, 0)
        return lines.joined(separator: "\n")
    }
}
