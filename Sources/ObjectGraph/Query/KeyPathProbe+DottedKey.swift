import Foundation

extension KeyPathProbe {
    /// The dotted key a key path of managed-object properties names (`\Transaction.category?.name`
    /// → `"category.name"`), as Core Data derives it for `NSSortDescriptor(keyPath:)` and
    /// `NSExpression(forKeyPath:)`.
    ///
    /// - Precondition: `keyPath` is a chain of `@Attribute` and to-one `@Relationship`
    ///   properties of `Root`.
    static func dottedKey<Root: ManagedObject, Value>(_ keyPath: KeyPath<Root, Value>) -> String {
        guard case .properties(let keys)? = resolve(keyPath, rootType: Root.self), !keys.isEmpty
        else {
            preconditionFailure(
                "ObjectGraph: the key path \(keyPath) of \(Root.self) is not a chain of "
                    + "@Attribute and @Relationship properties; use the key's name instead")
        }
        return keys.joined(separator: ".")
    }
}
