import Foundation

/// Turns a Swift key path of managed-object properties into the key path string Core Data
/// derives from it: `\Transaction.category?.name` → `"category.name"`.
///
/// The key path is applied to a *probe*: an instance of its root class that belongs to no
/// context and no model. Its `@Attribute` and `@Relationship` properties answer by recording
/// their key (and, for a to-one, returning a probe of the destination class) instead of
/// reading a value, so the keys come out in order. Only properties declared with the
/// wrappers are seen: a computed property is walked through, reading the wrapped properties
/// it uses.
enum KeyPathProbe {
    /// The entity probes carry; in no model, so no property of a real entity resolves on it.
    static let entity = EntityDescription(name: "(key path probe)")

    // Sendable: guarded by `lock`.
    nonisolated(unsafe) private static var logs: [ObjectIdentifier: Log] = [:]
    private static let lock = NSLock()

    /// The keys a probe walk read, shared by the root probe and the probes it hands out.
    final class Log {
        var keys: [String] = []
    }

    /// The dotted key path `keyPath` names.
    ///
    /// - Precondition: `keyPath` reads at least one `@Attribute` or `@Relationship` property.
    static func keyPath<Root: ManagedObject, Value>(_ keyPath: KeyPath<Root, Value>) -> String {
        let log = Log()
        let probe = unsafeDowncast(make(Root.self, log: log), to: Root.self)
        _ = probe[keyPath: keyPath]
        let probes = log.keys
        release(log)
        precondition(
            !probes.isEmpty,
            "ObjectGraph: the key path \(keyPath) of \(Root.self) names no @Attribute or "
                + "@Relationship property; use FetchSortDescriptor(key:) with the key's name")
        return probes.joined(separator: ".")
    }

    /// A probe of `type` whose wrapped properties record into `log`.
    static func make(_ type: ManagedObject.Type, log: Log) -> ManagedObject {
        let probe = type.init(entity: entity, insertInto: nil)
        probe.state.isProbe = true
        lock.lock()
        logs[ObjectIdentifier(probe)] = log
        lock.unlock()
        return probe
    }

    /// Records that `object`, a probe, read `key`; `false` when `object` is not a probe.
    static func record(_ key: String, on object: ManagedObject) -> Bool {
        guard object.state.isProbe else { return false }
        lock.lock()
        logs[ObjectIdentifier(object)]?.keys.append(key)
        lock.unlock()
        return true
    }

    /// A probe of `type` sharing `object`'s log (the destination of a to-one).
    static func destination(of object: ManagedObject, _ type: ManagedObject.Type)
        -> ManagedObject
    {
        lock.lock()
        let log = logs[ObjectIdentifier(object)] ?? Log()
        lock.unlock()
        return make(type, log: log)
    }

    private static func release(_ log: Log) {
        lock.lock()
        logs = logs.filter { $0.value !== log }
        lock.unlock()
    }
}
