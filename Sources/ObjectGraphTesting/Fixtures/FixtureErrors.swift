import Foundation
import ObjectGraph

extension ObjectGraphError.Reason {
    /// 134060 (`NSCoreDataError`): a fixture document that breaks a rule of the fixture
    /// format or of the model (an unknown entity or key, a value of the wrong type, a
    /// reference to no object); the message names the file and the JSON path.
    public static let invalidFixture = Self("invalidFixture", code: 134060)
    /// 134060 (`NSCoreDataError`): a fixture file that cannot be read.
    public static let fixtureUnreadable = Self("fixtureUnreadable", code: 134060)
    /// 134060 (`NSCoreDataError`): a `_ref` asked of ``FixtureReferences`` that no loaded
    /// object has, or whose object is not of the class asked for.
    public static let unknownFixtureReference = Self("unknownFixtureReference", code: 134060)
}

extension ObjectGraphError {
    /// ``Reason/invalidFixture`` (134060), for `catch` clauses.
    public static var invalidFixture: Reason { .invalidFixture }
    /// ``Reason/fixtureUnreadable`` (134060), for `catch` clauses.
    public static var fixtureUnreadable: Reason { .fixtureUnreadable }
    /// ``Reason/unknownFixtureReference`` (134060), for `catch` clauses.
    public static var unknownFixtureReference: Reason { .unknownFixtureReference }
}

/// Error factories of the fixture loader: every message names the file, the JSON path and
/// the rule broken. Format errors are ``ObjectGraphError/Reason/invalidFixture``; syntax and
/// validation failures keep their own reason.
enum FixtureErrors {
    static func subject(_ file: String?) -> String { file.map { "fixture \($0)" } ?? "fixture" }

    /// A rule broken at `path` (e.g. `Transaction[3].amount`).
    static func at(
        _ file: String?, _ path: String, entity: String? = nil, key: String? = nil,
        _ rule: String
    ) -> ObjectGraphError {
        ObjectGraphError(
            .invalidFixture, "\(subject(file)) at \(path): \(rule)", entityName: entity,
            key: key, file: file)
    }

    /// A document that is not well-formed JSON (the parser's error, reworded for fixtures).
    static func syntax(_ file: String?, _ parserError: ObjectGraphError) -> ObjectGraphError {
        let message = parserError.message
        let expected =
            message.range(of: ": expected ").map { String(message[$0.lowerBound...].dropFirst(2)) }
            ?? message
        let place = [parserError.line, parserError.column].compactMap { $0.map(String.init) }
            .joined(separator: ":")
        return parserError.relocated(
            message: "\(subject(file))\(place.isEmpty ? "" : " line \(place)"): \(expected)",
            file: file, line: parserError.line, column: parserError.column)
    }

    /// A file that cannot be read.
    static func unreadable(_ url: URL, _ error: any Error) -> ObjectGraphError {
        ObjectGraphError(
            .fixtureUnreadable,
            "fixture \(EchoedText.capped(url.path)): \(error.localizedDescription)", file: url.path)
    }

    /// A `_ref`'s object that is not of the class asked for.
    static func wrongClass(_ ref: String, _ object: ManagedObject, expected: Any.Type)
        -> ObjectGraphError
    {
        ObjectGraphError(
            .unknownFixtureReference,
            "fixture: _ref \(JSONValue.quoted(ref)) is a \(object.entity.name) "
                + "(class \(Swift.type(of: object))), not a \(expected)",
            entityName: object.entity.name)
    }

    /// A document whose top level is not an object keyed by entity name.
    static func notAnObject(_ file: String?, found: String) -> ObjectGraphError {
        ObjectGraphError(
            .invalidFixture,
            "\(subject(file)): expected an object keyed by entity name at the top level, "
                + "found \(found)", file: file)
    }

    /// A resource that is not in the bundle.
    static func missingResource(_ path: String, at url: URL, bundle: Bundle) -> ObjectGraphError {
        ObjectGraphError(
            .fixtureUnreadable,
            "fixture resource \(path) is not in the bundle \(bundle.bundleURL.lastPathComponent): "
                + "no file at \(url.path) (list its folder in the test target's resources, "
                + "e.g. resources: [.copy(\"Fixtures\")], and name it by its path in the target)",
            file: url.path)
    }

