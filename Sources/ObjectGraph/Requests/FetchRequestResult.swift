import Foundation

/// What a fetch can return: managed objects, object IDs, dictionaries and counts.
///
/// Use it as a request's result type when a request mixes result kinds or feeds a batch
/// delete, as Core Data code does with `NSFetchRequest<NSFetchRequestResult>`:
///
/// ```swift
/// let request = FetchRequest<any FetchRequestResult>(entityName: "Transaction")
/// let delete = BatchDeleteRequest(fetchRequest: request)
/// ```
///
/// Every ``ManagedObject`` subclass also gets `fetchRequest()`, typed for its own entity.
///
/// - Note: Mirrors `NSFetchRequestResult` (adopted by `NSManagedObject`, `NSManagedObjectID`,
///   `NSDictionary` and `NSNumber`).
public protocol FetchRequestResult {}

extension ManagedObject: FetchRequestResult {}
extension ManagedObjectID: FetchRequestResult {}
extension Int: FetchRequestResult {}
extension Dictionary: FetchRequestResult where Key == String, Value == Any {}

extension FetchRequestResult where Self: ManagedObject {
    /// A fetch request for the entity whose objects are of this class.
    ///
    /// ```swift
    /// let request: FetchRequest<Category> = Category.fetchRequest()
    /// request.sortDescriptors = [FetchSortDescriptor(keyPath: \Category.name, ascending: true)]
    /// let categories = try context.fetch(request)          // [Category]
    /// ```
    ///
    /// The request names no entity: when it runs, the entity is the one whose class is
    /// `Self`, or, for a model read from a file without a class resolver, the one entity
    /// without a class whose class name or name is `Self`'s (which is then bound to `Self`).
    /// A class with no such entity fails the fetch with
    /// ``ObjectGraphError/Reason/noEntityForClass``, naming the class and the candidates;
    /// another entity's rows are never returned.
    ///
    /// Xcode's generated declaration, renamed, still compiles and takes precedence:
    ///
    /// ```swift
    /// extension Category {
    ///     @nonobjc public class func fetchRequest() -> FetchRequest<Category> {
    ///         FetchRequest<Category>(entityName: "Category")
    ///     }
    /// }
    /// ```
    ///
    /// - Note: Mirrors the `fetchRequest()` class method Xcode generates for each subclass
    ///   (`NSManagedObject.fetchRequest()` returns `NSFetchRequest<NSFetchRequestResult>`).
    public static func fetchRequest() -> FetchRequest<Self> { FetchRequest<Self>() }
}
