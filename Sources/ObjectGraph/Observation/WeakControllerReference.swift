import Foundation

/// A weak reference to a controller, for a notification observer block.
final class WeakControllerReference<Controller: AnyObject>: @unchecked Sendable {
    // Sendable: the reference is only dereferenced by the observer, which runs on the
    // posting context's queue, the queue the controller belongs to.
    weak var value: Controller?
    init(_ value: Controller) { self.value = value }
}
