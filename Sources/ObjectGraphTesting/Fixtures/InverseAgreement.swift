import Foundation
import ObjectGraph

/// Checks that every relationship a fixture gives still holds exactly what it says once all
/// relationships (and so their inverses) are set: both sides of a relationship must agree.
struct InverseAgreement {
    let parsed: [ParsedObject]
    let objects: [ManagedObject]

    /// - Throws: ``ObjectGraphError`` 134060 at the first relationship that disagrees, naming
    ///   the object whose other side caused it.
    func check() throws {
        var indexOf: [ObjectIdentifier: Int] = [:]
        for (i, o) in objects.enumerated() { indexOf[ObjectIdentifier(o)] = i }
        for (i, p) in parsed.enumerated() {
            for (r, targets) in p.relationships {
                let expected = targets
                let actual = current(objects[i], r).compactMap { indexOf[ObjectIdentifier($0)] }
                let agrees = r.isOrdered ? expected == actual : Set(expected) == Set(actual)
                guard !agrees else { continue }
                throw disagreement(p, r, expected: expected, actual: actual)
            }
        }
    }

    private func current(_ object: ManagedObject, _ r: RelationshipDescription) -> [ManagedObject] {
        switch object.value(forKey: r.name) {
        case let o as ManagedObject: return [o]
        case let list as [ManagedObject]: return list
        case let set as Set<ManagedObject>: return Array(set)
        default: return []
        }
    }

    private func disagreement(
        _ p: ParsedObject, _ r: RelationshipDescription, expected: [Int], actual: [Int]
    ) -> ObjectGraphError {
        let involved = Set(expected).symmetricDifference(actual).sorted() + expected
        let culprit = r.inverseRelationship.flatMap { inverse in
            involved.first { parsed[$0].relationships.contains { $0.0 === inverse } }.map {
                "\(parsed[$0].path).\(inverse.name)"
            }
        }
        let owner = "\(p.entity.name).\(r.name)"
        let what =
            r.isOrdered && Set(expected) == Set(actual)
            ? "lists \(describe(expected)) but ends up in the order \(describe(actual))"
            : "says \(describe(expected)) but the other side of the relationship makes it \(describe(actual))"
        return FixtureErrors.at(
            p.path.file, "\(p.path).\(r.name)", entity: p.entity.name, key: r.name,
            "\(owner) \(what)" + (culprit.map { " (see \($0))" } ?? "")
                + "; both sides of a relationship must agree")
    }

    private func describe(_ indexes: [Int]) -> String {
        let names = indexes.map { i in
            parsed[i].ref.map { "\(JSONValue.quoted($0)) (\(parsed[i].path))" }
                ?? parsed[i].path.description
        }
        if names.isEmpty { return "nothing" }
        return names.count == 1 ? names[0] : "[" + names.joined(separator: ", ") + "]"
    }
}
