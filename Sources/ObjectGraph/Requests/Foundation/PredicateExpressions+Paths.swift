import Foundation

// Key paths and optional chaining of Foundation predicates, translated.

extension PredicateExpressions.KeyPath: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let base = try translator.expression(root)
        if let collection = Root.Output.self as? any ToManyCollection.Type,
            let property = collection.property(keyPath)
        {
            guard let count = base.appendingKeys(["@count"]) else {
                throw PredicateTranslator.unsupportedKeyPath(keyPath)
            }
            switch property {
            case .count: return .expression(count)
            case .isEmpty: return .predicate(.comparison(count, .equalTo, .constant(.integer(0))))
            }
        }
        guard let type = Root.Output.self as? ManagedObject.Type,
            let resolution = KeyPathProbe.resolve(keyPath, rootType: type)
        else { throw PredicateTranslator.unsupportedKeyPath(keyPath) }
        let keys: [String]
        switch resolution {
        case .properties(let k), .objectID(let k): keys = k
        }
        guard let path = base.appendingKeys(keys) else {
            throw PredicateTranslator.unsupportedKeyPath(keyPath)
        }
        return .expression(path)
    }
}

extension PredicateExpressions.OptionalFlatMap: TranslatablePredicateExpression {
    func translate(with translator: PredicateTranslator) throws -> TranslatedPredicate {
        let unwrapped = try translator.expression(wrapped)
        let present = FetchPredicate.comparison(unwrapped, .notEqualTo, .constant(.null))
        let result = try translator.binding(variable.key, to: unwrapped).translate(transform)
        switch result {
        case .expression(let e):
            // A key path through the unwrapped value is nil when it is: no guard needed
            // (except for a collection operator, which counts nothing as 0).
            if e.continues(unwrapped) && !e.endsWithCollectionOperator { return .expression(e) }
            return .expression(FetchExpression(.conditional(present, e, .constant(.null))))
        case .predicate(let condition):
            return .optionalCondition(present: present, condition: condition)
        case .optionalCondition(let inner, let condition):
            return .optionalCondition(present: .and([present, inner]), condition: condition)
        }
    }
}

/// A to-many relationship's Swift type (`Set<T>`, `[T]` of managed objects), whose `count`
/// and `isEmpty` translate to `@count`.
protocol ToManyCollection {
    /// Which collection property `keyPath` is, if any.
    static func property(_ keyPath: AnyKeyPath) -> ToManyCollectionProperty?
}

/// The collection properties of a to-many that translate.
enum ToManyCollectionProperty {
    case count, isEmpty
}

extension Set: ToManyCollection where Element: ManagedObject {
    static func property(_ keyPath: AnyKeyPath) -> ToManyCollectionProperty? {
        if keyPath == countKeyPath { return .count }
        if keyPath == isEmptyKeyPath { return .isEmpty }
        return nil
    }
}

extension Array: ToManyCollection where Element: ManagedObject {
    static func property(_ keyPath: AnyKeyPath) -> ToManyCollectionProperty? {
        if keyPath == countKeyPath { return .count }
        if keyPath == isEmptyKeyPath { return .isEmpty }
        return nil
    }
}

// Formed where `Element` is only `Hashable` (Set) or unconstrained (Array): forming them
// under `Element: ManagedObject` crashes the 6.3 compiler (a conformance found through a
// superclass).
extension Set {
    fileprivate static var countKeyPath: AnyKeyPath { \Set<Element>.count }
    fileprivate static var isEmptyKeyPath: AnyKeyPath { \Set<Element>.isEmpty }
}

extension Array {
    fileprivate static var countKeyPath: AnyKeyPath { \[Element].count }
    fileprivate static var isEmptyKeyPath: AnyKeyPath { \[Element].isEmpty }
}
