import Foundation

/// The subclass bound to an entity after its model was built: a model read from a file names
/// its classes (`representedClassName`) but cannot always find them, so the first
/// `Category(context:)` or fetch of `Category` binds the class by name.
///
/// Bound once, never changed; read on every object the entity instantiates.
final class ClassBinding: @unchecked Sendable {
    // Sendable: `bound` is read and written only while holding `lock`; binding decisions for
    // a whole model are serialised by `decisionLock`.
    private let lock = NSLock()
    private var bound: ManagedObject.Type?
    /// Serialises binding decisions, so two classes never bind one entity.
    static let decisionLock = NSLock()

    /// The bound class, or ``ManagedObject``.
    var boundClass: ManagedObject.Type {
        lock.lock()
        defer { lock.unlock() }
        return bound ?? ManagedObject.self
    }

    /// Whether a subclass was bound.
    var isBound: Bool {
        lock.lock()
        defer { lock.unlock() }
        return bound != nil
    }

    func bind(_ type: ManagedObject.Type) {
        lock.lock()
        bound = type
        lock.unlock()
    }
}

/// Where a class's entity was looked for, when none was found: what a message needs.
struct ClassLookupFailure: Error {
    /// The class.
    let type: ManagedObject.Type
    /// The entities with no class of their own, which the class could bind to by name.
    let unbound: [String]
    /// The entities whose class name or name matched, when more than one did.
    let ambiguous: [String]
}

extension ManagedObjectModel {
    /// The entity whose objects are `type`: the one whose class it is; else the one entity
    /// with no class of its own whose recorded class name (its last dot-separated part) or,
    /// failing that, whose name equals `type`'s unqualified name, which is then bound to
    /// `type` for good.
    ///
    /// - Complexity: O(entities); this runs for every `init(context:)`.
    func entity(forClass type: ManagedObject.Type) -> Result<EntityDescription, ClassLookupFailure>
    {
        if let owner = owner(of: type) { return owner }
        ClassBinding.decisionLock.lock()
        defer { ClassBinding.decisionLock.unlock() }
        if let owner = owner(of: type) { return owner }
        let name = Self.unqualifiedName(of: type)
        let unbound = entities.filter {
            $0.declaredClass == ManagedObject.self && !$0.binding.isBound
        }
        let byClassName = unbound.filter {
            $0.managedObjectClassName.map(Self.lastComponent) == name
        }
        let matches = byClassName.isEmpty ? unbound.filter { $0.name == name } : byClassName
        guard matches.count == 1 else {
            return .failure(
                ClassLookupFailure(
                    type: type, unbound: unbound.map(\.name),
                    ambiguous: matches.count > 1 ? matches.map(\.name) : []))
        }
        matches[0].binding.bind(type)
        return .success(matches[0])
    }

    /// The one entity whose class is `type` (or a failure naming several); `nil` for none.
    private func owner(of type: ManagedObject.Type) -> Result<
        EntityDescription, ClassLookupFailure
    >? {
        // One pass without building an array.
        var found: EntityDescription?
        var count = 0
        for entity in entities where entity.managedObjectClass == type {
            found = entity
            count += 1
        }
        guard let found else { return nil }
        if count == 1 { return .success(found) }
        let owners = entities.filter { $0.managedObjectClass == type }.map(\.name)
        return .failure(ClassLookupFailure(type: type, unbound: [], ambiguous: owners))
    }

    /// `MyApp.Category` → `Category`; a nested type's own name.
    static func unqualifiedName(of type: Any.Type) -> String {
        lastComponent(String(describing: type))
    }

    static func lastComponent(_ name: String) -> String {
        name.split(separator: ".").last.map(String.init) ?? name
    }
}

extension ClassLookupFailure {
    /// What went wrong and how to fix it, naming the class and the entities it could match.
    var explanation: String {
        let name = String(describing: type)
        if type == ManagedObject.self {
            return "ManagedObject is the class of every entity without one; name the entity"
        }
        if !ambiguous.isEmpty {
            return
                "\(name) is the class of several entities (\(ambiguous.joined(separator: ", "))); "
                + "use init(entity:insertInto:) or name the entity to choose one"
        }
        let candidates =
            unbound.isEmpty
            ? "every entity of the model has a class of its own"
            : "the entities without a class are \(EchoedText.list(unbound, quoted: false))"
        return "\(name) is the class of no entity, and no entity without a class is named "
            + "\(name) or records the class name \(name) (\(candidates)); set the entity's class "
            + "name (representedClassName) to \(name), pass a classResolver when loading the "
            + "model, or name the entity explicitly"
    }
}
