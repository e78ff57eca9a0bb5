import Foundation

/// Which queue a context runs its work on.
///
/// - Note: Mirrors `NSManagedObjectContextConcurrencyType` (`.confinementConcurrencyType`
///   is deprecated in Core Data and not offered).
public enum ConcurrencyType: Sendable, Hashable {
    /// The context owns a private serial queue; use it only inside `perform` or `performAndWait`.
    case privateQueue
    /// The context runs on the main queue; code already on the main queue may use it directly.
    case mainQueue

    /// ``privateQueue`` under Core Data's name.
    ///
    /// - Note: Mirrors `NSManagedObjectContextConcurrencyType.privateQueueConcurrencyType`.
    public static let privateQueueConcurrencyType = ConcurrencyType.privateQueue
    /// ``mainQueue`` under Core Data's name.
    ///
    /// - Note: Mirrors `NSManagedObjectContextConcurrencyType.mainQueueConcurrencyType`.
    public static let mainQueueConcurrencyType = ConcurrencyType.mainQueue
}