    /// A reference asked of ``FixtureReferences`` that no loaded object has.
    static func unknownReference(_ ref: String, known: [String]) -> ObjectGraphError {
        ObjectGraphError(
            .unknownFixtureReference,
            "fixture: no loaded object has _ref \(JSONValue.quoted(ref))"
                + suggestion(ref, among: known))
    }

    /// How many failures a 1560's message lists; all of them stay under the error.
    static let listedFailures = 20

    /// A validation (or constraint) error from the save, pointed at the objects' paths.
    ///
    /// The message of a 1560 lists the first ``listedFailures`` failures and counts the rest;
    /// ``ObjectGraphError/underlying`` keeps every one.
    ///
    /// - Complexity: O(total length of the messages), whatever the number of objects.
    static func validation(
        _ file: String?, _ error: ObjectGraphError, paths: [ManagedObjectID: FixturePath]
    ) -> ObjectGraphError {
        var byURI: [Substring: FixturePath] = [:]
        byURI.reserveCapacity(paths.count)
        for (id, path) in paths { byURI[Substring(id.description)] = path }
        func location(_ e: ObjectGraphError) -> String {
            guard let path = e.objectID.flatMap({ paths[$0] }) else { return "" }
            guard let key = e.key, !key.contains(",") else { return "at \(path)" }
            return "at \(path).\(key)"
        }
        func map(_ e: ObjectGraphError) -> ObjectGraphError {
            let file = e.objectID.flatMap { paths[$0]?.file } ?? file
            let underlying = e.underlying.map(map)
            var message: String
            if e.reason == .multipleValidationErrors {
                var items = zip(e.underlying, underlying).prefix(listedFailures).map {
                    original, _ in
                    [location(original), renamed(original.message, byURI)].filter { !$0.isEmpty }
                        .joined(separator: ": ")
                }
                if underlying.count > listedFailures {
                    items.append("and \(underlying.count - listedFailures) more")
                }
                message = "\(underlying.count) validation errors: " + items.joined(separator: "; ")
            } else {
                message = renamed(e.message, byURI)
            }
            let place = location(e)
            message = "\(subject(file))\(place.isEmpty ? "" : " " + place): " + message
            return e.relocated(
                message: message, file: file, line: nil, column: nil, underlying: underlying)
        }
        return map(error)
    }

    /// `text` with every object URI (`x-coredata://…/Entity/t7`) of a loaded object replaced
    /// by its fixture path, in one pass over the text.
    private static func renamed(_ text: String, _ byURI: [Substring: FixturePath]) -> String {
        let scheme = "x-coredata:"
        guard text.contains(scheme) else { return text }
        var result = ""
        var rest = text[...]
        while let found = rest.range(of: scheme) {
            result += rest[..<found.lowerBound]
            var end = found.upperBound
            while end < rest.endIndex, Self.isURICharacter(rest[end]) {
                end = rest.index(after: end)
            }
            let uri = rest[found.lowerBound..<end]
            if let path = byURI[uri] { result += path.description } else { result += uri }
            rest = rest[end...]
        }
        return result + rest
    }

    /// Whether `c` can be part of an object URI: the store UUID, entity names, `/`, `pN`/`tN`.
    private static func isURICharacter(_ c: Character) -> Bool {
        c.isLetter || c.isNumber || c == "/" || c == "-" || c == "_"
    }

    /// `" (did you mean x?)"` when a known name is close to `name`, else `""`.
    static func suggestion(_ name: String, among known: [String]) -> String {
        let lowered = name.lowercased()
        var best: (name: String, distance: Int)?
        for candidate in known {
            let d = distance(lowered, candidate.lowercased())
            if best == nil || d < best!.distance || (d == best!.distance && candidate < best!.name)
            {
                best = (candidate, d)
            }
        }
        guard let best, best.distance <= max(1, name.count / 3) else { return "" }
        return " (did you mean \(best.name)?)"
    }

    /// Levenshtein distance.
    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var previous = Array(0...b.count)
        for i in 1...a.count {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, substitution)
            }
            previous = current
        }
        return previous[b.count]
    }
}
