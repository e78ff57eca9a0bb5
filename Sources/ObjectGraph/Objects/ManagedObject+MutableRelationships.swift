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

    /// The loaded members of the to-many `r` (loading it if it is a fault): counts and
    /// membership in O(1).
    fileprivate func members(_ r: RelationshipDescription) -> RelatedObjects {
        if case .toMany(let members?) = read(r) {
            return members
        }
        return RelatedObjects()
    }

    /// Whether `member` is a member of the to-many `r` (`false` for anything else, of any
    /// type, entity or context).
    fileprivate func isMember(_ member: Any, of r: RelationshipDescription) -> ManagedObject? {
        guard let member = member as? ManagedObject, members(r).contains(member) else {
            return nil
        }
        return member
    }
}

/// What the mutable views of a to-many relationship share: the object and relationship,
/// counting, membership, adding and removing (each keeping the inverse in step), and
/// iterating in the relationship's order.
///
/// Use ``RelationshipMutableSet`` or ``RelationshipMutableOrderedSet``, which
/// ``ManagedObject/mutableSetValue(forKey:)`` and ``ManagedObject/mutableOrderedSetValue(forKey:)``
/// make. Members are `Any` in the methods that take them, as `NSMutableSet`'s are, so ported
/// code compiles unchanged; adding anything other than a managed object of the destination
/// entity traps, removing it does nothing. Not `Sendable`: use it on the object's context's
/// queue.
public class RelationshipMutableView: Sequence {
    /// The object whose relationship this is.
    public let object: ManagedObject
    /// The relationship.
    public let relationship: RelationshipDescription

    init(_ object: ManagedObject, _ relationship: RelationshipDescription) {
        self.object = object
        self.relationship = relationship
    }

    /// How many members there are (O(1)).
    public var count: Int { object.members(relationship).count }
    /// Whether `member` is one of the members (compared by identity; O(1)).
    public func contains(_ member: Any) -> Bool { object.isMember(member, of: relationship) != nil }
    /// Adds `member` (at the end when ordered; nothing happens when it is one already),
    /// updating the inverse.
    public func add(_ member: Any) {
        object.insertRelated(relationship, object.member(member, of: relationship, "add(_:)"))
    }
    /// Removes `member` (nothing happens when it is not one, whatever it is), updating the
    /// inverse.
    public func remove(_ member: Any) {
        guard let member = object.isMember(member, of: relationship) else { return }
        object.removeRelated(relationship, member)
    }
    /// Adds each of `members`, in order.
    public func addObjects(from members: [Any]) { for member in members { add(member) } }
    /// Removes every member, updating each one's inverse.
    public func removeAllObjects() {
        for member in object.related(relationship) { object.removeRelated(relationship, member) }
    }
    /// Iterates over a copy of the current members (in order, when ordered).
    public func makeIterator() -> IndexingIterator<[ManagedObject]> {
        object.related(relationship).makeIterator()
    }
}

/// The members of a to-many relationship as a mutable set that writes through to the object.
///
/// Made by ``ManagedObject/mutableSetValue(forKey:)``; see ``RelationshipMutableView`` for
/// counting, membership, adding and removing.
///
/// - Note: Mirrors the `NSMutableSet` that `mutableSetValue(forKey:)` returns.
public final class RelationshipMutableSet: RelationshipMutableView {
    /// The current members, in no particular order.
    public var allObjects: [ManagedObject] { object.related(relationship) }
    /// The members as a Swift set.
    public var set: Set<ManagedObject> { Set(allObjects) }
    /// Adds every member of `other`.
    public func union(_ other: Set<ManagedObject>) { for member in other { add(member) } }
    /// Removes every member of `other`.
    public func minus(_ other: Set<ManagedObject>) { for member in other { remove(member) } }
}

/// The members of an ordered to-many relationship as a mutable ordered set that writes
/// through to the object.
///
/// Made by ``ManagedObject/mutableOrderedSetValue(forKey:)``; see ``RelationshipMutableView``
/// for counting, membership, appending and removing. Indexes are positions in the
/// relationship's order; an index out of range traps, as `NSMutableOrderedSet` raises.
///
/// - Note: Mirrors the `NSMutableOrderedSet` that `mutableOrderedSetValue(forKey:)` returns.
public final class RelationshipMutableOrderedSet: RelationshipMutableView {
    /// The current members, in order (a copy: read it once to walk them).
    public var array: [ManagedObject] { object.related(relationship) }
    /// The member at `position` (O(n): take ``array`` once to read many).
    public subscript(position: Int) -> ManagedObject { array[position] }
    /// The member at `index` (O(n), as the subscript).
    public func object(at index: Int) -> ManagedObject { array[index] }
    /// The position of `member`, or `NSNotFound`.
    public func index(of member: Any) -> Int {
        guard let member = object.isMember(member, of: relationship) else { return NSNotFound }
        return array.firstIndex { $0 === member } ?? NSNotFound
    }
    /// Inserts `member` at `index` (nothing happens when it is one already).
    public func insert(_ member: Any, at index: Int) {
        let member = object.member(member, of: relationship, "insert(_:at:)")
        guard !contains(member) else { return }
        var members = array
        members.insert(member, at: index)
        object.setRelated(relationship, members)
    }
    /// Removes the member at `index`, updating its inverse.
    public func removeObject(at index: Int) {
        var members = array
        members.remove(at: index)
        object.setRelated(relationship, members)
    }
}
