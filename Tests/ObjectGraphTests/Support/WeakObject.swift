import ObjectGraph

/// A weak reference to an object, for the lifetime tests: `nil` once nothing else holds it.
final class WeakObject {
    /// The object, while something else holds it.
    weak var object: ManagedObject?
    init(_ object: ManagedObject) { self.object = object }
}
