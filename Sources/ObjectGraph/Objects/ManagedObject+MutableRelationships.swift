import Foundation

extension ManagedObject {
    /// A live, mutable view of the to-many relationship `key`: adding or removing through it
    /// changes the relationship and its inverse, as ``add(_:toRelationship:)`` and
    /// ``remove(_:fromRelationship:)`` do.
    ///
    /// ```swift
    /// book.mutableSetValue(forKey: "tags").add(tag)
    /// ```
    ///
    /// The view reads the relationship each time (loading it if it is a fault), so it stays
    /// current after other changes. Use it on the object's context's queue.
    ///
    /// - Precondition: `key` names a to-many relationship of the entity.
    /// - Note: Mirrors key-value coding's `mutableSetValue(forKey:)`, whose `NSMutableSet`
    ///   proxy Core Data's generated `addToX(_:)` accessors use.
    public func mutableSetValue(forKey key: String) -> RelationshipMutableSet {
        RelationshipMutableSet(self, toManyRelationship(key, "mutableSetValue(forKey:)"))
    }

    /// A live, mutable view of the ordered to-many relationship `key`, in its order.
    ///
    /// - Precondition: `key` names an ordered to-many relationship of the entity.
    /// - Note: Mirrors key-value coding's `mutableOrderedSetValue(forKey:)` (an
    ///   `NSMutableOrderedSet` proxy).
    public func mutableOrderedSetValue(forKey key: String) -> RelationshipMutableOrderedSet {
        let r = toManyRelationship(key, "mutableOrderedSetValue(forKey:)")
        precondition(
            r.isOrdered,
            "ObjectGraph: mutableOrderedSetValue(forKey:): \(entity.name).\(key) is not ordered; "
                + "use mutableSetValue(forKey:)")
        return RelationshipMutableOrderedSet(self, r)
    }

    /// `member` as a managed object, or a trap naming the relationship (Core Data raises
    /// `NSInvalidArgumentException` for a value of the wrong type).
    fileprivate func member(_ member: Any, of r: RelationshipDescription, _ call: String)
        -> ManagedObject
    {
        guard let object = member as? ManagedObject else {
            preconditionFailure(
                "ObjectGraph: \(call) on \(entity.name).\(r.name): expected a "
                    + "\(r.destinationEntityName) object, got \(type(of: member))")
        }
        checkDestination(r, object)
        return object
    }
}

/// The members of a to-many relationship as a mutable set that writes through to the object.
///
/// Made by ``ManagedObject/mutableSetValue(forKey:)``. Members are `Any` in the methods that
/// take them, as `NSMutableSet`'s are, so ported code compiles unchanged; anything other than
/// a managed object of the destination entity traps. Not `Sendable`: use it on the object's
/// context's queue.
///
/// - Note: Mirrors the `NSMutableSet` that `mutableSetValue(forKey:)` returns.
public final class RelationshipMutableSet: Sequence {
    /// The object whose relationship this is.
    public let object: ManagedObject
    /// The relationship.
    public let relationship: RelationshipDescription

    init(_ object: ManagedObject, _ relationship: RelationshipDescription) {
        self.object = object
        self.relationship = relationship
    }

    /// The current members, in no particular order.
    public var allObjects: [ManagedObject] { object.related(relationship) }
    /// How many members there are.
    public var count: Int { allObjects.count }
    /// Whether `member` is one of the members (compared by identity).
    public func contains(_ member: Any) -> Bool {
        guard let member = member as? ManagedObject else { return false }
        return allObjects.contains { $0 === member }
    }
    /// Adds `member` (nothing happens when it is one already), updating the inverse.
    public func add(_ member: Any) {
        object.insertRelated(relationship, object.member(member, of: relationship, "add(_:)"))
    }
    /// Removes `member` (nothing happens when it is not one), updating the inverse.
    public func remove(_ member: Any) {
        guard let member = member as? ManagedObject else { return }
        object.removeRelated(relationship, member)
    }
    /// Adds each of `members`.
    public func addObjects(from members: [Any]) { for member in members { add(member) } }
    /// Removes every member, updating each one's inverse.
    public func removeAllObjects() {
        for member in allObjects { object.removeRelated(relationship, member) }
    }
    /// Adds every member of `other`.
    public func union(_ other: Set<ManagedObject>) { for member in other { add(member) } }
    /// Removes every member of `other`.
    public func minus(_ other: Set<ManagedObject>) { for member in other { remove(member) } }
    /// The members as a Swift set.
    public var set: Set<ManagedObject> { Set(allObjects) }
    /// Iterates over a copy of the current members.
    public func makeIterator() -> IndexingIterator<[ManagedObject]> {
        allObjects.makeIterator()
    }
}

/// The members of an ordered to-many relationship as a mutable ordered set that writes
/// through to the object.
///
/// Made by ``ManagedObject/mutableOrderedSetValue(forKey:)``. Indexes are positions in the
/// relationship's order; an index out of range traps, as `NSMutableOrderedSet` raises. Not
/// `Sendable`: use it on the object's context's queue.
///
/// - Note: Mirrors the `NSMutableOrderedSet` that `mutableOrderedSetValue(forKey:)` returns.
public final class RelationshipMutableOrderedSet: RandomAccessCollection {
    /// The object whose relationship this is.
    public let object: ManagedObject
    /// The relationship.
    public let relationship: RelationshipDescription

    init(_ object: ManagedObject, _ relationship: RelationshipDescription) {
        self.object = object
        self.relationship = relationship
    }

    /// The current members, in order.
    public var array: [ManagedObject] { object.related(relationship) }
    /// 0.
    public var startIndex: Int { 0 }
    /// The number of members.
    public var endIndex: Int { array.count }
    /// The member at `position`.
    public subscript(position: Int) -> ManagedObject { array[position] }
    /// The member at `index`.
    public func object(at index: Int) -> ManagedObject { array[index] }
    /// The position of `member`, or `NSNotFound`.
    public func index(of member: Any) -> Int {
        guard let member = member as? ManagedObject else { return NSNotFound }
        return array.firstIndex { $0 === member } ?? NSNotFound
    }
    /// Whether `member` is one of the members (compared by identity).
    public func contains(_ member: Any) -> Bool { index(of: member) != NSNotFound }

    /// Appends `member` (nothing happens when it is one already), updating the inverse.
    public func add(_ member: Any) {
        let member = object.member(member, of: relationship, "add(_:)")
        guard !contains(member) else { return }
        write(array + [member])
    }
    /// Inserts `member` at `index` (nothing happens when it is one already).
    public func insert(_ member: Any, at index: Int) {
        let member = object.member(member, of: relationship, "insert(_:at:)")
        guard !contains(member) else { return }
        var members = array
        members.insert(member, at: index)
        write(members)
    }
    /// Removes `member` (nothing happens when it is not one), updating the inverse.
    public func remove(_ member: Any) {
        let position = index(of: member)
        guard position != NSNotFound else { return }
        removeObject(at: position)
    }
    /// Removes the member at `index`, updating its inverse.
    public func removeObject(at index: Int) {
        var members = array
        members.remove(at: index)
        write(members)
    }
    /// Adds each of `members` at the end, in order.
    public func addObjects(from members: [Any]) { for member in members { add(member) } }
    /// Removes every member, updating each one's inverse.
    public func removeAllObjects() { write([]) }

    private func write(_ members: [ManagedObject]) { object.setRelated(relationship, members) }
}
