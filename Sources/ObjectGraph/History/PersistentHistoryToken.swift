import Foundation

/// A bookmark in persistent history: the last transaction seen, per store.
///
/// Get one from ``PersistentHistoryTransaction/token`` or
/// ``PersistentStoreCoordinator/currentPersistentHistoryToken(fromStores:)``, keep it, and
/// later ask for what happened after it with
/// ``PersistentHistoryChangeRequest/fetchHistory(after:)-(PersistentHistoryToken?)``. Tokens
/// survive a restart: archive one with `NSKeyedArchiver` (it supports `NSSecureCoding`), or
/// encode it with any `Encoder` (it is `Codable`).
///
/// ```swift
/// let data = try NSKeyedArchiver.archivedData(withRootObject: token, requiringSecureCoding: true)
/// let back = try NSKeyedUnarchiver.unarchivedObject(ofClass: PersistentHistoryToken.self, from: data)
/// ```
///
/// Two tokens are equal when they name the same transaction numbers of the same stores. They
/// are ordered store by store (by store identifier, then transaction number): for tokens of
/// one store, a later transaction's token is greater.
///
/// - Note: Mirrors `NSPersistentHistoryToken`, whose contents are private; here they are the
///   store identifier and transaction number (``transactionNumbers``).
public final class PersistentHistoryToken: NSObject, NSSecureCoding, Codable, Comparable,
    Sendable
{
    /// Store identifier → the number of the last transaction this token has seen there.
    public let transactionNumbers: [String: Int64]

    /// A token for transaction `number` of the store `storeIdentifier`.
    public init(storeIdentifier: String, transactionNumber number: Int64) {
        self.transactionNumbers = [storeIdentifier: number]
    }

    /// A token for several stores.
    public init(transactionNumbers: [String: Int64]) {
        self.transactionNumbers = transactionNumbers
    }

    /// `true`: tokens decode only as this class.
    public static var supportsSecureCoding: Bool { true }

    /// Archives the store identifiers and numbers.
    public func encode(with coder: NSCoder) {
        let sorted = transactionNumbers.sorted { $0.key < $1.key }
        coder.encode(sorted.map { NSString(string: $0.key) } as NSArray, forKey: "stores")
        coder.encode(sorted.map { NSNumber(value: $0.value) } as NSArray, forKey: "numbers")
    }

    /// Unarchives a token; `nil` when the archive does not hold one.
    public init?(coder: NSCoder) {
        guard
            let stores = coder.decodeObject(of: [NSArray.self, NSString.self], forKey: "stores")
                as? [Any],
            let numbers = coder.decodeObject(of: [NSArray.self, NSNumber.self], forKey: "numbers")
                as? [Any],
            stores.count == numbers.count
        else { return nil }
        var map: [String: Int64] = [:]
        for (store, number) in zip(stores, numbers) {
            guard let id = (store as? NSString).map(String.init) ?? (store as? String),
                let n = (number as? NSNumber)?.int64Value ?? (number as? Int).map(Int64.init)
            else { return nil }
            map[id] = n
        }
        self.transactionNumbers = map
    }

    private enum CodingKeys: String, CodingKey { case transactionNumbers }

    /// Encodes ``transactionNumbers``.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(transactionNumbers, forKey: .transactionNumbers)
    }

    /// Decodes a token encoded by ``encode(to:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.transactionNumbers = try c.decode([String: Int64].self, forKey: .transactionNumbers)
    }

    /// The store identifiers and numbers in order, which ``<(_:_:)`` compares.
    private var ordered: [(String, Int64)] {
        transactionNumbers.sorted { $0.key < $1.key }
    }

    /// Whether both name the same transactions of the same stores.
    public override func isEqual(_ object: Any?) -> Bool {
        (object as? PersistentHistoryToken)?.transactionNumbers == transactionNumbers
    }

    /// A hash agreeing with ``isEqual(_:)``.
    public override var hash: Int {
        var h = Hasher()
        for (id, n) in ordered {
            h.combine(id)
            h.combine(n)
        }
        return h.finalize()
    }

    /// Store by store: identifiers in order, then transaction numbers.
    public static func < (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        let l = lhs.ordered
        let r = rhs.ordered
        for (a, b) in zip(l, r) where a != b {
            return a.0 != b.0 ? a.0 < b.0 : a.1 < b.1
        }
        return l.count < r.count
    }

    /// `==` is ``isEqual(_:)``.
    public static func == (lhs: PersistentHistoryToken, rhs: PersistentHistoryToken) -> Bool {
        lhs.isEqual(rhs)
    }

    /// `PersistentHistoryToken(STORE: N, …)`.
    public override var description: String {
        "PersistentHistoryToken("
            + ordered.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + ")"
    }
}
