import Foundation

/// Finds the `ManagedObject` subclass a model file names for an entity (Xcode's
/// `representedClassName`, the JSON format's `managedObjectClassName`).
///
/// Tried in order: the caller's resolver with the name as written, then with its last
/// dot-separated part (`MyApp.Category`, `.Category`); the name itself when module-qualified;
/// the last part in each candidate module (the ones the caller names, then the main
/// executable's). On this toolchain the runtime finds a class only by its module-qualified
/// name, and Xcode often records an unqualified one, so a class found by none of these is
/// bound by name when first used instead (see `ManagedObjectModel.entity(forClass:)`).
struct ClassNameResolver {
    let resolver: ((String) -> ManagedObject.Type?)?
    let modules: [String]

    init(_ resolver: ((String) -> ManagedObject.Type?)?, modules: [String]) {
        self.resolver = resolver
        var candidates = modules
        if let main = Self.mainModule, !candidates.contains(main) { candidates.append(main) }
        self.modules = candidates
    }

    func resolve(_ name: String) -> ManagedObject.Type? {
        let last = ManagedObjectModel.lastComponent(name)
        if let resolver {
            if let found = resolver(name) { return found }
            if last != name, let found = resolver(last) { return found }
        }
        guard !last.isEmpty, last.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            return nil
        }
        if name.contains("."), !name.hasPrefix("."), let found = Self.type(named: name) {
            return found
        }
        for module in modules {
            if let found = Self.type(named: "\(module).\(last)") { return found }
        }
        return nil
    }

    private static func type(named name: String) -> ManagedObject.Type? {
        _typeByName(name) as? ManagedObject.Type
    }

    /// The main executable's module: its file name with `-` as `_`, as SwiftPM names it.
    static let mainModule: String? = Bundle.main.executableURL.map {
        $0.deletingPathExtension().lastPathComponent.replacingOccurrences(of: "-", with: "_")
    }
}
